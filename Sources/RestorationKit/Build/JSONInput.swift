/// A JSON text as `build` reads it: every value in one flat array, each container's members in a
/// block of their own (as the tape keeps them), every value with the byte it starts at, so that
/// an error can say where.
///
/// Kept as the text says it: an object's members in the document's order with repeated keys
/// kept, numbers as their digits (an integer past 64 bits or a real is converted exactly where
/// it is used). Read without recursion, within the bounds it is given.
struct JSONInput {
    enum Kind: UInt8 {
        case null, boolean, number, string, array, object
    }

    struct Value {
        var kind: Kind
        /// A boolean's value; for a number, whether it has neither fraction nor exponent.
        var flag = false
        /// Where the value starts in the text.
        var offset: Int
        /// Strings and numbers: the index of their text in `texts`; containers: the first member
        /// in `members`.
        var index = 0
        /// Containers: how many members.
        var count = 0
    }

    struct Member {
        /// The key's index in `texts` (an object's member), or -1 (an array's element).
        var key: Int
        var value: Int
        /// Where the key starts, for an object's member.
        var offset: Int
    }

    /// Where a string's or number's UTF-8 is: in the input, when it holds no escape (most do),
    /// or in `decoded`.
    struct Text {
        var offset: Int
        var count: Int
        var inInput: Bool
    }

    private(set) var values: [Value] = []
    private(set) var members: [Member] = []
    private(set) var texts: [Text] = []
    private(set) var decoded: [UInt8] = []
    let bytes: [UInt8]

    var root: Int { 0 }

    func value(_ index: Int) -> Value { values[index] }

