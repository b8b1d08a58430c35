import Synchronization

/// Writes JSON as pretty-printed text with object keys sorted by their UTF-8 bytes, so that
/// output is stable and diffable whatever order the archive stored them in.
///
/// The text goes to `sink` in pieces of about `chunkSize` bytes as it is made, and archive
/// content is encoded straight into it (see `JSONDeferred`): neither the text nor nodes for a
/// large archive are held whole.
struct JSONTextWriter {
    static let chunkSize = 1 << 20
    /// Indentation stops growing at this depth, so that deeply nested hostile input makes
    /// output proportional to its values, not to values × depth.
    static let maximumIndent = 32

    var output: ByteBuffer
    /// Where finished pieces go; nil for a writer that keeps its whole text (see
    /// `writeConcurrently`).
    private let sink: JSONOutput.Sink?
    /// The nesting level of the value being written.
    var level = 0
    /// Whether large arrays may be written by `writeConcurrently` (the text is the same either
    /// way; tests compare the two).
    private var allowsConcurrency = true
    /// The most bytes the sink may be handed; past it the writer hands over nothing more and
    /// stops at the next element (`isFull`), so that a document past the limit is not rendered.
    private var limit = Int.max
    private var handedOver = 0
    private(set) var isFull = false
    /// One line, without spaces or line breaks between tokens (JSON Lines).
    var compact = false
    /// The walker `JSONTapeValue` writes values with, kept between them.
    var tapeWalk = TapeWalker()

    private init(sink: @escaping JSONOutput.Sink) {
        self.sink = sink
        output = ByteBuffer(capacity: Self.chunkSize + (1 << 16))
    }

    /// A writer that keeps its whole text (in `output`), for values at nesting `level`: a run of
    /// the elements of an array being written concurrently.
    init(level: Int, output: ByteBuffer) {
        self.sink = nil
        self.level = level
        self.output = output
    }

    /// Writes `node` and a final newline. Returns false, with what was handed over incomplete,
    /// when the text would be longer than `limit` bytes.
    @discardableResult
    static func write(_ node: JSONNode, allowsConcurrency: Bool = true, limit: Int = .max, compact: Bool = false, to sink: @escaping JSONOutput.Sink) -> Bool {
        var writer = JSONTextWriter(sink: sink)
        writer.compact = compact
        writer.allowsConcurrency = allowsConcurrency
        writer.limit = limit
        writer.write(node)
        writer.output.append(UInt8(ascii: "\n"))
        writer.flush()
        return !writer.isFull
    }

    private mutating func flush() {
        guard let sink else { return }
        handedOver += output.count
        if handedOver > limit { isFull = true }
        if !isFull { sink(JSONOutput.Piece(bytes: output.bytes, owner: nil)) }
        output.removeAll()
    }

    // MARK: Values

    mutating func write(_ node: JSONNode) {
        if case .array(let elements) = node, elements.allSatisfy(\.isDeferred) {
            writeElements(count: elements.count) { writer, index in writer.writeNode(elements[index]) }
        } else {
            writeNode(node)
        }
    }

    /// An array whose elements `element` writes, concurrently (see `writeConcurrently`) when
    /// there are many of them (see `Parallel.parts(of:)`) and processors to spare.
    private mutating func writeElements(count: Int, _ element: (inout JSONTextWriter, Int) -> Void) {
        if sink != nil, allowsConcurrency, Parallel.parts(of: count).count > 1, Parallel.processors > 1 {
            writeConcurrently(count: count, element)
        } else {
            writeArray(count: count, element)
        }
    }

