// libFuzzer target for the whole decode path: property-list reader → keyed-archive decoder →
// restoration model → text dump → JSON dump. Built by Tests/Fuzz/run together with the
// library's sources (see the README's contributing section); not part of the package.

/// Small limits keep each execution fast; the limits themselves are tested by the hostile
/// fixtures. They still allow every shape the fixtures have.
let fuzzLimits = DecodingLimits(maxDepth: 200, maxNodes: 200_000, maxArchiveDepth: 8, maxInputBytes: 1 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    exercise(bytes)
    return 0
}

func exercise(_ bytes: [UInt8]) {
    guard let archive = try? RestorationArchive(bytes: bytes[...], limits: fuzzLimits) else { return }
    DeepStack.run(stackSize: DeepStack.stackSize(for: fuzzLimits)) {
        let text = TextDumpFormatter().format(archive, file: "fuzz")
        precondition(!text.isEmpty, "a decoded archive printed nothing")
        let json = try? JSONDumpWriter.encode([DumpDocument(file: "fuzz", archive: archive)], asArray: false)
        precondition(json != nil, "a decoded archive could not be written as JSON")
        for object in archive.objects {
            _ = object.identifierPath.components
            _ = object.identifierPath.parent
        }
    }
}