    /// The UTF-8 of text `text` (an index of `texts`).
    func withText<Result>(_ text: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let text = texts[text]
        let range = text.offset..<(text.offset + text.count)
        // Each array read where it is: choosing one into a variable would retain and release it.
        if text.inInput { return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[range])) } }
        return decoded.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// A string's or number's text, as UTF-8 (`withText`) or as a string.
    func withText<Result>(of index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result { withText(values[index].index, body) }
    func text(_ index: Int) -> String { withText(of: index) { String(decoding: $0, as: UTF8.self) } }
    func key(_ member: Member) -> String { withText(member.key) { String(decoding: $0, as: UTF8.self) } }

    /// Whether a member's key is `key`, byte for byte.
    func keyIs(_ member: Member, _ key: String) -> Bool {
        var key = key
        return key.withUTF8 { keyIs(member, UnsafeRawBufferPointer($0)) }
    }

    /// Whether a member's key is the UTF-8 `key`: lengths compared first.
    private func keyIs(_ member: Member, _ key: UnsafeRawBufferPointer) -> Bool {
        member.key >= 0 && texts[member.key].count == key.count && withText(member.key) { $0.hasSameBytes(as: key) }
    }

    /// The first byte of a member's key, if it has one.
    func keyFirstByte(_ member: Member) -> UInt8? {
        withText(member.key) { $0.first }
    }

    /// The members of container `index`.
    func members(of index: Int) -> ArraySlice<Member> {
        let value = values[index]
        return members[value.index..<(value.index + value.count)]
    }

    /// The members of object `index` named `key`.
    func member(_ key: String, of index: Int) -> Member? {
        var key = key
        let value = values[index]
        return key.withUTF8 { key in
            members.withUnsafeBufferPointer { members in
                members[value.index..<(value.index + value.count)].first { keyIs($0, UnsafeRawBufferPointer(key)) }
            }
        }
    }

    /// The line and column of `offset`.
    func position(_ offset: Int) -> TextPosition {
        TextPosition(of: offset, in: bytes[...])
    }

    /// Reads `bytes` as one JSON value (RFC 8259), with at most `maxValues` values nested at
    /// most `maxDepth` deep.
    init(_ bytes: [UInt8], maxDepth: Int, maxValues: Int) throws(BuildError) {
        self.bytes = bytes
        let result = bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(bytes: buffer, text: bytes)
            return Result { () throws(BuildError) in try reader.read(into: &self, maxDepth: maxDepth, maxValues: maxValues) }
        }
        try result.get()
    }

    /// The reading: a position in the text, and the containers still open. It reads the text
    /// through a pointer that lives as long as the reading (`init`'s).
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        /// The same text, for the line and column of an error.
        let text: [UInt8]
        var position = 0
        /// Open containers: the value's index, where its members start in `pending`, and
        /// whether it is an object.
        var open: [(value: Int, start: Int, isObject: Bool)] = []
        var pending: [Member] = []

        init(bytes: UnsafeBufferPointer<UInt8>, text: [UInt8]) {
            self.bytes = bytes
            self.text = text
        }

        func error(_ reason: String, at offset: Int? = nil) -> BuildError {
            let offset = offset ?? position
            return BuildError(reason, position: TextPosition(of: offset, in: text[...]))
        }

        /// Moves past white space: at once when there is none (after most keys and values).
        @inline(__always)
        mutating func skipSpace() {
            guard position < bytes.count, bytes[position] <= 0x20 else { return }
            skipSpaceRun()
        }

        /// A run of white space; a pretty-printed document's indentation eight spaces, or as many
        /// as a word begins with, at a time.
        mutating func skipSpaceRun() {
            let raw = UnsafeRawBufferPointer(bytes)
            while position < raw.count {
                if position + 8 <= raw.count {
                    let spaces = Self.leadingSpaces(raw.word(at: position))
                    position += spaces
                    if spaces == 8 { continue }
                }
                switch raw[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        /// How many of the word's bytes, first in memory, are spaces.
        @inline(__always)
        private static func leadingSpaces(_ word: UInt64) -> Int {
            let notSpaces = word ^ 0x2020_2020_2020_2020
            #if _endian(little)
            return notSpaces.trailingZeroBitCount / 8
            #else
            return notSpaces.leadingZeroBitCount / 8
            #endif
        }

        var next: UInt8? { position < bytes.count ? bytes[position] : nil }

        /// What the next byte is, for an error: "end of input" or the character.
        var found: String {
            guard let byte = next else { return "the end of the text" }
            guard byte >= 0x20, byte < 0x7F else { return "byte 0x" + String(byte, radix: 16, uppercase: true) }
            return "'\(Character(Unicode.Scalar(byte)))'"
        }

        mutating func read(into input: inout JSONInput, maxDepth: Int, maxValues: Int) throws(BuildError) {
            if let invalid = UTF8Check.firstInvalidByte(text) { throw error("the text is not UTF-8", at: invalid) }
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
            while true {
                skipSpace()
                // A value: a scalar, or a container opened.
                guard input.values.count < maxValues else {
                    throw error("the document holds more than \(maxValues) JSON values (\(DecodingLimit.nodes.option))")
                }
                let index = input.values.count
                let start = position
                switch next {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard open.count < maxDepth else {
                        throw error("JSON nests deeper than \(maxDepth) levels (\(DecodingLimit.depth.option))")
                    }
                    let isObject = next == UInt8(ascii: "{")
                    position += 1
                    input.values.append(Value(kind: isObject ? .object : .array, offset: start))
                    open.append((index, pending.count, isObject))
                    skipSpace()
                    if next == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        position += 1
                        close(into: &input)
                    } else {
                        if isObject { try readKey(into: &input, value: index + 1) } else { pending.append(Member(key: -1, value: index + 1, offset: position)) }
                        continue
                    }
                case UInt8(ascii: "\""):
                    let text = try readString(into: &input.decoded)
                    input.values.append(Value(kind: .string, offset: start, index: input.texts.count))
                    input.texts.append(text)
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    let (word, kind, flag): (StaticString, Kind, Bool) = switch next {
                    case UInt8(ascii: "t"): ("true", .boolean, true)
                    case UInt8(ascii: "f"): ("false", .boolean, false)
                    default: ("null", .null, false)
                    }
                    let length = word.utf8CodeUnitCount
                    guard position + length <= bytes.count,
                          UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[position..<(position + length)]))
                          .hasSameBytes(as: UnsafeRawBufferPointer(start: word.utf8Start, count: length)) else {
                        throw error("expected a value, found \(found)")
                    }
                    position += length
                    input.values.append(Value(kind: kind, flag: flag, offset: start))
                default:
                    let isInteger = try readNumber()
                    input.values.append(Value(kind: .number, flag: isInteger, offset: start, index: input.texts.count))
                    input.texts.append(Text(offset: start, count: position - start, inInput: true))
                }
                // After a value: the next member, or the end of containers.
                while true {
                    skipSpace()
                    guard let (_, _, isObject) = open.last else {
                        guard position == bytes.count else { throw error("expected the end of the text after the document, found \(found)") }
                        return
                    }
                    let end = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    if next == end {
                        position += 1
                        close(into: &input)
                        continue
                    }
                    guard next == UInt8(ascii: ",") else {
                        throw error("expected ',' or '\(Character(Unicode.Scalar(end)))' after a member, found \(found)")
                    }
                    position += 1
                    skipSpace()
                    if isObject { try readKey(into: &input, value: input.values.count) } else { pending.append(Member(key: -1, value: input.values.count, offset: position)) }
                    break
                }
            }
        }

        /// An object member's key and its colon; the value, `value`, follows.
        mutating func readKey(into input: inout JSONInput, value: Int) throws(BuildError) {
            let offset = position
            guard next == UInt8(ascii: "\"") else { throw error("expected a member's name in double quotes, found \(found)") }
            let key = try readString(into: &input.decoded)
            skipSpace()
            guard next == UInt8(ascii: ":") else { throw error("expected ':' after a member's name, found \(found)") }
            position += 1
            pending.append(Member(key: input.texts.count, value: value, offset: offset))
            input.texts.append(key)
        }

        /// Closes the innermost container: its members become a block.
        mutating func close(into input: inout JSONInput) {
            let (container, start, _) = open.removeLast()
            input.values[container].index = input.members.count
            input.values[container].count = pending.count - start
            input.members.append(contentsOf: pending[start...])
            pending.removeSubrange(start...)
        }

        /// A string: where its UTF-8 is, in the input when it holds no escape, else decoded
        /// into `decoded`. (The whole input was checked to be UTF-8 first.)
        mutating func readString(into decoded: inout [UInt8]) throws(BuildError) -> Text {
            let start = position
            position += 1
            var runStart = position
            var decodedStart: Int?
            while true {
                skipPlainWords()
                guard position < bytes.count else { throw error("a string is not closed", at: start) }
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") { break }
                if byte < 0x20 { throw error("a control character (byte 0x\(String(byte, radix: 16, uppercase: true))) inside a string must be escaped") }
                guard byte == UInt8(ascii: "\\") else {
                    position += 1
                    continue
                }
                if decodedStart == nil { decodedStart = decoded.count }
                decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                position += 1
                guard let escaped = next else { throw error("a string is not closed", at: start) }
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escaped)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try readHex()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard bytes[position...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                            throw error("\\u\(String(scalar, radix: 16)) is half of a surrogate pair without its other half", at: position - 6)
                        }
                        position += 2
                        let low = try readHex()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("\\u\(String(scalar, radix: 16)) is not followed by the second half of a surrogate pair", at: position - 12) }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw error("\\u\(String(scalar, radix: 16)) is the second half of a surrogate pair without the first", at: position - 6)
                    }
                    decoded.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
                default:
                    throw error("'\\\(Character(Unicode.Scalar(escaped)))' is not a JSON escape", at: position - 2)
                }
                runStart = position
            }
            defer { position += 1 }
            guard let decodedStart else { return Text(offset: start + 1, count: position - start - 1, inInput: true) }
            decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
            return Text(offset: decodedStart, count: decoded.count - decodedStart, inInput: false)
        }

        /// Moves past the bytes of a string that need no attention, eight at a time: none is a
        /// quotation mark, a backslash or a control character. A word with one stops at it,
        /// where the first flagged byte is known (`ByteWord.firstFlagged`).
        @inline(__always)
        mutating func skipPlainWords() {
            let raw = UnsafeRawBufferPointer(bytes)
            while position + 8 <= raw.count {
                let word = raw.word(at: position)
                let flagged = ByteWord.equal(to: UInt8(ascii: "\""), in: word) | ByteWord.equal(to: UInt8(ascii: "\\"), in: word) | ByteWord.below(0x20, in: word)
                guard flagged == 0 else {
                    position += ByteWord.firstFlagged(flagged) ?? 0
                    return
                }
                position += 8
            }
        }

        mutating func readHex() throws(BuildError) -> UInt32 {
            guard position + 4 <= bytes.count else { throw error("\\u needs four hexadecimal digits") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw error("\\u needs four hexadecimal digits")
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }

        /// A number as RFC 8259 spells it: whether it is an integer (its text is the input's).
        mutating func readNumber() throws(BuildError) -> Bool {
            let start = position
            func digits() -> Int {
                let from = position
                while let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
                return position - from
            }
            if next == UInt8(ascii: "-") { position += 1 }
            let first = next
            guard first.map({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) == true else {
                position = start
                throw error("expected a value, found \(found)")
            }
            if first == UInt8(ascii: "0") { position += 1 } else { _ = digits() }
            var isInteger = true
            if next == UInt8(ascii: ".") {
                position += 1
                isInteger = false
                guard digits() > 0 else { throw error("a number's fraction needs digits") }
            }
            if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
                position += 1
                isInteger = false
                if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { position += 1 }
                guard digits() > 0 else { throw error("a number's exponent needs digits") }
            }
            return isInteger
        }
    }
}