    /// Writes an array of deferred archive content in parts (see `Parallel.mapParts`), each
    /// written on one of the processors by a writer of its own at this level, then handed to the
    /// sink in order, which may keep it. The text is the same as `writeArray`'s; elements share
    /// nothing but immutable values. The parts stop soon after their text together passes what
    /// the limit leaves.
    private mutating func writeConcurrently(count: Int, _ element: (inout JSONTextWriter, Int) -> Void) {
        output.append(UInt8(ascii: "["))
        level += 1
        let (elementLevel, compact) = (level, compact)
        let budget = SharedTextBudget(limit: limit == .max ? .max : limit - handedOver - output.count, spent: 0)
        // Room for about 2 KiB an element, taken at once: room never written costs no memory.
        let buffers = PartBuffers(capacity: min(count * 2048 / Parallel.processors, 64 << 20))
        let parts = Parallel.mapParts(of: count) { range in
            let buffer = buffers.take()
            defer { buffers.put(buffer) }
            var writer = JSONTextWriter(level: elementLevel, output: buffer)
            writer.compact = compact
            let start = buffer.count
            var reported = start
            for index in range {
                writer.startMember(first: index == 0)
                element(&writer, index)
                guard buffer.count - reported >= SharedTextBudget.step else { continue }
                if budget.spend(buffer.count - reported) { break }
                reported = buffer.count
            }
            return (buffer, start..<buffer.count)
        }
        for (buffer, range) in parts where !isFull { handOver(range, of: buffer) }
        level -= 1
        close(UInt8(ascii: "]"))
    }

    /// Text made apart from `output`, which comes after it: handed to the sink as it is.
    private mutating func handOver(_ range: Range<Int>, of buffer: ByteBuffer) {
        let text = UnsafeRawBufferPointer(rebasing: buffer.bytes[range])
        guard let sink, text.count >= 4096 else { return output.append(contentsOf: text) }
        flush()
        handedOver += text.count
        if handedOver > limit { isFull = true }
        if !isFull { sink(JSONOutput.Piece(bytes: text, owner: buffer)) }
    }

    mutating func writeNull() {
        append("null")
    }

    mutating func writeBool(_ value: Bool) {
        append(value ? "true" : "false")
    }

