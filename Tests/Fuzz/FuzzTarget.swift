// The libFuzzer entry point of the one fuzzing binary Tests/Fuzz/run builds: `FUZZ_TARGET`
// names the target each execution runs, `decode` (DecodeTarget.swift, the default), `xml`
// (XMLTarget.swift) or `build` (BuildTarget.swift). One binary, because building the library with the sanitizers is most of
// the fuzzing job's time.

import Glibc

/// Small limits keep each execution fast; the limits themselves are tested by the hostile
/// fixtures. They still allow every shape the fixtures have.
let fuzzLimits = DecodingLimits(maxDepth: 200, maxNodes: 50_000, maxArchiveDepth: 8, maxInputBytes: 1 << 20)

/// The target `FUZZ_TARGET` names, read once.
let fuzzTarget: ([UInt8]) -> Void = {
    switch getenv("FUZZ_TARGET").map({ String(cString: $0) }) {
    case nil, "decode": return fuzzDecode
    case "xml": return fuzzXML
    case "build": return fuzzBuild
    case let other?:
        fputs("FUZZ_TARGET: no target named \(other) (decode, xml or build)\n", stderr)
        exit(64)
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzTarget(start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? [])
    return 0
}
