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
        guard (0..<1_000_000_000).contains(nanoseconds) else { return nil }
        var digits = Array(String(nanoseconds).utf8)
        digits.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: 9 - digits.count), at: 0)
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        return ReferenceDate.ISO8601Parts(unixSeconds: seconds, fraction: digits)?.text
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
}
