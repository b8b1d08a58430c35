/// Formats Core Foundation dates (seconds since 2001-01-01T00:00:00Z) as ISO 8601 in UTC,
/// without Foundation and without rounding: the fraction printed is the shortest decimal that
/// reads back as the same double, and it is left out when it is zero.
package enum ReferenceDate {
    /// Seconds from 1970-01-01 to 2001-01-01.
    static let unixOffsetDays: Int64 = 11_323

    /// The ISO 8601 form, or nil when the date is not finite or falls outside years 1 to 9999.
    ///
    /// Built from bytes, not by joining Strings: a large archive holds hundreds of thousands
    /// of dates.
    public static func iso8601(_ seconds: Double) -> String? {
        ISO8601Parts(seconds)?.text
    }

    /// A date's ISO 8601 form in parts, which `write` gives byte by byte: the JSON writer
    /// copies them straight into its text, without a string.
    struct ISO8601Parts {
        private var year: Int64, month: Int64, day: Int64, secondOfDay: Int64
        /// Digits after the point (none for whole seconds).
        private var fraction: [UInt8]

        /// Nil for a date that has no such form.
        init?(_ seconds: Double) {
            // ±3.2e11 s is about ±10 000 years: beyond that no ISO year of four digits fits, and
            // inside it every double converts to Int64 exactly.
            guard seconds.isFinite, abs(seconds) < 3.2e11 else { return nil }
            // Whole seconds, the usual case, need no decimal expansion.
            var (whole, fraction) = seconds.rounded(.towardZero) == seconds ? (Int64(abs(seconds)), []) : decimalParts(abs(seconds))
            if seconds < 0 {
                whole = -whole
                if !fraction.isEmpty {
                    // -0.25 s is 0.75 s into the second before: borrow one and complement the digits.
                    whole -= 1
                    fraction = complement(fraction)
                }
            }
            self.init(unixSeconds: whole + unixOffsetDays * 86_400, fraction: fraction)
        }

        /// The form of `unixSeconds` after 1970-01-01T00:00:00Z plus a fraction (ASCII digits,
        /// no trailing zeros); nil outside years 1 to 9999.
        init?(unixSeconds: Int64, fraction: [UInt8]) {
            // About ±10 000 years: beyond, no four-digit year fits, and inside, the day
            // arithmetic cannot overflow.
            guard (-320_000_000_000..<320_000_000_000).contains(unixSeconds) else { return nil }
            let days = floorDivide(unixSeconds, 86_400)
            secondOfDay = unixSeconds - days * 86_400
            (year, month, day) = civilDate(daysSince1970: days)
            guard (1...9999).contains(year) else { return nil }
            self.fraction = fraction
        }

        /// The form as a string, `2024-06-03T09:41:00.25Z`.
        var text: String {
            var text: [UInt8] = []
            text.reserveCapacity(32)
            write { text.append($0) }
            return String(decoding: text, as: UTF8.self)
        }

        func write(to append: (UInt8) -> Void) {
            appendPadded(year, 4, to: append)
            append(UInt8(ascii: "-"))
            appendPadded(month, 2, to: append)
            append(UInt8(ascii: "-"))
            appendPadded(day, 2, to: append)
            append(UInt8(ascii: "T"))
            appendPadded(secondOfDay / 3600, 2, to: append)
            append(UInt8(ascii: ":"))
            appendPadded(secondOfDay / 60 % 60, 2, to: append)
            append(UInt8(ascii: ":"))
            appendPadded(secondOfDay % 60, 2, to: append)
            if !fraction.isEmpty {
                append(UInt8(ascii: "."))
                fraction.forEach(append)
            }
            append(UInt8(ascii: "Z"))
        }
    }

    /// What `referenceSeconds(iso8601:)` read.
    enum ParsedDate {
        case seconds(Double)
        /// Not `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, or no such day or time.
        case malformed
        /// A fraction finer than a double of seconds since 2001 holds there: it would be shown
        /// otherwise than written.
        case finerThanADate
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (UTF-8) as seconds since 2001-01-01, computed in
    /// integers so that the result is the double nearest the written instant, for any year from
    /// 1 to 9999: the inverse of `iso8601(_:)`.
    static func referenceSeconds(iso8601 characters: [UInt8]) -> ParsedDate {
        func isDigit(_ index: Int) -> Bool {
            index < characters.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(characters[index])
        }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                guard isDigit(index) else { return nil }
                value = value * 10 + Int64(characters[index] - UInt8(ascii: "0"))
            }
            return value
        }
        func separator(_ index: Int, _ expected: Unicode.Scalar) -> Bool {
            index < characters.count && characters[index] == UInt8(ascii: expected)
        }
        guard let year = number(0..<4), separator(4, "-"), let month = number(5..<7), separator(7, "-"),
              let day = number(8..<10), separator(10, "T"), let hour = number(11..<13), separator(13, ":"),
              let minute = number(14..<16), separator(16, ":"), let second = number(17..<19),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60, second < 60
        else { return .malformed }
        var end = 19
        let fractionStart = separator(end, ".") ? end + 1 : end
        end = fractionStart
        while isDigit(end) { end += 1 }
        guard separator(end, "Z"), end + 1 == characters.count else { return .malformed }
        let days = daysSince1970(year: year, month: month, day: day) - unixOffsetDays
        let whole = days * 86_400 + hour * 3_600 + minute * 60 + second
        var fractionEnd = end
        while fractionEnd > fractionStart, characters[fractionEnd - 1] == UInt8(ascii: "0") { fractionEnd -= 1 }
        guard fractionEnd > fractionStart else { return .seconds(Double(whole)) }
        // Short enough to be read back as written (see `ShortDecimal`): the shortest decimal
        // of the double is these digits, so the fraction is not finer than a date holds.
        let fractionDigits = fractionEnd - fractionStart
        if whole >= 0, fractionDigits <= ShortDecimal.maxDigits, Double(whole) < ShortDecimal.powersOfTen[ShortDecimal.maxDigits - fractionDigits] {
            let mantissa = characters[fractionStart..<fractionEnd].reduce(UInt64(whole)) { $0 * 10 + UInt64($1 - UInt8(ascii: "0")) }
            return .seconds(ShortDecimal.exact(mantissa, fractionDigits: fractionDigits, negative: false))
        }
        let fraction = Array(characters[fractionStart..<fractionEnd])
        // Whole seconds and fraction as one decimal, so that the double is correctly rounded.
        // Before 2001 the instant is −(|whole| − 1 + (1 − fraction)).
        let decimal = whole >= 0
            ? "\(whole).\(String(decoding: fraction, as: UTF8.self))"
            : "-\(-whole - 1).\(String(decoding: complement(fraction), as: UTF8.self))"
        let seconds = Double(decimal) ?? Double(whole)
        guard let shown = ISO8601Parts(seconds)?.text, shown.utf8.dropFirst(20).dropLast().elementsEqual(fraction) else { return .finerThanADate }
        return .seconds(seconds)
    }

    /// The integer part and the fraction digits (ASCII, no trailing zeros) of a non-negative
    /// double below 3.2e11, from Swift's shortest round-trip representation.
    static func decimalParts(_ value: Double) -> (Int64, [UInt8]) {
        var mantissa: [UInt8] = []
        var exponent = 0
        var inExponent = false
        var exponentNegative = false
        for byte in value.description.utf8 {
            switch byte {
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            case UInt8(ascii: "-") where inExponent: exponentNegative = true
            case UInt8(ascii: "0")...UInt8(ascii: "9") where inExponent: exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "+") where inExponent: break
            default: mantissa.append(byte)
            }
        }
        if exponentNegative { exponent = -exponent }
        var point = mantissa.firstIndex(of: UInt8(ascii: ".")) ?? mantissa.count
        var digits = mantissa.filter { $0 != UInt8(ascii: ".") }
        point += exponent
        if point < 0 {
            digits.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: -point), at: 0)
            point = 0
        }
        if point > digits.count {
            digits.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: point - digits.count))
        }
        var whole: Int64 = 0
        for digit in digits[..<point] {
            whole = whole * 10 + Int64(digit - UInt8(ascii: "0"))
        }
        var fraction = Array(digits[point...])
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        return (whole, fraction)
    }

    /// 10^n − f for an n-digit fraction f (not zero), as digits without trailing zeros:
    /// the nines' complement plus one.
    static func complement(_ fraction: [UInt8]) -> [UInt8] {
        var digits = fraction.map { 9 - ($0 - UInt8(ascii: "0")) }
        var position = digits.count - 1
        while position >= 0 {
            digits[position] += 1
            if digits[position] < 10 { break }
            digits[position] = 0
            position -= 1
        }
        while digits.last == 0 { digits.removeLast() }
        return digits.map { $0 + UInt8(ascii: "0") }
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

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`),
    /// the inverse of `civilDate(daysSince1970:)`.
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(shiftedYear, 400)
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// How many days `month` (1 to 12) of `year` has, in the proleptic Gregorian calendar.
    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    /// `value` in decimal, zero-padded to `width` digits; callers pass values below 10^width
    /// (years 1 to 9999, months, days, hours, minutes, seconds).
    private static func appendPadded(_ value: Int64, _ width: Int, to append: (UInt8) -> Void) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 0 {
            append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}
