/// Text output for a terminal that shows only ASCII (a locale that is not UTF-8, or
/// `--charset ascii`): the tool's own drawing characters become their ASCII forms, as tree(1)
/// draws `|--` for `├──`, and any other character past ASCII, which only input holds, is
/// written as an escape (`\u{e9}`), the form the text output already gives invisible ones.
package enum ASCIIText {
    private static let replacements: [Unicode.Scalar: String] = [
        "├": "|", "└": "`", "│": "|", "─": "-",
        "✗": "x", "…": "...", "→": "->",
    ]

    /// `text` in ASCII, or nil once it would pass `limit` bytes.
    package static func converted(_ text: UnsafeRawBufferPointer, limit: Int) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(min(text.count, limit))
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte < 0x80 {
                output.append(byte)
                index += 1
            } else {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                let end = min(index + length, text.count)
                var decoder = UTF8()
                var bytes = text[index..<end].makeIterator()
                if case .scalarValue(let scalar) = decoder.decode(&bytes) {
                    if let ascii = replacements[scalar] {
                        output.append(contentsOf: ascii.utf8)
                    } else {
                        TextEscaping.appendEscape(scalar, to: &output)
                    }
                    index = end
                } else {
                    // Not UTF-8 (the text output escapes such bytes before this): as `\xNN`.
                    output.append(contentsOf: "\\x\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true))".utf8)
                    index += 1
                }
            }
            if output.count > limit { return nil }
        }
        return output
    }

    /// Whether the locale asks for UTF-8: the first of LC_ALL, LC_CTYPE and LANG that is set
    /// and not empty names a UTF-8 character set ("en_US.UTF-8", "C.utf8"). None set is the
    /// POSIX locale, which is ASCII.
    package static func localeIsUTF8(environment: (String) -> String?) -> Bool {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            guard let value = environment(name), !value.isEmpty else { continue }
            let lowered = value.lowercased()
            return lowered.contains("utf-8") || lowered.contains("utf8")
        }
        return false
    }
}
