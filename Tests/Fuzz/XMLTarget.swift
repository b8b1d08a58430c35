// libFuzzer target for the XML path: our own XML property-list reader, as a tree and as the
// object table the decoder reads (which must hold what the tree holds), and the keyed-archive
// decoder on what it reads. Inputs are made to look like XML property lists so that every
// execution reaches the reader.

private let header = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">".utf8)

func fuzzXML(_ input: [UInt8]) {
    var bytes = input
    if !PropertyListReader.looksLikeXML(bytes[...]) {
        bytes = header + bytes
    }
    let value = try? PropertyListReader(limits: fuzzLimits).read(bytes[...])
    let table = try? XMLPropertyListReader(limits: fuzzLimits).table(bytes[...])
    precondition((value == nil) == (table == nil), "the XML reader read a tree and a table differently")
    if let value, let tree = try? table?.tree(limits: fuzzLimits) {
        precondition(tree == value, "the object table holds another property list than the tree")
    }
    if let value, KeyedArchiveDecoder.isKeyedArchive(value) {
        _ = try? KeyedArchiveDecoder(limits: fuzzLimits).decode(propertyList: value)
    }
}
