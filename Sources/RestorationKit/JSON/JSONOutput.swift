/// Writes command documents as JSON text: one document, or an array of them.
package enum JSONOutput {
    /// Takes the next pieces of text, in order, several at a time, so that text made ahead goes
    /// out from where it is (with `writev(2)`, say).
    public typealias Sink = (UnsafeBufferPointer<Piece>) -> Void

    /// A piece of the text: valid during the sink's call, or, when it `lasts` (text rendered
    /// ahead and held by a document being written), as long as the documents handed to `write`
    /// are, so that a sink gathering the whole text may keep it rather than copy it.
    public struct Piece {
        public var bytes: UnsafeRawBufferPointer
        public var lasts: Bool
    }

    /// Writes the documents, then a newline, to `sink` a piece at a time (see
    /// `write(_:asArray:gathering:)`).
    public static func write<Document: Encodable>(
        _ documents: [Document], asArray: Bool, to sink: @escaping (UnsafeRawBufferPointer) -> Void
    ) throws {
        try write(documents, asArray: asArray, gathering: { pieces in pieces.forEach { sink($0.bytes) } })
    }

    /// Writes the documents, then a newline, to `sink` in pieces as the text is made.
    /// `asArray` is for several inputs: the output's shape must not depend on how many of them
    /// could be read. Encoding recurses once per nesting level, so it runs on a deep stack.
    /// Throws, before anything is written, when a value has no JSON form.
    ///
    /// With a `limit`, throws `LimitExceeded` once the text would be longer than `limit` bytes;
    /// what the sink was handed by then is incomplete, and the rest is not rendered.
    /// With `compact`, the text is one line (a line of JSON Lines).
    public static func write<Document: Encodable>(
        _ documents: [Document], asArray: Bool, limit: Int = .max, compact: Bool = false, gathering sink: @escaping Sink
    ) throws {
        try DeepStack.run(stackSize: DeepStack.stackSize(for: .default)) { () throws in
            let encoder = JSONTreeEncoder()
            // The documents' own structure is encoded at once (that is where errors arise); the
            // archive values inside stay deferred until they are written.
            let node = !asArray && documents.count == 1 ? try encoder.encode(documents[0]) : try encoder.encode(documents)
            guard JSONTextWriter.write(node, limit: limit, compact: compact, to: sink) else { throw LimitExceeded(limit: limit) }
        }
    }

    /// The text would be longer than the limit given to `write`.
    public struct LimitExceeded: Error, Sendable {
        public var limit: Int
    }

    /// The whole text, newline included: for callers that need a string.
    public static func text<Document: Encodable>(_ documents: [Document], asArray: Bool) throws -> String {
        var bytes: [UInt8] = []
        try write(documents, asArray: asArray) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
