/// Writes command documents as JSON text: one document, or an array of them.
package enum JSONOutput {
    /// Takes the next piece of text.
    public typealias Sink = (Piece) -> Void

    /// A piece of the text: valid during the sink's call, or, when it has an `owner`, as long as
    /// the owner lives (text made on another processor: a sink that gathers the whole text may
    /// keep it, with its owner, rather than copy it).
    public struct Piece {
        public let bytes: UnsafeRawBufferPointer
        public let owner: AnyObject?
    }

    /// Writes the documents, then a newline, to `sink` in pieces as the text is made.
    /// `asArray` is for several inputs: the output's shape must not depend on how many of them
    /// could be read. Archive values are written with a stack of their own (see
    /// `JSONTapeValue`), so however deeply they nest, this runs on the caller's thread.
    ///
    /// With a `limit`, throws `LimitExceeded` once the text would be longer than `limit` bytes;
    /// what the sink was handed by then is incomplete, and the rest is not rendered.
    /// With `compact`, the text is one line (a line of JSON Lines).
    public static func write<Document: JSONRepresentable>(
        _ documents: [Document], asArray: Bool, limit: Int = .max, compact: Bool = false, to sink: @escaping Sink
    ) throws(LimitExceeded) {
        // The documents' own structure is made at once; the archive values inside stay deferred
        // until they are written.
        let node = !asArray && documents.count == 1 ? documents[0].jsonNode : documents.jsonNode
        guard JSONTextWriter.write(node, limit: limit, compact: compact, to: sink) else { throw LimitExceeded(limit: limit) }
    }

    /// The text would be longer than the limit given to `write`.
    public struct LimitExceeded: Error, Sendable {
        public var limit: Int
    }

    /// The whole text, newline included: for callers that need a string.
    public static func text<Document: JSONRepresentable>(_ documents: [Document], asArray: Bool) -> String {
        var bytes: [UInt8] = []
        try? write(documents, asArray: asArray) { bytes.append(contentsOf: $0.bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
