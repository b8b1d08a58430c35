/// Writes command documents as JSON text: one document, or an array of them.
public enum JSONOutput {
    /// `asArray` is for several inputs: the output's shape must not depend on how many of them
    /// could be read. Encoding recurses once per nesting level, so it runs on a deep stack.
    public static func write<Document: Encodable>(_ documents: [Document], asArray: Bool) throws -> String {
        try DeepStack.run(stackSize: DeepStack.stackSize(for: .default)) { () throws -> String in
            let encoder = JSONTreeEncoder()
            let node = !asArray && documents.count == 1 ? try encoder.encode(documents[0]) : try encoder.encode(documents)
            return JSONTextWriter.write(node)
        }
    }
}
