/// Makes untrusted strings safe to print on a terminal: one line, no control sequences.
///
/// Archives come from devices and backups; a string holding an escape sequence must not be
/// able to rewrite the analyst's screen, and one holding a newline must not forge a line.
package enum TextEscaping {
    public static func escape(_ text: String) -> String {
        // Most text is printable ASCII without a backslash: checked byte by byte, left as it is.
        guard !isPlainASCII(text) else { return text }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 16)
        func append(_ ascii: StaticString) {
            ascii.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": append("\\n")
            case "\r": append("\\r")
            case "\t": append("\\t")
            case "\\": append("\\\\")
            case _ where needsEscape(scalar):
                appendEscape(scalar, to: &bytes)
            default:
                UTF8.encode(scalar) { bytes.append($0) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `text` is printable ASCII without a backslash: what `escape` leaves as it is.
    /// Native strings are checked in place, a word of bytes at a time.
    static func isPlainASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isPlainASCII(UnsafeRawBufferPointer($0)) }
    }

    /// Whether UTF-8 `bytes` are printable ASCII without a backslash.
    static func isPlainASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        everyWord(of: bytes, wordIsPlain)
    }

    /// Whether `test` holds for every eight bytes (a byte below 0x20 or above 0x7E, or a
    /// backslash, is rare): the last word overlaps the one before, a run shorter than eight is
    /// one word of its own bytes, and an empty run a word of spaces, which every test here
    /// accepts (see `ByteWords`).
    @inline(__always)
    private static func everyWord(of bytes: UnsafeRawBufferPointer, _ test: (UInt64) -> Bool) -> Bool {
        let count = bytes.count
        guard count >= 8 else { return test(bytes.shortWord(padding: UInt8(ascii: " "))) }
        var index = 0
        while index + 8 <= count {
            guard test(bytes.word(at: index)) else { return false }
            index += 8
        }
        return index == count || test(bytes.word(at: count - 8))
    }

    /// Whether none of the eight bytes is below 0x20, above 0x7E, or a backslash.
    private static func wordIsPlain(_ word: UInt64) -> Bool {
        ByteWord.needingEscape(in: word, quote: false) == 0
    }

    /// `scalar` as the text output escapes a character it does not show: `\u{200b}`; one that
    /// stands for a byte that is not UTF-8 (see `RawPath`) as that byte, `\xe9`, as names are
    /// shown.
    static func appendEscape(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        if RawPath.isMapped(scalar) {
            let digits: StaticString = "0123456789abcdef"
            let byte = Int(scalar.value - RawPath.base)
            bytes.append(contentsOf: "\\x".utf8)
            bytes.append(digits.utf8Start[byte >> 4])
            bytes.append(digits.utf8Start[byte & 0xF])
            return
        }
        bytes.append(contentsOf: "\\u{".utf8)
        appendHex(scalar.value, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    /// `value` in lower-case hexadecimal, without leading zeros, as `String(value, radix: 16)`
    /// spells it, without making a string per character.
    private static func appendHex(_ value: UInt32, to bytes: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        var shift = 28
        while shift > 0, value >> UInt32(shift) == 0 { shift -= 4 }
        while shift >= 0 {
            bytes.append(digits.utf8Start[Int(value >> UInt32(shift) & 0xF)])
            shift -= 4
        }
    }

    /// An upper bound of the bytes `bytes` (UTF-8) take once written, escaped, by any output:
    /// a control character becomes six (`\u{1b}`, `\u001b`), a quote or backslash two, a
    /// two-byte character at most seven (`\u{600}`), and any other byte of a multi-byte
    /// character at most three (an invisible character's `\u{200b}` is eight for three bytes). The decoding limits count text by it, so that a limit on what an
    /// archive expands to is a limit on what is written (escaping multiplied short control
    /// strings five- to six-fold past it).
    static func writtenSize(_ bytes: UnsafeRawBufferPointer) -> Int {
        // Most text is printable ASCII without a quote or backslash, written as it is.
        if isPlain(bytes) { return bytes.count }
        var size = bytes.count
        for byte in bytes {
            if byte < 0x20 || byte == 0x7F {
                size += 5
            } else if byte >= 0xC0 && byte < 0xE0 {
                // The lead byte of a two-byte character, which may be written `\u{600}`: seven.
                size += 3
            } else if byte >= 0x80 {
                size += 2
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                size += 1
            }
        }
        return size
    }

    /// Whether every byte is printable ASCII other than a quote or backslash: text every output
    /// writes as it is, whose written size is its length.
    static func isPlain(_ bytes: UnsafeRawBufferPointer) -> Bool {
        everyWord(of: bytes, wordIsPlainWithoutQuote)
    }

    /// `wordIsPlain` and no double quote, the tests combined without a branch: every string
    /// the decoder reads passes through here.
    @inline(__always)
    private static func wordIsPlainWithoutQuote(_ word: UInt64) -> Bool {
        ByteWord.needingEscape(in: word, quote: true) == 0
    }

    static func writtenSize(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { writtenSize(UnsafeRawBufferPointer($0)) }
    }

    /// The bytes data takes once written: base64 in JSON (four for three), more than the
    /// text output's short hexadecimal preview.
    static func writtenSize(ofData count: Int) -> Int {
        (count + 2) / 3 * 4
    }

    /// Whether JSON writes `scalar`, a character beyond ASCII, as `\uXXXX`: a C1 control, a
    /// bidirectional control or line separator, or an invisible character, which a terminal or
    /// an editor would act on or not show. Escaped, the same string reaches every JSON reader,
    /// and a person sees it.
    static func isEscapedInJSON(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x80 && !RawPath.isMapped(scalar) && needsEscape(scalar)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // C0 and C1 controls, DEL
        case 0x5C: true  // the escape character itself, so escaped output stays unambiguous
        case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x061C, 0x200E, 0x200F: true  // bidi and line separators
        // Invisible characters, so that two different strings never print the same: soft
        // hyphen, combining grapheme joiner, Hangul fillers, Mongolian vowel separator, zero
        // width space and (non-)joiners, word joiner and invisible operators, byte-order mark,
        // interlinear annotation marks, tags.
        case 0x00AD, 0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x180E, 0x200B...0x200D, 0x2060...0x2064, 0xFEFF,
             0xFFF9...0xFFFB, 0xE0000...0xE007F: true
        case 0x10FF00...0x10FFFF: true  // where `RawPath` keeps the bytes of a name that are not UTF-8
        case 0...0x2FF: false  // Latin letters and their marks: none is invisible but U+00AD, above
        // Every other character Unicode says is invisible or unknown: default-ignorable code
        // points, format characters (Cf: U+0600, U+17B4, U+206A…U+206F, U+FFF0…), variation
        // selectors (U+FE00…U+FE0F, U+E0100…) and unassigned code points.
        default:
            switch scalar.properties.generalCategory {
            case .format, .unassigned, .surrogate: true
            default: scalar.properties.isDefaultIgnorableCodePoint || scalar.properties.isVariationSelector
            }
        }
    }
}

