// libFuzzer target for the whole decode path: property-list reader → keyed-archive decoder (its
// tape checked node by node) →
// restoration model → text dump → JSON dump → validate (text and JSON) → diff against a fixed
// archive, both ways (text and JSON) → tree (text and JSON); text dump, JSON dump (written from
// the tape's nodes), validate, diff and tree of the archive read with its states left on the
// tape (`DeferredStates`) must be those of the archive read whole. Built by Tests/Fuzz/run
// together with the library's sources (see CONTRIBUTING.md); not part of the package.

/// Small limits keep each execution fast; the limits themselves are tested by the hostile
/// fixtures. They still allow every shape the fixtures have.
let fuzzLimits = DecodingLimits(maxDepth: 200, maxNodes: 50_000, maxArchiveDepth: 8, maxInputBytes: 1 << 20)

/// The fixed side of every diff: the clean validate fixture, found from this file's path.
let fixedPath: String = {
    let root = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
    return root + "/Fixtures/validate/clean.data"
}()
let fixedArchive = try! RestorationArchive(contentsOf: fixedPath)
/// The same, read with its states left on the tape.
let fixedDeferred = try! DeferredStates.read(bytes: InputFile.read(fixedPath)[...], limits: .default)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    exercise(bytes)
    return 0
}

/// A key for every window id up to 255: with the identity for a cipher (CryptoStandIns.swift),
/// a record's bytes after its header are its envelope.
let fuzzWindows = MacWindowList(root: .array((0..<256).map { id in
    .dictionary(ArchiveDictionary(entries: [.init(key: .string("NSWindowID"), value: .integer(Int128(id))),
                                            .init(key: .string("NSDataKey"), value: .data(ArchiveData(bytes: [UInt8](repeating: 7, count: 16)[...])))]))
}))!