    mutating func writeInteger(_ value: Int64) {
        // Digits straight into the output: most values of an archive are small integers.
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 20 digits at most, kept off the heap
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for position in stride(from: count - 1, through: 0, by: -1) {
                output.append(buffer[position])
            }
        }
    }

    mutating func writeNumber(_ text: String) {
        append(text)
    }

    mutating func writeString(_ text: String) {
        var text = text
        text.withUTF8 { writeString(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// A string known to need no escape.
    mutating func writePlainString(_ bytes: UnsafeRawBufferPointer) {
        output.append(UInt8(ascii: "\""))
        output.append(contentsOf: bytes)
        output.append(UInt8(ascii: "\""))
    }

    /// A date's ISO 8601 form as a string: digits and separators, which need no escape.
    mutating func writeDate(_ date: ReferenceDate.ISO8601Parts) {
        let output = output
        output.append(UInt8(ascii: "\""))
        date.write { output.append($0) }
        output.append(UInt8(ascii: "\""))
    }

    /// A string given as valid UTF-8.
    mutating func writeString(utf8 bytes: UnsafeRawBufferPointer) {
        output.append(UInt8(ascii: "\""))
        writeStringContents(utf8: bytes)
        output.append(UInt8(ascii: "\""))
    }

    /// A string's text between its quotes, escaped: controls, and characters beyond ASCII that
    /// a reader would not see or that would reorder the text (see
    /// `TextEscaping.isEscapedInJSON`), as `\uXXXX`.
    mutating func writeStringContents(utf8 bytes: UnsafeRawBufferPointer) {
        // Most strings need no escape: copy them whole.
        guard Self.needsEscape(bytes) else {
            output.append(contentsOf: bytes)
            return
        }
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            guard byte >= 0x80 else {
                appendEscaped(byte)
                position += 1
                continue
            }
            // Valid UTF-8 (the caller's promise): the lead byte gives the length.
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            let end = min(position + length, bytes.count)
            let sequence = UnsafeRawBufferPointer(rebasing: bytes[position..<end])
            if let scalar = String(validating: sequence, as: UTF8.self)?.unicodeScalars.first, TextEscaping.isEscapedInJSON(scalar) {
                for unit in String(scalar).utf16 { appendUnicodeEscape(unit) }
            } else {
                output.append(contentsOf: sequence)
            }
            position = end
        }
    }

    /// `\uXXXX`, lowercase hexadecimal.
    private mutating func appendUnicodeEscape(_ unit: UInt16) {
        let hex: StaticString = "0123456789abcdef"
        append("\\u")
        hex.withUTF8Buffer { digits in
            for shift in stride(from: 12, through: 0, by: -4) { output.append(digits[Int(unit >> UInt16(shift) & 0xF)]) }
        }
    }

    /// Base64 of `bytes`, as a JSON string, without an intermediate string.
    mutating func writeBase64(_ bytes: UnsafeRawBufferPointer) {
        output.append(UInt8(ascii: "\""))
        ByteFormatting.appendBase64(bytes) { output.append($0) }
        output.append(UInt8(ascii: "\""))
    }

    /// See `JSONDeferred.savedObjects`.
    mutating func writeSavedObjects(_ archive: RestorationArchive) {
        archive.tape.withView { view in
            writeElements(count: archive.objects.count) { writer, index in
                let object = archive.objects[index]
                ObjectDocument.write(object, TapeObject(object, in: view), in: view, to: &writer)
            }
        }
    }

    mutating func writeComponents(of path: IdentifierPath) {
        var text = path.rawValue
        text.withUTF8 { text in
            let text = UnsafeRawBufferPointer(text)
            let plain = !Self.needsEscape(text)
            openContainer(UInt8(ascii: "["))
            var start = 0
            while start <= text.count {
                let end = Self.slash(in: text, from: start)
                startMember(first: start == 0)
                let component = UnsafeRawBufferPointer(rebasing: text[start..<end])
                if plain { writePlainString(component) } else { writeString(utf8: component) }
                start = end + 1
            }
            closeContainer(UInt8(ascii: "]"))
        }
    }

    /// Where the next `/` of `text` is from `start` on (its end if none), eight bytes at a time
    /// where the first flagged byte is known (`ByteWord.firstFlagged`).
    private static func slash(in text: UnsafeRawBufferPointer, from start: Int) -> Int {
        var position = start
        while position + 8 <= text.count {
            let found = ByteWord.equal(to: UInt8(ascii: "/"), in: text.word(at: position))
            if found != 0 {
                guard let first = ByteWord.firstFlagged(found) else { break }
                return position + first
            }
            position += 8
        }
        while position < text.count, text[position] != UInt8(ascii: "/") { position += 1 }
        return position
    }

    mutating func writeArray(count: Int, _ element: (inout JSONTextWriter, Int) -> Void) {
        guard count > 0 else { return append("[]") }
        output.append(UInt8(ascii: "["))
        level += 1
        for index in 0..<count where !isFull {
            startMember(first: index == 0)
            element(&self, index)
        }
        level -= 1
        close(UInt8(ascii: "]"))
    }

    mutating func writeObject(keys: [String], _ value: (inout JSONTextWriter, Int) -> Void) {
        guard !keys.isEmpty else { return append("{}") }
        output.append(UInt8(ascii: "{"))
        level += 1
        for (position, index) in Self.sortedOrder(keys).enumerated() where !isFull {
            startMember(first: position == 0)
            writeString(keys[index])
            if compact { output.append(UInt8(ascii: ":")) } else { append(": ") }
            value(&self, index)
        }
        level -= 1
        close(UInt8(ascii: "}"))
    }

    mutating func writeString(_ text: String?) {
        if let text { writeString(text) } else { writeNull() }
    }

    /// A node built earlier; deferred content is encoded into the text here.
    mutating func writeNode(_ node: JSONNode) {
        switch node {
        case .null: writeNull()
        case .bool(let value): writeBool(value)
        case .number(let text): writeNumber(text)
        case .string(let text): writeString(text)
        case .array(let elements): writeArray(count: elements.count) { writer, index in writer.write(elements[index]) }
        case .object(let members): writeObject(keys: members.map(\.key)) { writer, index in writer.write(members[index].value) }
        case .deferred(let content): content.write(to: &self)
        }
    }

    // MARK: Layout

    /// A comma unless first, then a new line indented to the current level.
    mutating func startMember(first: Bool) {
        // A writer that keeps its text (the headers of a large archive, say) never flushes.
        if output.count >= Self.chunkSize, sink != nil { flush() }
        if !first { output.append(UInt8(ascii: ",")) }
        newline()
    }

    mutating func openContainer(_ bracket: UInt8) {
        output.append(bracket)
        level += 1
    }

    mutating func closeContainer(_ bracket: UInt8) {
        level -= 1
        close(bracket)
    }

    mutating func close(_ bracket: UInt8) {
        newline()
        output.append(bracket)
    }

    private mutating func newline() {
        guard !compact else { return }
        output.appendNewline(indentedBy: 2 * min(level, Self.maximumIndent))
    }

    /// Indices of `keys` in the order of their UTF-8 bytes; equal keys (from a damaged archive)
    /// keep their order.
    static func sortedOrder(_ keys: [String]) -> [Int] {
        stableOrder(count: keys.count) { utf8Compare(keys[$0], keys[$1]) }
    }

    /// Byte-wise comparison of the UTF-8 forms (not Swift's `<`, which compares canonically
    /// equivalent strings as equal): negative, zero or positive.
    static func utf8Compare(_ lhs: String, _ rhs: String) -> Int {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                for index in 0..<min(left.count, right.count) where left[index] != right[index] {
                    return Int(left[index]) - Int(right[index])
                }
                return left.count - right.count
            }
        }
    }

    // MARK: Text

    mutating func append(_ text: StaticString) {
        output.append(text)
    }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { output.append(contentsOf: UnsafeRawBufferPointer($0)) }
    }

    /// Whether any byte needs an escape, eight bytes at a time (every string of the output
    /// passes through here).
    private static func needsEscape(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        // A space needs no escape.
        guard count >= 8 else { return needsEscape(bytes.shortWord(padding: UInt8(ascii: " "))) }
        var position = 0
        while position + 8 <= count {
            if needsEscape(bytes.word(at: position)) { return true }
            position += 8
        }
        // The last word overlaps the one before (see `ByteWords`).
        return position < count && needsEscape(bytes.word(at: count - 8))
    }

    /// Whether a byte of `word` is below 0x20, or is '"', '\\', DEL, or beyond ASCII (a
    /// character that may need an escape: see `writeStringContents`).
    @inline(__always)
    private static func needsEscape(_ word: UInt64) -> Bool {
        ByteWord.needingEscape(in: word, quote: true) != 0
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        let hex: StaticString = "0123456789abcdef"
        switch byte {
        case UInt8(ascii: "\""): output.append("\\\"")
        case UInt8(ascii: "\\"): output.append("\\\\")
        case 0x0A: output.append("\\n")
        case 0x0D: output.append("\\r")
        case 0x09: output.append("\\t")
        case 0x00..<0x20, 0x7F:
            append("\\u00")
            hex.withUTF8Buffer { digits in
                output.append(digits[Int(byte >> 4)])
                output.append(digits[Int(byte & 0x0F)])
            }
        default:
            output.append(byte)
        }
    }
}

/// The buffers the parts of `JSONTextWriter.writeConcurrently` are written into: a thread takes
/// one for each part and gives it back after, so the parts one thread writes lie one after
/// another in one buffer. A few buffers of megabytes take large pages (see `LargePages`), where
/// a buffer for each part would take thousands of small ones.
private final class PartBuffers: Sendable {
    private let idle = Mutex<[ByteBuffer]>([])
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    func take() -> ByteBuffer {
        idle.withLock { $0.popLast() } ?? ByteBuffer(capacity: capacity)
    }

    func put(_ buffer: ByteBuffer) {
        idle.withLock { $0.append(buffer) }
    }
}
