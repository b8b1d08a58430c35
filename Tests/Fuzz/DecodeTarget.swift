// libFuzzer target for the whole decode path: property-list reader → keyed-archive decoder (its
// tape checked node by node) → restoration model → text dump → JSON dump → validate (text and
// JSON) → diff against a fixed archive, both ways (text and JSON), read whole and read for
// comparison → tree (text and JSON). The model read from the decoder's tape must give what it
// gives read from the decoder's values copied to a tape of their own
// (`RestorationArchive(archive:)`, a library user's road). Built by Tests/Fuzz/run together with
// the library's sources and FuzzTarget.swift (see CONTRIBUTING.md); not part of the package.

/// The fixed side of every diff: the clean validate fixture, found from this file's path.
let fixedPath: String = {
    let root = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
    return root + "/Fixtures/validate/clean.data"
}()
let fixedArchive = try! RestorationArchive(contentsOf: fixedPath)
let fixedInput = try! InputFile.read(fixedPath)[...]

/// A key for every window id up to 255: with the identity for a cipher (CryptoStandIns.swift),
/// a record's bytes after its header are its envelope.
let fuzzWindows = MacWindowList(root: .array((0..<256).map { id in
    .dictionary(ArchiveDictionary(entries: [.init(key: .string("NSWindowID"), value: .integer(Int128(id))),
                                            .init(key: .string("NSDataKey"), value: .data(ArchiveData(bytes: [UInt8](repeating: 7, count: 16)[...])))]))
}))!

