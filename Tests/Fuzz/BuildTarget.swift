// libFuzzer target for `build`: any bytes, read as a `dump --json` document, are refused with a
// `BuildError` or give a file that reads back (within the same limits, or past one of them),
// and the document of what was built builds a file whose document is the same again; the XML
// form of the file reads back too.
// Inputs are seeded with the documents of fixtures (Tests/Fuzz/build-seeds).

func fuzzBuild(_ input: [UInt8]) {
    guard let built = try? ArchiveBuilder(limits: fuzzLimits).build(json: input) else { return }
    let archive: RestorationArchive
    do throws(ArchiveError) {
        archive = try RestorationArchive(bytes: built.bytes[...], limits: fuzzLimits)
    } catch {
        precondition(error.kind == .limitExceeded, "built a file that does not read back: \(error)")
        return
    }
    // The same document in XML: refused for a date XML cannot spell, or a file that reads back.
    if let xml = try? ArchiveBuilder(limits: fuzzLimits).build(json: input, format: .xml) {
        do throws(ArchiveError) {
            _ = try RestorationArchive(bytes: xml.bytes[...], limits: fuzzLimits)
        } catch {
            precondition(error.kind == .limitExceeded, "built an XML file that does not read back: \(error)")
        }
    }
    let document = JSONOutput.text([DumpDocument(file: "x", archive: archive)], asArray: false)
    guard let again = try? ArchiveBuilder(limits: fuzzLimits).build(json: Array(document.utf8)),
          let reread = try? RestorationArchive(bytes: again.bytes[...], limits: fuzzLimits)
    else { preconditionFailure("the document of a built file does not build again") }
    precondition(comparable(reread) == comparable(archive), "the round trip changed the document")
}

/// An archive's document with its notes in one order. The notes on keys `$top` repeats follow
/// the order of `$top`, which a document does not keep when keys repeat: it lists each path's
/// object once and the later values among the app's keys, so the file built from it orders
/// them otherwise (docs/json.md: key order is the document's). Every note is still compared.
private func comparable(_ archive: RestorationArchive) -> String {
    var archive = archive
    archive.notes.sort()
    return JSONOutput.text([DumpDocument(file: "x", archive: archive)], asArray: false)
}
