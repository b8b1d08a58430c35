/// A time stamp of the file system, exact to the nanosecond as `stat(2)` gives it.
public struct FileTime: Hashable, Comparable, Sendable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var seconds: Int64
    /// 0 to 999 999 999.
    public var nanoseconds: Int

    public init(seconds: Int64, nanoseconds: Int) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    public static func < (lhs: FileTime, rhs: FileTime) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// ISO 8601 in UTC, `2024-06-03T09:41:00.123456789Z`, with as many fraction digits as are
    /// not zero; nil outside years 1 to 9999.
    public var iso8601: String? {
        // About ±10 000 years: beyond, no four-digit year fits (and the day arithmetic below
        // cannot overflow inside it).
        guard (-320_000_000_000..<320_000_000_000).contains(seconds) else { return nil }
        let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = ReferenceDate.civilDate(daysSince1970: days)
        guard (1...9999).contains(year), (0..<1_000_000_000).contains(nanoseconds) else { return nil }
        var fraction = ""
        if nanoseconds > 0 {
            var digits = String(nanoseconds)
            digits = String(repeating: "0", count: 9 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            fraction = "." + digits
        }
        return Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2) + "T"
            + Self.padded(secondOfDay / 3600, 2) + ":" + Self.padded(secondOfDay / 60 % 60, 2) + ":"
            + Self.padded(secondOfDay % 60, 2) + fraction + "Z"
    }

    /// Microseconds since 1970, rounded down (the unit of Timesketch's `timestamp`).
    public var microseconds: Int64 {
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        return overflow ? (seconds < 0 ? .min : .max) : product &+ Int64(nanoseconds / 1000)
    }

    /// The file time nearest a Core Foundation date (seconds since 2001), for dates inside
    /// years 1 to 9999.
    public init?(referenceDate: Double) {
        guard referenceDate.isFinite, abs(referenceDate) < 3.2e11 else { return nil }
        let whole = referenceDate.rounded(.down)
        seconds = Int64(whole) + ReferenceDate.unixOffsetDays * 86_400
        nanoseconds = min(999_999_999, Int(((referenceDate - whole) * 1_000_000_000).rounded()))
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
