/// Writes a `JSONNode` as pretty-printed JSON with object keys sorted by their UTF-8 bytes,
/// so that output is stable and diffable whatever order the archive stored them in.
///
/// The text goes to `sink` in pieces of about `chunkSize` bytes as it is made, and deferred
/// nodes are expanded only when reached: neither the text nor the nodes of a large archive
/// are held whole.
struct JSONTextWriter {
    static let chunkSize = 1 << 20
    private var output: [UInt8] = []
    private let sink: (UnsafeRawBufferPointer) -> Void

    private init(sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.sink = sink
        output.reserveCapacity(Self.chunkSize + (1 << 16))
    }

    /// Writes `node` and a final newline.
    static func write(_ node: JSONNode, to sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        var writer = JSONTextWriter(sink: sink)
        writer.write(node, indent: 0)
        writer.output.append(UInt8(ascii: "\n"))
        writer.flush()
    }

    private mutating func flush() {
        output.withUnsafeBytes(sink)
        output.removeAll(keepingCapacity: true)
    }

    private mutating func write(_ node: JSONNode, indent: Int) {
        if output.count >= Self.chunkSize { flush() }
        switch node {
        case .deferred(let content): write(content.node, indent: indent)
        case .null: append("null")
        case .bool(let value): append(value ? "true" : "false")
        case .number(let text): append(text)
        case .string(let text): writeString(text)
        case .array(let elements):
            guard !elements.isEmpty else { return append("[]") }
            append("[")
            for (position, element) in elements.enumerated() {
                append(position == 0 ? "\n" : ",\n")
                newlineIndent(indent + 1)
                write(element, indent: indent + 1)
            }
            append("\n")
            newlineIndent(indent)
            append("]")
        case .object(let members):
            guard !members.isEmpty else { return append("{}") }
            // A stable sort: duplicate keys from a damaged archive keep their order.
            let sorted = members.enumerated().sorted { lhs, rhs in
                if lhs.element.key == rhs.element.key { return lhs.offset < rhs.offset }
                return lhs.element.key.utf8.lexicographicallyPrecedes(rhs.element.key.utf8)
            }
            append("{")
            for (position, member) in sorted.enumerated() {
                append(position == 0 ? "\n" : ",\n")
                newlineIndent(indent + 1)
                writeString(member.element.key)
                append(": ")
                write(member.element.value, indent: indent + 1)
            }
            append("\n")
            newlineIndent(indent)
            append("}")
        }
    }

    /// Indentation stops growing at this depth, so that deeply nested hostile input makes
    /// output proportional to its values, not to values × depth.
    static let maximumIndent = 32

    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 2 * maximumIndent)

    private mutating func newlineIndent(_ level: Int) {
        output.append(contentsOf: Self.spaces[0..<(2 * min(level, Self.maximumIndent))])
    }

    private mutating func append(_ text: String) {
        output.append(contentsOf: text.utf8)
    }

    private mutating func writeString(_ text: String) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Most strings need no escape: copy them whole.
            if !bytes.contains(where: Self.needsEscape) {
                output.append(contentsOf: bytes)
            } else {
                for byte in bytes { appendEscaped(byte) }
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        let hex = "0123456789abcdef".utf8
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case 0x00..<0x20, 0x7F:
            output.append(contentsOf: "\\u00".utf8)
            output.append(hex[hex.index(hex.startIndex, offsetBy: Int(byte >> 4))])
            output.append(hex[hex.index(hex.startIndex, offsetBy: Int(byte & 0x0F))])
        default:
            output.append(byte)
        }
    }
}