func fuzzDecode(_ bytes: [UInt8]) {
    if MacWindowRecords.starts(bytes[...]), let (records, tape) = try? MacWindowRecords.read(bytes[...], windows: fuzzWindows, keySource: "fuzz", limits: fuzzLimits) {
        precondition(records.records.filter(\.isCurrent).count == Set(records.records.map { "\($0.windowID) \($0.name ?? "-")" }).count, "not one current record per window and name")
        precondition(tape.wellFormednessProblem == nil, "the records' tape is not well formed: \(tape.wellFormednessProblem!)")
        let shown = RestorationArchive.shown(kind: .macWindowRecords, content: .windowRecords(records), tape: tape, notes: records.notes(includingHistory: true), limits: fuzzLimits)
        exerciseSavedState(shown)
    }
    // The decoder's tape: every node within it, the same whether nested archives are decoded
    // ahead on other threads or in place.
    var sequential = KeyedArchiveDecoder(limits: fuzzLimits)
    sequential.allowsConcurrency = false
    let tape = try? sequential.decodeTape(bytes[...], allowsPlain: true)
    if let tape {
        precondition(tape.wellFormednessProblem == nil, "the tape is not well formed: \(tape.wellFormednessProblem!)")
        let ahead = try? KeyedArchiveDecoder(limits: fuzzLimits).decodeTape(bytes[...], allowsPlain: true)
        precondition(ahead?.wellFormednessProblem == nil, "the tape decoded ahead is not well formed")
        let same = ahead.map { tape.value(tape.root) == $0.value($0.root) }
        precondition(same == true, "decoding nested archives ahead changed the archive")
    }
    guard let archive = try? RestorationArchive.read(bytes: bytes[...], limits: fuzzLimits) else {
        precondition(tape == nil || tape!.isPlainPropertyList, "the model failed on a keyed archive the decoder read")
        return
    }
    guard archive.kind == .restorationArchive || archive.kind == .keyedArchive else {
        exerciseSavedState(archive)
        return
    }
    guard let tape else { preconditionFailure("the model read a keyed archive the decoder rejects") }
    // The same archive from the decoder's values, copied to a tape of their own.
    let values = RestorationArchive(archive: tape.keyedArchive, limits: fuzzLimits)
    do {
        let text = TextDumpFormatter().formatBytes(archive, file: "fuzz", outputLimit: .max)!
        precondition(!text.isEmpty, "a decoded archive printed nothing")
        precondition(TextDumpFormatter().formatBytes(values, file: "fuzz", outputLimit: .max) == text, "the text of the values differs")
        let json = JSONOutput.text([DumpDocument(file: "fuzz", archive: archive)], asArray: false)
        precondition(JSONOutput.text([DumpDocument(file: "fuzz", archive: values)], asArray: false) == json, "the JSON of the values differs")
        let report = ValidationReport(file: "fuzz", diagnostics: ArchiveValidator(expectedBundleVersion: "1").validate(archive))
        precondition(ArchiveValidator(expectedBundleVersion: "1").validate(values) == report.diagnostics, "validating the values found otherwise")
        precondition(report.isValid == (report.errors == 0), "validity disagrees with the error count")
        _ = ValidationTextFormatter.format(report, displayName: "fuzz")
        precondition(JSONOutput.text([ValidationDocument(report)], asArray: false).hasSuffix("}\n"), "a validation report was not written whole as JSON")
        let differ = ArchiveDiffer(ignoring: ["timestamp"])
        for fixedFirst in [true, false] {
            let (a, b) = fixedFirst ? (fixedArchive, archive) : (archive, fixedArchive)
            let changes = differ.diff(a, b)
            let fromValues = fixedFirst ? differ.diff(fixedArchive, values) : differ.diff(values, fixedArchive)
            precondition(fromValues == changes, "diffing the values found other changes")
            _ = DiffTextFormatter(color: true).format(changes, a: "a", b: "b")
            precondition(JSONOutput.text([DiffDocument(a: "a", b: "b", changes: changes)], asArray: false).hasSuffix("}\n"), "a diff was not written whole as JSON")
        }
        precondition(differ.diff(archive, archive).isEmpty, "an archive differs from itself")
        precondition(differ.diff(archive, values).isEmpty, "an archive differs from its values")
        // `diff` reads its pair decoding only the nested archives that can differ: it must find
        // what the pair read whole gives (the seeds' mutations share most of them with the fixed one).
        for inputs in [[bytes[...], fixedInput], [fixedInput, bytes[...]], [bytes[...], bytes[...]]] {
            let whole = inputs.map { input in try? RestorationArchive.read(bytes: input, limits: fuzzLimits) }
            guard let a = whole[0], let b = whole[1] else { continue }
            let compared = RestorationArchive.readForComparison(inputs.map { .success($0) }, paths: [nil, nil], limits: fuzzLimits)
            guard case .success(let x) = compared[0], case .success(let y) = compared[1] else { preconditionFailure("a pair read whole failed read for comparison") }
            let (changes, found) = (ArchiveDiffer().diff(a, b), ArchiveDiffer().diff(x, y))
            precondition(found == changes, "reading a pair for comparison changed what diff finds")
            precondition(DiffTextFormatter().format(found, a: "a", b: "b") == DiffTextFormatter().format(changes, a: "a", b: "b"), "reading a pair for comparison changed diff's text")
            precondition(JSONOutput.text([DiffDocument(a: "a", b: "b", changes: found)], asArray: false)
                == JSONOutput.text([DiffDocument(a: "a", b: "b", changes: changes)], asArray: false), "reading a pair for comparison changed diff's JSON")
        }
        if archive.isRestorationArchive {
            let tree = RestorationTree(archive)
            let treeText = TreeTextFormatter(style: TextStyle(enabled: true)).format(tree)
            precondition(TreeTextFormatter(style: TextStyle(enabled: true)).format(RestorationTree(values)) == treeText, "the tree of the values differs")
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
func exerciseSavedState(_ shown: RestorationArchive) {
    do {
        let text = TextDumpFormatter().formatBytes(shown, file: "fuzz", outputLimit: .max).map { String(decoding: $0, as: UTF8.self) } ?? ""
        precondition(text.hasPrefix("File: fuzz\n"), "a saved-state file printed no heading")
        precondition(JSONOutput.text([DumpDocument(file: "fuzz", archive: shown)], asArray: false).hasSuffix("}\n"), "a saved-state file was not written whole as JSON")
        let findings = ArchiveValidator().validate(shown)
        _ = ValidationTextFormatter.format(ValidationReport(file: "fuzz", diagnostics: findings), displayName: "fuzz")
        precondition(ArchiveDiffer().diff(shown, shown).isEmpty, "a saved-state file differs from itself")
    }
}
