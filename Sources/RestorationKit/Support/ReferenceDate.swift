/// Formats Core Foundation dates (seconds since 2001-01-01T00:00:00Z) as ISO 8601 in UTC,
/// without Foundation and without rounding: the fraction printed is the shortest decimal that
/// reads back as the same double, and it is left out when it is zero.
public enum ReferenceDate {
    /// Seconds from 1970-01-01 to 2001-01-01.
    static let unixOffsetDays: Int64 = 11_323

    /// The ISO 8601 form, or nil when the date is not finite or falls outside years 1 to 9999.
    public static func iso8601(_ seconds: Double) -> String? {
        // ±3.2e11 s is about ±10 000 years: beyond that no ISO year of four digits fits, and
        // inside it every double converts to Int64 exactly.
        guard seconds.isFinite, abs(seconds) < 3.2e11 else { return nil }
        var (whole, fraction) = decimalParts(abs(seconds))
        if seconds < 0 {
            whole = -whole
            if !fraction.isEmpty {
                // -0.25 s is 0.75 s into the second before: borrow one and complement the digits.
                whole -= 1
                fraction = complement(fraction)
            }
        }
        let days = floorDivide(whole, 86_400)
        let secondOfDay = whole - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days + unixOffsetDays)
        guard (1...9999).contains(year) else { return nil }
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if !fraction.isEmpty {
            text += "." + fraction
        }
        return text + "Z"
    }

    /// The integer part and the fraction digits (no trailing zeros) of a non-negative double,
    /// from Swift's shortest round-trip representation.
    static func decimalParts(_ value: Double) -> (Int64, String) {
        let text = value.description
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        var digits = mantissa.filter { $0 != "." }
        var point = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count
        point += exponent
        if point < 0 {
            digits = String(repeating: "0", count: -point) + digits
            point = 0
        }
        if point > digits.count {
            digits += String(repeating: "0", count: point - digits.count)
        }
        let integerDigits = digits.prefix(point)
        var fractionDigits = Substring(digits.dropFirst(point))
        while fractionDigits.last == "0" { fractionDigits = fractionDigits.dropLast() }
        return (Int64(integerDigits) ?? 0, String(fractionDigits))
    }

    /// 10^n − f for an n-digit fraction f (not zero), as digits without trailing zeros:
    /// the nines' complement plus one.
    static func complement(_ fraction: String) -> String {
        var digits = fraction.utf8.map { 9 - Int($0 - UInt8(ascii: "0")) }
        var position = digits.count - 1
        while position >= 0 {
            digits[position] += 1
            if digits[position] < 10 { break }
            digits[position] = 0
            position -= 1
        }
        var text = String(digits.map { Character(Unicode.Scalar(UInt8(48 + $0))) })
        while text.last == "0" { text.removeLast() }
        return text
    }

    /// Proleptic Gregorian year, month and day of a count of days since 1970-01-01
    /// (Howard Hinnant's `civil_from_days`).
    static func civilDate(daysSince1970: Int64) -> (Int64, Int64, Int64) {
        let z = daysSince1970 + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
