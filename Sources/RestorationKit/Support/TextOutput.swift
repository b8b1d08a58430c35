import Synchronization

/// Text being written for people, as UTF-8 bytes, into a `ByteBuffer` (appending millions of
/// small pieces to an `Array` or a `String` costs a uniqueness check and a generic copy each):
/// the text formatters' output, escaping as `TextEscaping` does.
struct TextOutput {
    private let buffer: ByteBuffer

    /// The text's bytes, valid while the output lives.
    var bytes: UnsafeRawBufferPointer {
        buffer.bytes
    }

    var count: Int {
        buffer.count
    }

    var string: String {
        String(decoding: buffer.bytes, as: UTF8.self)
    }

    /// The most bytes the text may take; past it, lines are dropped and `isFull` is true.
    let limit: Int
    private(set) var isFull = false

    /// Text written at the same time on other threads that counts against the same limit.
    private let budget: SharedTextBudget?
    /// How much of the text `budget` has been told of.
    private var reported = 0

    /// `capacity`: the bytes expected (a document's text starts at 64 KiB, a summary at 64 B).
    init(limit: Int = .max, capacity: Int = 1 << 16, sharing budget: SharedTextBudget? = nil) {
        self.limit = limit
        self.budget = budget
        buffer = ByteBuffer(capacity: capacity)
    }

    mutating func line(_ line: String) {
        guard !isFull else { return }
        append(line)
        endLine()
    }

    mutating func blank() {
        line("")
    }

    /// A `String`; a literal goes to the `StaticString` overload, which needs no UTF-8 access.
    @_disfavoredOverload
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: UnsafeRawBufferPointer($0)) }
    }

    mutating func append(bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer.append(contentsOf: $0) }
    }

    mutating func append(raw bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    mutating func append(_ text: StaticString) {
        buffer.append(contentsOf: text.bytes)
    }

    /// Appends `text` if it is plain ASCII, which needs no escaping (see `TextEscaping`), with
    /// a backslash before each double quote when `quotes`; whether it did. Inlined, so that
    /// each caller's `quotes` is known where it runs (millions of keys and strings a dump).
    @inline(__always)
    mutating func appendIfPlainASCII(_ text: String, quotes: Bool = false) -> Bool {
        var text = text
        return text.withUTF8 { utf8 -> Bool in
            let raw = UnsafeRawBufferPointer(utf8)
            guard TextEscaping.isPlainASCII(raw) else { return false }
            guard quotes, raw.contains(UInt8(ascii: "\"")) else {
                buffer.append(contentsOf: raw)
                return true
            }
            for byte in utf8 {
                if byte == UInt8(ascii: "\"") { buffer.append(UInt8(ascii: "\\")) }
                buffer.append(byte)
            }
            return true
        }
    }

    /// `text` escaped (see `TextEscaping.escape`), and its double quotes too when `quotes`:
    /// printable ASCII, the usual case, copied as it is.
    mutating func appendEscaped(_ text: String, quotes: Bool = false) {
        guard !appendIfPlainASCII(text, quotes: quotes) else { return }
        let escaped = TextEscaping.escape(text)
        append(quotes ? escaped.replacingQuotes() : escaped)
    }

    /// The first `limit` bytes in hex (see `ByteFormatting.hexPreview`).
    mutating func appendHexPreview<Bytes: Collection<UInt8>>(_ bytes: Bytes, limit: Int) {
        ByteFormatting.appendHexPreview(bytes, limit: limit) { buffer.append($0) }
    }

    /// `value` in decimal, as `String(value)` spells it.
    mutating func appendDecimal<Value: BinaryInteger>(_ value: Value) {
        guard let small = Int64(exactly: value) else { return append(String(value)) }
        var magnitude = small.magnitude
        // Twenty bytes hold Int64.min's nineteen digits and its sign.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if small < 0 {
                start -= 1
                digits[start] = UInt8(ascii: "-")
            }
            buffer.append(contentsOf: UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: digits[start...])))
        }
    }

    /// How many characters `appendDecimal` writes for a count or index.
    static func decimalWidth(_ value: Int) -> Int {
        var width = 1
        var rest = value
        while rest >= 10 || rest <= -10 {
            rest /= 10
            width += 1
        }
        return value < 0 ? width + 1 : width
    }

    /// What `body` writes, in `tone` when `style` is enabled (see `TextStyle.paint`).
    mutating func paint(_ style: TextStyle, _ tone: TextStyle.Tone, _ body: (inout TextOutput) -> Void) {
        guard style.enabled else { return body(&self) }
        append("\u{1B}[")
        append(tone.rawValue)
        append("m")
        body(&self)
        append("\u{1B}[0m")
    }

    mutating func endLine() {
        buffer.append(UInt8(ascii: "\n"))
        isFull = isFull || buffer.count > limit
        if let budget, buffer.count - reported >= SharedTextBudget.step {
            isFull = budget.spend(buffer.count - reported) || isFull
            reported = buffer.count
        }
    }
}

/// A limit on text written by several threads at once, each into its own `TextOutput`: each
/// tells it what it wrote every `step` bytes, and stops once all of them together have passed
/// it. So the text made past the limit stays within a step (and a line) per thread.
final class SharedTextBudget: Sendable {
    static let step = 1 << 16
    private let limit: Int
    private let spent: Atomic<Int>

    init(limit: Int, spent: Int) {
        self.limit = limit
        self.spent = Atomic(spent)
    }

    /// Counts `bytes` more; whether the text is now past the limit.
    func spend(_ bytes: Int) -> Bool {
        spent.wrappingAdd(bytes, ordering: .relaxed).newValue > limit
    }

    /// Whether the text counted so far is past the limit.
    var isSpent: Bool {
        spent.load(ordering: .relaxed) > limit
    }
}
