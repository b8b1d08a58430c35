import Foundation
import XCTest
@testable import RestorationKit

/// `diff` reads its two files decoding only the nested archives that can differ
/// (`RestorationArchive.readForComparison`): the files read whole are the oracle.
final class ComparedArchivesTests: XCTestCase {
    /// The fixtures' restoration archives and keyed archives, binary and XML.
    private func archives(in folders: [String]) throws -> [String] {
        try folders.flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: FixtureFiles.path(folder)).sorted()
                .filter { $0.hasSuffix(".data") || $0.hasSuffix(".xml") }
                .map { FixtureFiles.path(folder + "/" + $0) }
        }
    }

    /// What `diff` reports for a pair read one way, errors included, and its text and JSON.
    private func report(_ results: [Result<RestorationArchive, ArchiveError>]) -> (changes: [ArchiveChange]?, text: String) {
        switch (results[0], results[1]) {
        case (.success(let a), .success(let b)):
            guard a.kind == b.kind else { return (nil, "kinds \(a.kind) \(b.kind)") }
            let changes = ArchiveDiffer().diff(a, b)
            return (changes, DiffTextFormatter().format(changes, a: "a", b: "b") + JSONOutput.text([DiffDocument(a: "a", b: "b", changes: changes)], asArray: false))
        default:
            return (nil, results.map { result in (try? result.get()).map { _ in "read" } ?? "\(result)" }.joined(separator: "\n"))
        }
    }

    func testEveryPairOfFixturesGivesTheChangesOfTheFilesReadWhole() throws {
        let files = try archives(in: ["diff", "validate", "evidence", "."])
        XCTAssertGreaterThan(files.count, 50)
        var (pairs, differing) = (0, 0)
        for a in files {
            for b in files {
                let whole = report(RestorationArchive.read(contentsOf: [a, b]))
                let compared = report(RestorationArchive.readForComparison(contentsOf: [a, b], limits: .default))
                XCTAssertEqual(compared.changes, whole.changes, "\(a) vs \(b)")
                XCTAssertEqual(compared.text, whole.text, "\(a) vs \(b)")
                pairs += 1
                if whole.changes?.isEmpty == false { differing += 1 }
            }
        }
        XCTAssertGreaterThan(differing, pairs / 2, "most pairs differ")
    }

    /// Hostile files, each against itself and against the clean archive. Past a limit, a file
    /// read whole fails; compared with a file that holds the same nested archives, whose
    /// decoding passed the limit, it is found identical instead (the limits bound what `diff`
    /// decodes).
    func testHostileFilesGiveTheChangesOfTheFilesReadWhole() throws {
        let clean = FixtureFiles.path("validate/clean.data")
        var identicalPastALimit: [String] = []
        for file in try archives(in: ["hostile", "amplification"]) {
            for (a, b) in [(file, file), (clean, file), (file, clean)] {
                let wholeResults = RestorationArchive.read(contentsOf: [a, b])
                let (whole, compared) = (report(wholeResults), report(RestorationArchive.readForComparison(contentsOf: [a, b], limits: .default)))
                let pastALimit = wholeResults.contains { if case .failure(let error) = $0 { error.kind == .limitExceeded } else { false } }
                if pastALimit, a == b, compared.changes == [] {
                    identicalPastALimit.append((a as NSString).lastPathComponent)
                    continue
                }
                XCTAssertEqual(compared.changes, whole.changes, "\(a) vs \(b)")
                XCTAssertEqual(compared.text, whole.text, "\(a) vs \(b)")
            }
        }
        XCTAssertEqual(identicalPastALimit, ["many-entry-bombs.data", "nested-archives.data"])
    }

    private func outerLevels(_ a: String, _ b: String) throws -> (RestorationArchive, RestorationArchive) {
        let limits = DecodingLimits.default
        let decoder = KeyedArchiveDecoder(limits: limits)
        let tapes = try [a, b].map { try decoder.decodeTape(FixtureFiles.bytes($0)[...], allowsPlain: true, keeping: .all) }
        return (RestorationArchive(tape: tapes[0], limits: limits, interpret: true), RestorationArchive(tape: tapes[1], limits: limits, interpret: true))
    }

    /// Bytes of a nested archive `$top` holds in two places, one of them a twin in the other
    /// file and the other not, are decoded: the twin is not left as data.
    func testBytesFoundWhereTheOtherFileDiffersAreDecoded() throws {
        let (a, b) = try outerLevels("diff/shared-bytes-a.data", "diff/shared-bytes-b.data")
        let unchanged = KeptNestedArchives.unchanged(between: a, b)
        XCTAssertFalse(unchanged.everyOne)
        let entry = { (archive: RestorationArchive, path: String) -> ArraySlice<UInt8> in
            let node = try XCTUnwrap(archive.objects.first { $0.identifierPath.rawValue == path }?.entry?.node)
            XCTAssertEqual(node.kind, .data)
            return archive.tape.source[node.offset..<(node.offset + node.memberCount)]
        }
        let list = "TabController/:[0]:/NavigationController/:[0]:/ListViewController"
        let settings = "TabController/:[1]:/NavigationController/:[0]:/SettingsViewController"
        let tab = "TabController"
        XCTAssertFalse(unchanged.kept.keeps(try entry(a, list)), "also the app-level key of A, which B holds other bytes under")
        XCTAssertFalse(unchanged.kept.keeps(try entry(b, settings)), "also the app-level key of B")
        XCTAssertTrue(unchanged.kept.keeps(try entry(a, tab)))
        // Read for comparison, those are archives again, the others data.
        let read = RestorationArchive.readForComparison(contentsOf: [FixtureFiles.path("diff/shared-bytes-a.data"), FixtureFiles.path("diff/shared-bytes-b.data")], limits: .default)
        let compared = try read[0].get()
        XCTAssertNotNil(compared.objects.first { $0.identifierPath.rawValue == list }?.state)
        XCTAssertNil(compared.objects.first { $0.identifierPath.rawValue == tab }?.state)
    }

    /// An entry that is a saved object's in one file and an app-level key's in the other is
    /// compared as neither: it is decoded in both.
    func testAnEntryInAnotherRoleIsDecoded() throws {
        let (a, b) = try outerLevels("diff/unlisted-a.data", "diff/unlisted-b.data")
        let unchanged = KeptNestedArchives.unchanged(between: a, b)
        XCTAssertFalse(unchanged.everyOne)
        let about = try XCTUnwrap(a.objects.first { $0.identifierPath.rawValue.hasSuffix("/AboutViewController") }?.entry?.node)
        XCTAssertFalse(unchanged.kept.keeps(a.tape.source[about.offset..<(about.offset + about.memberCount)]))
        XCTAssertEqual(b.objects.count, a.objects.count - 1)
    }

    /// Two files whose nested archives are all twins need no second reading: the outer levels
    /// are the result, and `diff` finds what changed outside the nested archives.
    func testFilesThatDifferOutsideTheirNestedArchivesAreReadOnce() throws {
        let (a, b) = try outerLevels("diff/metadata-a.data", "diff/metadata-b.data")
        XCTAssertTrue(KeptNestedArchives.unchanged(between: a, b).everyOne)
        let read = RestorationArchive.readForComparison(contentsOf: [FixtureFiles.path("diff/metadata-a.data"), FixtureFiles.path("diff/metadata-b.data")], limits: .default)
        XCTAssertTrue(try read[0].get().objects.allSatisfy { $0.state == nil }, "left as data")
        let (x, y) = try outerLevels("diff/state-a.data", "diff/state-b.data")
        XCTAssertFalse(KeptNestedArchives.unchanged(between: x, y).everyOne)
    }
}
