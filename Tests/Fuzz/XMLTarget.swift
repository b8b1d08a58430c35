// libFuzzer target for the XML path: our own XML property-list reader, which lays the document
// out as the object table the decoder reads, the table's check (every object read once, keys,
// cycles, depth and expansion), and the keyed-archive decoder on the same bytes, which must
// fail wherever the table could not be read. Inputs are made to look like XML property lists
// so that every execution reaches the reader.

private let header = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">".utf8)

func fuzzXML(_ input: [UInt8]) {
    var bytes = input
    if !PropertyListReader.looksLikeXML(bytes[...]) {
        bytes = header + bytes
    }
    let table = try? XMLPropertyListReader(limits: fuzzLimits).table(bytes[...])
    if let table {
        _ = try? table.check(limits: fuzzLimits)
    }
    let archive = try? KeyedArchiveDecoder(limits: fuzzLimits).decode(bytes)
    precondition(table != nil || archive == nil, "the decoder read an XML document the reader could not lay out")
}
