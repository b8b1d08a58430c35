/// Hex previews and Base64 for binary data, without Foundation.
package enum ByteFormatting {
    private static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The first `limit` bytes as space-separated hex pairs, with `…` when there are more.
    public static func hexPreview<Bytes: Collection>(_ bytes: Bytes, limit: Int = 16) -> String where Bytes.Element == UInt8 {
        var text: [UInt8] = []
        text.reserveCapacity(3 * min(limit, bytes.count) + 4)
        appendHexPreview(bytes, limit: limit) { text.append($0) }
        return String(decoding: text, as: UTF8.self)
    }

    /// `hexPreview`'s text, a byte at a time to `append`: the text dump writes it straight into
    /// its output, once for every data value.
    @inline(__always)
    static func appendHexPreview<Bytes: Collection>(_ bytes: Bytes, limit: Int, _ append: (UInt8) -> Void) where Bytes.Element == UInt8 {
        var first = true
        for byte in bytes.prefix(limit) {
            if !first { append(UInt8(ascii: " ")) }
            first = false
            append(hexDigit(byte >> 4))
            append(hexDigit(byte & 0x0F))
        }
        if bytes.count > limit {
            for byte in " …".utf8 { append(byte) }
        }
    }

    /// The lowercase hex digit of a value below 16.
    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") - 10 + value
    }

    public static func base64<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        appendBase64(bytes) { output.append($0) }
        return String(decoding: output, as: UTF8.self)
    }

    enum Base64Problem: Error {
        case notBase64(UInt8)
        case afterPadding
    }

    /// The bytes base64 text (RFC 4648's alphabet, padded or not) spells; white space between
    /// characters is skipped when `allowingSpace` (XML wraps it).
    static func base64Bytes<Text: Collection<UInt8>>(_ text: Text, allowingSpace: Bool) -> Result<[UInt8], Base64Problem> {
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        for byte in text {
            let sextet: UInt32
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): sextet = UInt32(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): sextet = UInt32(byte - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sextet = UInt32(byte - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): sextet = 62
            case UInt8(ascii: "/"): sextet = 63
            case UInt8(ascii: "="):
                padding += 1
                continue
            case 0x20, 0x09, 0x0A, 0x0D:
                guard allowingSpace else { return .failure(.notBase64(byte)) }
                continue
            default:
                return .failure(.notBase64(byte))
            }
            guard padding == 0 else { return .failure(.afterPadding) }
            accumulator = accumulator << 6 | sextet
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return .success(output)
    }

    /// Base64 of `bytes`, a character at a time to `append`.
    @inline(__always)
    static func appendBase64<Bytes: Collection>(_ bytes: Bytes, _ append: (UInt8) -> Void) where Bytes.Element == UInt8 {
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            append(base64Alphabet[Int(group >> 18 & 0x3F)])
            append(base64Alphabet[Int(group >> 12 & 0x3F)])
            append(second == nil ? UInt8(ascii: "=") : base64Alphabet[Int(group >> 6 & 0x3F)])
            append(third == nil ? UInt8(ascii: "=") : base64Alphabet[Int(group & 0x3F)])
        }
    }

    /// The canonical 8-4-4-4-12 form of 16 UUID bytes, upper case as NSUUID prints it.
    public static func uuidString(_ bytes: [UInt8]) -> String {
        let upper = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        for (position, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(position) { text.append(UInt8(ascii: "-")) }
            text.append(upper[Int(byte >> 4)])
            text.append(upper[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
