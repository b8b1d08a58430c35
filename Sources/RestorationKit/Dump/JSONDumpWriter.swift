/// Writes `dump --json` output: sorted keys, so output is stable and diffable.
public enum JSONDumpWriter {
    /// One document, or an array of them when `asArray` (several input files, even if only
    /// one could be read: the shape must not depend on which inputs failed).
    /// Encoding recurses once per nesting level, so it runs on a deep stack (see `DeepStack`).
    public static func encode(_ documents: [DumpDocument], asArray: Bool) throws -> String {
        try DeepStack.run(stackSize: DeepStack.stackSize(for: .default)) { () throws -> String in
            let encoder = JSONTreeEncoder()
            let node = !asArray && documents.count == 1 ? try encoder.encode(documents[0]) : try encoder.encode(documents)
            return JSONTextWriter.write(node)
        }
    }
}
