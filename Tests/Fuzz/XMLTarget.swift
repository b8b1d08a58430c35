// libFuzzer target for the XML path: our own XML property-list reader and the keyed-archive
// decoder on what it reads. Inputs are made to look like XML property lists so that every
// execution reaches the reader.

private let header = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">".utf8)

func fuzzXML(_ input: [UInt8]) {
    var bytes = input
    if !PropertyListReader.looksLikeXML(bytes[...]) {
        bytes = header + bytes
    }
    let value = try? PropertyListReader(limits: fuzzLimits).read(bytes[...])
    if let value, KeyedArchiveDecoder.isKeyedArchive(value) {
        _ = try? KeyedArchiveDecoder(limits: fuzzLimits).decode(propertyList: value)
    }
}