/// Checks UTF-8 as RFC 3629 defines it: no overlong form, no surrogate, nothing past U+10FFFF.
enum UTF8Check {
    /// The index of the first byte that does not begin a well-formed sequence, or nil.
    static func firstInvalidByte(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { bytes in
            var index = 0
            let count = bytes.count
            let raw = UnsafeRawBufferPointer(bytes)
            let high = ByteWord.highs
            while index < count {
                // ASCII, most of a document, thirty-two bytes at a time, then eight.
                if index + 32 <= count,
                   (raw.word(at: index) | raw.word(at: index + 8) | raw.word(at: index + 16) | raw.word(at: index + 24)) & high == 0 {
                    index += 32
                    continue
                }
                if index + 8 <= count, raw.word(at: index) & high == 0 {
                    index += 8
                    continue
                }
                let byte = bytes[index]
                if byte < 0x80 {
                    index += 1
                    continue
                }
                let length: Int
                var low: UInt8 = 0x80, high: UInt8 = 0xBF
                switch byte {
                case 0xC2...0xDF: length = 2
                case 0xE0: (length, low) = (3, 0xA0)
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED: (length, high) = (3, 0x9F)
                case 0xF0: (length, low) = (4, 0x90)
                case 0xF1...0xF3: length = 4
                case 0xF4: (length, high) = (4, 0x8F)
                default: return index
                }
                guard index + length <= count, (low...high).contains(bytes[index + 1]) else { return index }
                for next in (index + 2)..<(index + length) where bytes[next] & 0xC0 != 0x80 { return index }
                index += length
            }
            return nil
        }
    }
}

/// Why `build` refused a document: where (the JSON path of the value, and its line and column)
/// and why.
public struct BuildError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    /// The value's path in the document, jq's way: `.objects[3].state.x`; empty for the text
    /// itself.
    public var path: String
    public var position: TextPosition?

    init(_ reason: String, path: String = "", position: TextPosition? = nil) {
        self.reason = reason
        self.path = path
        self.position = position
    }

    public var description: String {
        (path.isEmpty ? "" : path + ": ") + reason.cutInTheMiddle(to: PropertyListError.maximumReasonLength) + TextPosition.suffix(position, byteOffset: nil)
    }
}
