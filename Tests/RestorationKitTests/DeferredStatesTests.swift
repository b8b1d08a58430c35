import Foundation
import XCTest
@testable import RestorationKit

/// Text `dump`, `validate`, `tree` and `diff` read the saved objects' states from the tape one
/// at a time (`DeferredStates`): their archive, text, findings, trees and changes must be those
/// of the archive read whole.
final class DeferredStatesTests: XCTestCase {
    /// The text, or nil past `limit` (by default 4 MiB: the amplification fixtures print hundreds
    /// of megabytes, and both ways must refuse them alike).
    private func text(_ archive: RestorationArchive, _ deferred: DeferredStates?, inParts: Bool, limit: Int = 1 << 22) -> [UInt8]? {
        var formatter = TextDumpFormatter()
        formatter.writesInParts = inParts
        var text: [UInt8]?
        _ = formatter.withFormattedPieces(archive, deferred: deferred, file: "f", outputLimit: limit) { pieces in
            text = pieces.reduce(into: []) { $0.append(contentsOf: $1) }
        }
        return text
    }

    func testEveryInputReadsAndPrintsAsWhole() throws {
        let inputs = try FixtureFiles.everyInput()
        XCTAssertGreaterThan(inputs.count, 80)
        var deferredObjects = 0
        for (name, bytes) in inputs {
            let whole: RestorationArchive
            do {
                whole = try RestorationArchive(bytes: bytes[...])
            } catch {
                // The same error, word for word.
                XCTAssertThrowsError(try DeferredStates.read(bytes: bytes[...], limits: .default), name) { deferredError in
                    XCTAssertEqual(String(describing: deferredError), String(describing: error), name)
                }
                continue
            }
            let (archive, deferred) = try DeferredStates.read(bytes: bytes[...], limits: .default)
            XCTAssertEqual(archive.objects.indices.map { deferred.object(at: $0, of: archive) }, whole.objects, name)
            XCTAssertEqual(archive.appState, whole.appState, name)
            XCTAssertEqual(archive.notes, whole.notes, name)
            XCTAssertEqual(archive.identifierPaths, whole.identifierPaths, name)
            deferredObjects += archive.objects.filter { $0.state == nil && $0.stateProblem == nil }.count
            for inParts in [true, false] {
                XCTAssertTrue(text(archive, deferred, inParts: inParts) == text(whole, nil, inParts: inParts), "\(name) in parts: \(inParts)")
            }
            let validator = ArchiveValidator(expectedBundleVersion: "no such version")
            XCTAssertEqual(validator.validate(archive, deferred: deferred), validator.validate(whole), name)
            let trees = [RestorationTree(archive, deferred: deferred)!, RestorationTree(whole)]
            XCTAssertEqual(TreeTextFormatter().format(trees[0]), TreeTextFormatter().format(trees[1]), name)
            let graphs = trees.map { TreeGraphFormatter(language: .dot).format([(file: name, tree: $0)]) }
            XCTAssertEqual(graphs[0], graphs[1], name)
            // Restricted to the first object's subtree, as `--path` does.
            if let first = whole.objects.first?.identifierPath {
                let restricted = text(archive.restricted(to: first), deferred.restricted(to: first, in: archive), inParts: true)
                XCTAssertTrue(restricted == text(whole.restricted(to: first), nil, inParts: true), "\(name) restricted to \(first)")
            }
        }
        XCTAssertGreaterThan(deferredObjects, 300, "no state was left on the tape")
    }

    /// Entries no listed object reads (a repeated key, an unlisted archive) are shown whole
    /// among the other keys, not as the placeholder left for them.
    func testUnreadEntriesAreShownWhole() throws {
        for name in ["validate/repeated-top-key.data", "validate/unlisted-object.data", "not-restoration.data"] {
            let bytes = try FixtureFiles.bytes(name)
            let (archive, _) = try DeferredStates.read(bytes: bytes[...], limits: .default)
            XCTAssertEqual(archive.appState, try RestorationArchive(bytes: bytes[...]).appState, name)
            XCTAssertFalse(archive.appState.values.contains(ArchiveTape.deferredArchive), name)
        }
    }