func exercise(_ bytes: [UInt8]) {
    if MacWindowRecords.starts(bytes[...]), let records = try? MacWindowRecords.read(bytes[...], windows: fuzzWindows, keySource: "fuzz", limits: fuzzLimits) {
        precondition(records.records.filter(\.isCurrent).count == Set(records.records.map { "\($0.windowID) \($0.name ?? "-")" }).count, "not one current record per window and name")
        let (shown, states) = DeferredStates.shown(kind: .macWindowRecords, content: .windowRecords(records), fields: records.shownFields(includingHistory: true),
                                                   notes: records.notes(includingHistory: true), limits: fuzzLimits)
        exerciseSavedState(shown, states, json: "")
    }
    // dump --json's document with every state written from the tape must give the text of the
    // values made whole, or fail as reading them does.
    let fromTape = DeepStack.run(stackSize: DeepStack.stackSize(for: fuzzLimits)) {
        (try? DumpDocument(bytes: bytes[...], file: "fuzz", limits: fuzzLimits)).map { JSONOutput.text([$0], asArray: false) }
    }
    // The decoder's tape: every node within it, the same whether nested archives are decoded
    // ahead on other threads or in place.
    var sequential = KeyedArchiveDecoder(limits: fuzzLimits)
    sequential.allowsConcurrency = false
    let tape = try? sequential.decodeTape(bytes[...])
    if let tape {
        precondition(tape.wellFormednessProblem == nil, "the tape is not well formed: \(tape.wellFormednessProblem!)")
        let ahead = try? KeyedArchiveDecoder(limits: fuzzLimits).decodeTape(bytes[...])
        precondition(ahead?.wellFormednessProblem == nil, "the tape decoded ahead is not well formed")
        let stackSize = DeepStack.stackSize(for: fuzzLimits)
        let materialised = DeepStack.run(stackSize: stackSize) { (tape.keyedArchive(concurrently: false, stackSize: stackSize), ahead?.keyedArchive(concurrently: true, stackSize: stackSize)) }
        precondition(materialised.0 == materialised.1, "decoding nested archives ahead changed the archive")
    }
    let deferredRead = try? DeferredStates.read(bytes: bytes[...], limits: fuzzLimits)
    guard let archive = try? RestorationArchive(bytes: bytes[...], limits: fuzzLimits) else {
        if let (shown, states) = deferredRead, shown.kind != .restorationArchive, shown.kind != .keyedArchive {
            exerciseSavedState(shown, states, json: fromTape)
            return
        }
        precondition(fromTape == nil, "the JSON document read a file the decoder rejects")
        precondition(tape == nil, "the tape was made from a file the decoder rejects")
        precondition(deferredRead == nil, "the states were deferred from a file the decoder rejects")
        return
    }
    guard let (deferredArchive, deferred) = deferredRead else { preconditionFailure("the states could not be deferred from a file the decoder reads") }
    DeepStack.run(stackSize: DeepStack.stackSize(for: fuzzLimits)) {
        let text = TextDumpFormatter().format(archive, file: "fuzz")
        precondition(!text.isEmpty, "a decoded archive printed nothing")
        var deferredText: String?
        _ = TextDumpFormatter().withFormattedPieces(deferredArchive, deferred: deferred, file: "fuzz", outputLimit: .max) { pieces in
            deferredText = String(decoding: pieces.reduce(into: [UInt8]()) { $0.append(contentsOf: $1) }, as: UTF8.self)
        }
        precondition(deferredText == text, "the text of the deferred states differs")
        let json = JSONOutput.text([DumpDocument(file: "fuzz", archive: archive)], asArray: false)
        precondition(fromTape == .some(json), "the JSON written from the tape differs from the values'")
        let report = ValidationReport(file: "fuzz", diagnostics: ArchiveValidator(expectedBundleVersion: "1").validate(archive))
        precondition(ArchiveValidator(expectedBundleVersion: "1").validate(deferredArchive, deferred: deferred) == report.diagnostics, "validating the deferred states found otherwise")
        precondition(report.isValid == (report.errors == 0), "validity disagrees with the error count")
        _ = ValidationTextFormatter.format(report, displayName: "fuzz")
        precondition(JSONOutput.text([ValidationDocument(report)], asArray: false).hasSuffix("}\n"), "a validation report was not written whole as JSON")
        let differ = ArchiveDiffer(ignoring: ["timestamp"])
        for fixedFirst in [true, false] {
            let (a, b) = fixedFirst ? (fixedArchive, archive) : (archive, fixedArchive)
            let changes = differ.diff(a, b)
            let deferredChanges = fixedFirst
                ? differ.diff(fixedDeferred.0, deferredArchive, deferred: (fixedDeferred.1, deferred))
                : differ.diff(deferredArchive, fixedDeferred.0, deferred: (deferred, fixedDeferred.1))
            precondition(deferredChanges == changes, "diffing the deferred states found other changes")
            _ = DiffTextFormatter(color: true).format(changes, a: "a", b: "b")
            precondition(JSONOutput.text([DiffDocument(a: "a", b: "b", changes: changes)], asArray: false).hasSuffix("}\n"), "a diff was not written whole as JSON")
        }
        precondition(differ.diff(archive, archive).isEmpty, "an archive differs from itself")
        if archive.isRestorationArchive {
            let tree = RestorationTree(archive)
            let treeText = TreeTextFormatter(style: TextStyle(enabled: true)).format(tree)
            precondition(TreeTextFormatter(style: TextStyle(enabled: true)).format(RestorationTree(deferredArchive, deferred: deferred)!) == treeText, "the tree of the deferred states differs")
            precondition(JSONOutput.text([TreeDocument(file: "fuzz", tree: tree)], asArray: false).hasSuffix("}\n"), "a tree was not written whole as JSON")
            _ = archive.restricted(to: IdentifierPath(archive.objects.first?.identifierPath.rawValue ?? "x"))
        }
        for object in archive.objects {
            _ = object.identifierPath.components
            _ = object.identifierPath.parent
        }
    }
}


/// A saved-state file of another kind than a keyed archive (a plain property list, macOS window
/// records read with the identity for a cipher): shown, validated and compared as every
/// command does.
func exerciseSavedState(_ shown: RestorationArchive, _ states: DeferredStates, json: String?) {
    precondition(json != nil, "the JSON document could not be made of a saved-state file that was read")
    DeepStack.run(stackSize: DeepStack.stackSize(for: fuzzLimits)) {
        var text = ""
        _ = TextDumpFormatter().withFormattedPieces(shown, deferred: states, file: "fuzz", outputLimit: .max) { pieces in
            text = String(decoding: pieces.reduce(into: [UInt8]()) { $0.append(contentsOf: $1) }, as: UTF8.self)
        }
        precondition(text.hasPrefix("File: fuzz\n"), "a saved-state file printed no heading")
        let findings = ArchiveValidator().validate(shown, deferred: states)!
        _ = ValidationTextFormatter.format(ValidationReport(file: "fuzz", diagnostics: findings), displayName: "fuzz")
        precondition(ArchiveDiffer().diff(shown, shown, deferred: (states, states)).isEmpty, "a saved-state file differs from itself")
    }
}
