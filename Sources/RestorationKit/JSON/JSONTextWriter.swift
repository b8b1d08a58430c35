/// Writes JSON as pretty-printed text with object keys sorted by their UTF-8 bytes, so that
/// output is stable and diffable whatever order the archive stored them in.
///
/// The text goes to `sink` in pieces of about `chunkSize` bytes as it is made, and archive
/// values are encoded straight into it (see `JSONSink`): neither the text nor nodes for a large
/// archive are held whole. Text rendered ahead goes to the sink from where it is, between the
/// writer's own pieces (see `writeShared`).
struct JSONTextWriter: JSONSink {
    static let chunkSize = 1 << 20
    /// Indentation stops growing at this depth, so that deeply nested hostile input makes
    /// output proportional to its values, not to values × depth.
    static let maximumIndent = 32

    var output: ByteBuffer
    /// Where finished pieces go, several at a time; nil for a writer that keeps its whole text
    /// (see `writeConcurrently`).
    private let sink: JSONOutput.Sink?
    /// The text since the last flush, when some of it is shared: ranges of `output` and shared
    /// text, in order. `output` from `sharedEnd` on is not in it yet.
    private var pieces: [Piece] = []
    private var sharedEnd = 0
    /// Pieces handed to the sink at most at once (at least 2).
    private var maximumPieces = 1024
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

    private init(sink: @escaping JSONOutput.Sink) {
        self.sink = sink
        output = ByteBuffer(capacity: Self.chunkSize + (1 << 16))
    }

    /// A writer that keeps its whole text (in `output`, which may be a buffer used again), for a
    /// value at nesting `level`: one element of an array being written concurrently, or a part
    /// of the document rendered ahead.
    init(level: Int, output: ByteBuffer = ByteBuffer()) {
        self.sink = nil
        self.level = level
        self.output = output
    }

    /// Writes `node` and a final newline. `maximumPieces`: handed to the sink at most at once
    /// (1 024, as many as one `writev` takes; the tests vary it).
    /// Returns false, with what was handed over incomplete, when the text would be longer than
    /// `limit` bytes.
    @discardableResult
    static func write(_ node: JSONNode, allowsConcurrency: Bool = true, maximumPieces: Int = 1024, limit: Int = .max, compact: Bool = false, to sink: @escaping JSONOutput.Sink) -> Bool {
        precondition(maximumPieces >= 2, "a shared piece and the text before it go out together")
        var writer = JSONTextWriter(sink: sink)
        writer.compact = compact
        writer.allowsConcurrency = allowsConcurrency
        writer.maximumPieces = maximumPieces
        writer.limit = limit
        writer.write(node)
        writer.output.append(UInt8(ascii: "\n"))
        writer.flush()
        return !writer.isFull
    }

    private mutating func flush() {
        guard let sink else { return }
        handedOver += output.count + pieces.reduce(0) { total, piece in
            if case .shared(let text) = piece { return total + text.count }
            return total
        }
        if handedOver > limit { isFull = true }
        guard !isFull else {
            pieces.removeAll(keepingCapacity: true)
            sharedEnd = 0
            output.removeAll()
            return
        }
        if pieces.isEmpty {
            withUnsafePointer(to: JSONOutput.Piece(bytes: output.bytes, lasts: false)) { sink(UnsafeBufferPointer(start: $0, count: 1)) }
        } else {
            if output.count > sharedEnd { pieces.append(.output(sharedEnd..<output.count)) }
            let own = output.bytes
            let texts = pieces.map { piece -> JSONOutput.Piece in
                switch piece {
                case .output(let range): JSONOutput.Piece(bytes: UnsafeRawBufferPointer(rebasing: own[range]), lasts: false)
                case .shared(let text): JSONOutput.Piece(bytes: text, lasts: true)
                }
            }
            texts.withUnsafeBufferPointer(sink)
            pieces.removeAll(keepingCapacity: true)
            sharedEnd = 0
        }
        output.removeAll()
    }

    private enum Piece {
        case output(Range<Int>)
        case shared(UnsafeRawBufferPointer)
    }

    /// Text shorter than this is copied: a piece of its own would cost the sink more.
    private static var sharedMinimum: Int { 128 }

    /// Writes `text`, which must stay valid and unchanged as long as the documents being
    /// written (text rendered ahead, held by one of them): a writer with a sink hands it over
    /// as it is, not copied into its own buffer first, as a piece that lasts.
    mutating func writeShared(_ text: UnsafeRawBufferPointer) {
        guard sink != nil, text.count >= Self.sharedMinimum else { return output.append(contentsOf: text) }
        if output.count > sharedEnd { pieces.append(.output(sharedEnd..<output.count)) }
        pieces.append(.shared(text))
        sharedEnd = output.count
        // Then the flush's last piece, the output after this one, cannot make one too many.
        if pieces.count >= maximumPieces - 1 { flush() }
    }

    // MARK: JSONSink