extension String {
    /// At most `width` characters: a longer string is cut, its last character an ellipsis. One
    /// long value must not make every line that repeats it, or every cell beside it, as long.
    /// The text cut to `width` characters, and to four bytes a character (a character may be
    /// one letter and thousands of combining marks, which a byte-counting reader such as
    /// Graphviz refuses), ending "…" where it was cut.
    func shortened(to width: Int) -> String {
        guard utf8.count > width else { return self }
        let byteLimit = width * 4
        let fitsInCharacters = index(startIndex, offsetBy: width, limitedBy: endIndex).map { $0 == endIndex } ?? true
        if fitsInCharacters, utf8.count <= byteLimit { return self }
        let kept = fitsInCharacters ? self[...] : prefix(width - 1)
        guard kept.utf8.count > byteLimit - 3 else { return kept + "…" }
        var scalars = String.UnicodeScalarView()
        var bytes = 0
        for scalar in kept.unicodeScalars {
            bytes += UTF8.width(scalar)
            guard bytes <= byteLimit - 3 else { break }
            scalars.append(scalar)
        }
        return String(scalars) + "…"
    }

    /// The text with its middle cut out when it has more than `width` characters (or more than
    /// four bytes a character): its start and end, which say what and where, joined by "…".
    /// Counted in UTF-8 bytes first, so that a megabyte is never broken into characters.
    func cutInTheMiddle(to width: Int) -> String {
        guard utf8.count > width else { return self }
        // A character cut at either end decodes to U+FFFD: those are dropped.
        var head = Substring(String(decoding: utf8.prefix(width * 3 / 4), as: UTF8.self))
        while head.hasSuffix("\u{FFFD}") { head = head.dropLast() }
        let tail = String(decoding: utf8.suffix(width / 4), as: UTF8.self).drop { $0 == "\u{FFFD}" }
        return head + " … " + tail
    }

    /// Escapes double quotes, for a string shown between them. Byte by byte: a quote is one
    /// byte in UTF-8 and never part of another character, so the string need not be broken
    /// into Characters, which costs far more on a long one.
    func replacingQuotes() -> String {
        guard utf8.contains(UInt8(ascii: "\"")) else { return self }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + 16)
        for byte in utf8 {
            if byte == UInt8(ascii: "\"") { bytes.append(UInt8(ascii: "\\")) }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
