/// Writes command documents as JSON text: one document, or an array of them.
public enum JSONOutput {
    /// Takes the next pieces of text, in order; they are valid only during the call. Several
    /// at a time, so that text made ahead goes out from where it is (with `writev(2)`, say).
    public typealias Sink = (UnsafeBufferPointer<UnsafeRawBufferPointer>) -> Void

    /// Writes the documents, then a newline, to `sink` a piece at a time (see
    /// `write(_:asArray:gathering:)`).
    public static func write<Document: Encodable>(
        _ documents: [Document], asArray: Bool, to sink: @escaping (UnsafeRawBufferPointer) -> Void
    ) throws {
        try write(documents, asArray: asArray, gathering: { pieces in pieces.forEach(sink) })
    }

    /// Writes the documents, then a newline, to `sink` in pieces as the text is made.
    /// `asArray` is for several inputs: the output's shape must not depend on how many of them
    /// could be read. Encoding recurses once per nesting level, so it runs on a deep stack.
    /// Throws, before anything is written, when a value has no JSON form.
    public static func write<Document: Encodable>(
        _ documents: [Document], asArray: Bool, gathering sink: @escaping Sink
    ) throws {
        try DeepStack.run(stackSize: DeepStack.stackSize(for: .default)) { () throws in
            let encoder = JSONTreeEncoder()
            // The documents' own structure is encoded at once (that is where errors arise); the
            // archive values inside stay deferred until they are written.
            let node = !asArray && documents.count == 1 ? try encoder.encode(documents[0]) : try encoder.encode(documents)
            JSONTextWriter.write(node, to: sink)
        }
    }

    /// The whole text, newline included: for callers that need a string.
    public static func text<Document: Encodable>(_ documents: [Document], asArray: Bool) throws -> String {
        var bytes: [UInt8] = []
        try write(documents, asArray: asArray) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