    /// `diff` compares objects made whole one at a time: the same changes, for every pair of the
    /// diff fixtures and the other restoration fixtures, both ways.
    func testDiffOfDeferredStatesFindsTheSameChanges() throws {
        let names = ["ios8-tabbar.data", "ios8-tabbar.xml", "ios7-plain.data", "values.data", "validate/clean.data", "validate/undecodable-state.data"]
            + (try FileManager.default.contentsOfDirectory(atPath: FixtureFiles.path("diff"))).sorted().map { "diff/" + $0 }
        let read = try names.map { name in
            let bytes = try FixtureFiles.bytes(name)
            return (name: name, whole: try RestorationArchive(bytes: bytes[...]), deferred: try DeferredStates.read(bytes: bytes[...], limits: .default))
        }
        var changed = 0
        for a in read {
            for b in read {
                let expected = ArchiveDiffer(ignoring: ["timestamp"]).diff(a.whole, b.whole)
                let found = ArchiveDiffer(ignoring: ["timestamp"]).diff(a.deferred.0, b.deferred.0, deferred: (a.deferred.1, b.deferred.1))
                XCTAssertEqual(found, expected, "\(a.name) → \(b.name)")
                if !expected.isEmpty { changed += 1 }
            }
        }
        XCTAssertGreaterThan(changed, 300)
    }

    /// Entries identical on their tapes are equal objects, so `diff` skips them unmade; equal
    /// objects stored otherwise (dictionaries in another order) are not identical, and are
    /// compared as values.
    func testIdenticalEntriesAreEqualObjects() throws {
        func read(_ name: String) throws -> (RestorationArchive, DeferredStates) {
            try DeferredStates.read(bytes: FixtureFiles.bytes(name)[...], limits: .default)
        }
        func identical(_ a: (RestorationArchive, DeferredStates), _ b: (RestorationArchive, DeferredStates)) -> [String: Bool] {
            var found: [String: Bool] = [:]
            for (index, object) in a.0.objects.enumerated() {
                guard let other = b.0.objects.firstIndex(where: { $0.identifierPath == object.identifierPath }) else { continue }
                let same = a.1.hasIdenticalEntry(at: index, as: other, in: b.1)
                if same { XCTAssertEqual(a.1.object(at: index, of: a.0), b.1.object(at: other, of: b.0), object.identifierPath.rawValue) }
                found[object.identifierPath.lastIdentifier ?? ""] = same
            }
            return found
        }
        let state = identical(try read("diff/state-a.data"), try read("diff/state-b.data"))
        XCTAssertEqual(state, ["TabController": true, "NavigationController": true, "ListViewController": false,
                               "SettingsViewController": false, "AboutViewController": true])
        // The same archive as binary and as XML: strings stored otherwise, the values identical.
        XCTAssertEqual(Set(identical(try read("validate/clean.data"), try read("diff/xml-twin.xml")).values), [true])
        let reordered = (try read("diff/reordered-keys-base.data"), try read("diff/reordered-keys.data"))
        let settings = try XCTUnwrap(reordered.0.0.objects.firstIndex { $0.identifierPath.lastIdentifier == "SettingsViewController" })
        let otherSettings = try XCTUnwrap(reordered.1.0.objects.firstIndex { $0.identifierPath.lastIdentifier == "SettingsViewController" })
        XCTAssertFalse(reordered.0.1.hasIdenticalEntry(at: settings, as: otherSettings, in: reordered.1.1))
        XCTAssertEqual(reordered.0.1.object(at: settings, of: reordered.0.0), reordered.1.1.object(at: otherSettings, of: reordered.1.0))
    }

    /// Saved objects' states are left on the tape, small archives' too, unless the archive is
    /// asked for whole.
    func testArchivesAreReadWholeOnlyWhenAsked() throws {
        let bytes = try FixtureFiles.bytes("validate/clean.data")
        for defers in [true, false] {
            let (archive, deferred) = try DeferredStates.read(bytes: bytes[...], limits: .default, deferring: defers)
            XCTAssertEqual(archive.objects.indices.filter(deferred.defers).count, defers ? archive.objects.count : 0, "\(defers)")
            XCTAssertEqual(archive.objects.allSatisfy { $0.state != nil }, !defers, "\(defers)")
        }
    }

    /// The output limit gives the same verdict at and around the text's length.
    func testTheLimitGivesTheSameVerdict() throws {
        let bytes = try FixtureFiles.bytes("many-objects.data")
        let whole = try RestorationArchive(bytes: bytes[...])
        let (archive, deferred) = try DeferredStates.read(bytes: bytes[...], limits: .default)
        let length = try XCTUnwrap(text(whole, nil, inParts: true)).count
        for limit in [1, length / 2, length - 1, length, length + 1] {
            XCTAssertEqual(text(archive, deferred, inParts: true, limit: limit) == nil, limit < length, "limit \(limit)")
        }
    }
}
