/// Writes `dump --json` output: sorted keys, so output is stable and diffable.
public enum JSONDumpWriter {
    /// One document, or an array of them when `asArray` (several input files, even if only
    /// one could be read: the shape must not depend on which inputs failed).
    public static func encode(_ documents: [DumpDocument], asArray: Bool) throws -> String {
        let encoder = JSONTreeEncoder()
        let node = !asArray && documents.count == 1 ? try encoder.encode(documents[0]) : try encoder.encode(documents)
        return JSONTextWriter.write(node)
    }
}
