// libFuzzer target for the XML path: our own XML property-list reader and the keyed-archive
// decoder on what it reads. Inputs are made to look like XML property lists so that every
// execution reaches the reader.

let fuzzLimits = DecodingLimits(maxDepth: 200, maxNodes: 50_000, maxArchiveDepth: 8, maxInputBytes: 1 << 20)
private let header = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">".utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    if !PropertyListReader.looksLikeXML(bytes[...]) {
        bytes = header + bytes
    }
    let value = try? PropertyListReader(limits: fuzzLimits).read(bytes[...])
    if let value, KeyedArchiveDecoder.isKeyedArchive(value) {
        _ = try? KeyedArchiveDecoder(limits: fuzzLimits).decode(propertyList: value)
    }
    return 0
}
