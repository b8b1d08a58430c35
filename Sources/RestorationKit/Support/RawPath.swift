/// File names as the kernel has them: bytes, which need not be UTF-8.
///
/// A Swift `String` holds only valid Unicode, so a name that is not UTF-8 (a backup made on
/// another system, a hostile tree) could not be opened once decoded with replacement
/// characters. Here each byte that is not part of valid UTF-8 is kept as the scalar
/// U+10FF00 + byte, from the end of the last private-use plane, and turned back into that byte
/// when the name is used. A real scalar of that range in a name is kept as its four bytes the
/// same way, so that every byte string has one form and comes back unchanged.
package enum RawPath {
    static let base: UInt32 = 0x10FF00

    /// The name of `bytes` (a path, an argument, a directory entry).
    public static func string<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let array = Array(bytes)
        if let text = String(validating: array, as: UTF8.self), !holdsMapped(text) {
            return text
        }
        var scalars = String.UnicodeScalarView()
        var position = 0
        while position < array.count {
            let length = sequenceLength(array, at: position)
            if length > 0, let text = String(validating: array[position..<(position + length)], as: UTF8.self),
               let scalar = text.unicodeScalars.first, !isMapped(scalar) {
                scalars.append(scalar)
                position += length
            } else {
                scalars.append(Unicode.Scalar(base + UInt32(array[position]))!)
                position += 1
            }
        }
        return String(scalars)
    }

    /// Whether `text` holds a scalar that stands for a byte: all of them are written in UTF-8
    /// with the lead byte F4, so the bytes are searched for that before any scalar is read
    /// (every path a walk opens is asked this, most of them long and plain).
    static func holdsMapped(_ text: String) -> Bool {
        let hasLeadByte = text.utf8.withContiguousStorageIfAvailable { $0.contains(0xF4) } ?? text.utf8.contains(0xF4)
        return hasLeadByte && text.unicodeScalars.contains(where: isMapped)
    }

    /// The bytes `path` stands for.
    public static func bytes(_ path: String) -> [UInt8] {
        guard holdsMapped(path) else { return Array(path.utf8) }
        var bytes: [UInt8] = []
        for scalar in path.unicodeScalars {
            if isMapped(scalar) {
                bytes.append(UInt8(scalar.value - base))
            } else {
                UTF8.encode(scalar) { bytes.append($0) }
            }
        }
        return bytes
    }

    /// Calls `body` with `path` as the NUL-terminated bytes a system call takes.
    public static func withCString<T>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        guard holdsMapped(path) else { return try path.withCString(body) }
        let terminated = bytes(path).map { CChar(bitPattern: $0) } + [0]
        return try terminated.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// `path` for a terminal: escaped as `TextEscaping` escapes text, where a byte that is not
    /// UTF-8 shows as `\xNN`.
    public static func display(_ path: String) -> String {
        TextEscaping.escape(path)
    }

    static func isMapped(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= base && scalar.value <= base + 0xFF
    }

    /// The length a UTF-8 sequence starting at `position` announces, if the bytes are there.
    private static func sequenceLength(_ bytes: [UInt8], at position: Int) -> Int {
        let lead = bytes[position]
        let length = lead < 0x80 ? 1 : lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 0
        return position + length <= bytes.count ? length : 0
    }
}
