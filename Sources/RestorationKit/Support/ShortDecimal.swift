/// Decimals of at most fifteen significant digits, the reals and date fractions of a large
/// document, converted to the nearest double without making a string: the digits as an
/// integer (below 2^53, so exact as a double) divided by a power of ten a double holds exactly
/// (up to 10^22). Both operands are exact, so the one division is correctly rounded, as
/// `Double(String)` rounds (Clinger's fast path). Anything else is left to `Double(String)`.
enum ShortDecimal {
    /// The most significant digits read: any decimal that short reads back from its double
    /// unchanged, so two of them never share a double.
    static let maxDigits = 15

    /// 10^0 … 10^22, each exact: every product on the way is an integer below 2^53 · 2^k.
    static let powersOfTen: [Double] = {
        var powers: [Double] = [1]
        while powers.count <= 22 { powers.append(powers.last! * 10) }
        return powers
    }()

    /// `-`? digits (`.` digits)? as JSON spells a number without an exponent; nil for longer
    /// digits, an exponent or any other text.
    static func double(_ text: UnsafeRawBufferPointer) -> Double? {
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        var fractionDigits = 0
        var seenPoint = false
        var anyDigit = false
        while index < text.count {
            let byte = text[index]
            index += 1
            if byte == UInt8(ascii: ".") {
                guard !seenPoint, anyDigit else { return nil }
                seenPoint = true
                continue
            }
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            anyDigit = true
            if mantissa != 0 || digit != 0 { significant += 1 }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            if seenPoint { fractionDigits += 1 }
            guard significant <= maxDigits, fractionDigits < powersOfTen.count else { return nil }
        }
        guard anyDigit, !seenPoint || fractionDigits > 0 else { return nil }
        return exact(mantissa, fractionDigits: fractionDigits, negative: negative)
    }

    /// `mantissa` / 10^`fractionDigits`, the mantissa below 10^15 and the exponent at most 22.
    @inline(__always)
    static func exact(_ mantissa: UInt64, fractionDigits: Int, negative: Bool) -> Double {
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }
}