    mutating func write(_ node: JSONNode) {
        if sink != nil, allowsConcurrency, case .array(let elements) = node, elements.count >= Self.concurrentThreshold,
           DeepStack.availableThreads > 1, elements.allSatisfy(\.isDeferred), !elements.allSatisfy(\.isRendered) {
            writeConcurrently(elements)
        } else {
            writeNode(node)
        }
    }

    /// Arrays of at least this many deferred elements (a document's objects) are written by
    /// `writeConcurrently`.
    private static var concurrentThreshold: Int { 64 }
    /// Elements rendered at once: their text is held until it is written.
    private static var concurrentBatch: Int { 512 }

    /// Writes an array of deferred archive content a batch at a time: each element is rendered on
    /// one of the processors by a writer of its own at this level, then the texts are written in
    /// order. The text is the same as `writeNode`'s; elements share nothing but immutable values.
    private mutating func writeConcurrently(_ elements: [JSONNode]) {
        output.append(UInt8(ascii: "["))
        level += 1
        let elementLevel = level
        // Helpers get as much stack as this thread has left, so they can go as deep as it can.
        let stackSize = StackBounds.remainingOnCurrentThread()
        var rendered = [ByteBuffer?](repeating: nil, count: min(elements.count, Self.concurrentBatch))
        for batchStart in stride(from: 0, to: elements.count, by: Self.concurrentBatch) where !isFull {
            let batchCount = min(Self.concurrentBatch, elements.count - batchStart)
            rendered.withUnsafeMutableBufferPointer { rendered in
                DeepStack.concurrentPerform(count: batchCount, threads: DeepStack.availableThreads, stackSize: stackSize) { offset in
                    var writer = JSONTextWriter(level: elementLevel)
                    writer.compact = compact
                    writer.writeNode(elements[batchStart + offset])
                    rendered[offset] = writer.output
                }
            }
            for offset in 0..<batchCount {
                startMember(first: batchStart + offset == 0)
                output.append(contentsOf: rendered[offset]!.bytes)
            }
        }
        level -= 1
        close(UInt8(ascii: "]"))
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

    /// A string given as valid UTF-8.
    mutating func writeString(utf8 bytes: UnsafeRawBufferPointer) {
        output.append(UInt8(ascii: "\""))
        // Most strings need no escape: copy them whole.
        if !Self.needsEscape(bytes) {
            output.append(contentsOf: bytes)
        } else {
            for byte in bytes { appendEscaped(byte) }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// The runs of `text` (valid UTF-8) between `separator` bytes, as an array of strings (a
    /// path's components), then `text` whole as the value of `key`: the text `writeArray` of
    /// `writeString`s and `writeKey` then `writeString` give. Whether an escape is needed is
    /// found once for all of them: a large archive has tens of thousands of paths.
    mutating func writeComponents(of text: UnsafeRawBufferPointer, separatedBy separator: UInt8, thenWhole key: StaticString) {
        let plain = !Self.needsEscape(text)
        output.append(UInt8(ascii: "["))
        level += 1
        var start = 0
        for position in 0...text.count where position == text.count || text[position] == separator {
            startMember(first: start == 0)
            let piece = UnsafeRawBufferPointer(rebasing: text[start..<position])
            if plain { writePlainString(piece) } else { writeString(utf8: piece) }
            start = position + 1
        }
        level -= 1
        close(UInt8(ascii: "]"))
        writeKey(utf8: key, first: false)
        if plain { writePlainString(text) } else { writeString(utf8: text) }
    }

    /// A string known to need no escape.
    private mutating func writePlainString(_ bytes: UnsafeRawBufferPointer) {
        output.append(UInt8(ascii: "\""))
        output.append(contentsOf: bytes)
        output.append(UInt8(ascii: "\""))
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

    // MARK: Layout

    /// A comma unless first, then a new line indented to the current level.
    mutating func startMember(first: Bool) {
        // A writer that keeps its text (the headers of a large archive, say) never flushes.
        if output.count >= Self.chunkSize, sink != nil { flush() }
        if !first { output.append(UInt8(ascii: ",")) }
        newline()
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
        guard count >= 8 else { return needsEscape(bytes.paddedWord(padding: UInt8(ascii: " "))) }
        var position = 0
        while position + 8 <= count {
            if needsEscape(bytes.word(at: position)) { return true }
            position += 8
        }
        // The last word overlaps the one before (see `ByteWords`).
        return position < count && needsEscape(bytes.word(at: count - 8))
    }

    /// Whether a byte of `word` is below 0x20, or is '"', '\\' or DEL.
    @inline(__always)
    private static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        /// High bits set where a byte of `word` is below `limit`, if any is (exact as to whether
        /// one is, see "Bit Twiddling Hacks"). Combined without branches.
        func below(_ limit: UInt64, _ word: UInt64) -> UInt64 { (word &- ones &* limit) & ~word }
        let found = below(0x20, word) | below(1, word ^ (ones &* 0x22)) | below(1, word ^ (ones &* 0x5C)) | below(1, word ^ (ones &* 0x7F))
        return found & high != 0
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
