// libFuzzer target for the XML path: our nesting pre-check, libplist's plist_from_xml and the
// conversion of its nodes. Inputs are made to look like XML property lists so that every
// execution reaches libplist.

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
