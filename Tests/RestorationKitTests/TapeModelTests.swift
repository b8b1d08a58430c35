import Foundation
import XCTest
@testable import RestorationKit

/// The model reads its objects and app state from a tape: the decoder's, for a file, or one its
/// values are copied to, for an archive a library user built (`RestorationArchive(archive:)`,
/// `TapeBuilder.copy`). Both must give the same archive, text, findings, trees, JSON and changes.
final class TapeModelTests: XCTestCase {
    /// The text, or nil past `limit` (by default 4 MiB: the amplification fixtures print hundreds
    /// of megabytes, and both ways must refuse them alike; `json` and `tree` likewise).
    private func text(_ archive: RestorationArchive, inParts: Bool, limit: Int = 1 << 22) -> [UInt8]? {
        var formatter = TextDumpFormatter()
        formatter.writesInParts = inParts
        return formatter.formatBytes(archive, file: "f", outputLimit: limit)
    }

    /// The JSON document, or nil past `limit`, as `text`.
    private func json(_ archive: RestorationArchive, limit: Int = 1 << 22) -> [UInt8]? {
        var bytes: [UInt8] = []
        do { try JSONOutput.write([DumpDocument(file: "f", archive: archive)], asArray: false, limit: limit) { bytes.append(contentsOf: $0.bytes) } } catch { return nil }
        return bytes
    }

    /// The tree's text and its graph, or nil past `limit`, as `text`.
    private func tree(_ archive: RestorationArchive, name: String, limit: Int = 1 << 22) -> (text: String, graph: String?)? {
        guard let tree = RestorationTree(archive, outputLimit: limit) else { return nil }
        return (TreeTextFormatter().format(tree), TreeGraphFormatter(language: .dot).format([(file: name, tree: tree)], outputLimit: limit))
    }

    /// The archive of `bytes` read from the decoder's values, copied to a tape of their own.
    private func fromValues(_ bytes: [UInt8]) throws -> RestorationArchive {
        RestorationArchive(archive: try KeyedArchiveDecoder().decode(bytes[...]))
    }

    func testEveryInputReadsAsItsValuesDo() throws {
        let inputs = try FixtureFiles.everyInput()
        XCTAssertGreaterThan(inputs.count, 80)
        var objectsWithState = 0
        for (name, bytes) in inputs {
            guard let archive = try? RestorationArchive(bytes: bytes[...]), archive.kind == .restorationArchive || archive.kind == .keyedArchive else { continue }
            let values = try fromValues(bytes)
            XCTAssertEqual(archive, values, name)
            objectsWithState += archive.objects.filter { $0.state != nil }.count
            for inParts in [true, false] {
                XCTAssertTrue(text(archive, inParts: inParts) == text(values, inParts: inParts), "\(name) in parts: \(inParts)")
            }
            XCTAssertTrue(json(archive) == json(values), name)
            let validator = ArchiveValidator(expectedBundleVersion: "no such version")
            XCTAssertEqual(validator.validate(archive), validator.validate(values), name)
            let trees = [tree(archive, name: name), tree(values, name: name)]
            XCTAssertEqual(trees[0]?.text, trees[1]?.text, name)
            XCTAssertEqual(trees[0]?.graph, trees[1]?.graph, name)
            XCTAssertEqual(trees[0] == nil, trees[1] == nil, name)
            // Restricted to the first object's subtree, as `--path` does.
            if let first = archive.objects.first?.identifierPath {
                XCTAssertTrue(text(archive.restricted(to: first), inParts: true) == text(values.restricted(to: first), inParts: true), "\(name) restricted to \(first)")
            }
        }
        XCTAssertGreaterThan(objectsWithState, 300)
    }

    /// Entries no listed object reads (a repeated key, an unlisted archive) are shown whole
    /// among the other keys.
    func testUnreadEntriesAreShownWhole() throws {
        for name in ["validate/repeated-top-key.data", "validate/unlisted-object.data", "not-restoration.data"] {
            let archive = try RestorationArchive(bytes: FixtureFiles.bytes(name)[...])
            let top = try KeyedArchiveDecoder().decode(FixtureFiles.bytes(name)).top
            XCTAssertFalse(archive.appStatePositions.isEmpty, name)
            XCTAssertEqual(archive.appState.keys, archive.appStatePositions.map { top.keys[$0] }, name)
            XCTAssertEqual(archive.appState.values, archive.appStatePositions.map { top.values[$0] }, name)
        }
    }

    /// `diff` makes objects into values one at a time: the same changes from the decoder's tape
    /// as from the values', for every pair of the diff fixtures and the other restoration
    /// fixtures, both ways.
    func testDiffFindsTheSameChangesOnEitherTape() throws {
        let names = ["ios8-tabbar.data", "ios8-tabbar.xml", "ios7-plain.data", "values.data", "validate/clean.data", "validate/undecodable-state.data"]
            + (try FileManager.default.contentsOfDirectory(atPath: FixtureFiles.path("diff"))).sorted().map { "diff/" + $0 }
        let read = try names.map { name in
            let bytes = try FixtureFiles.bytes(name)
            return (name: name, file: try RestorationArchive(bytes: bytes[...]), values: try fromValues(bytes))
        }
        var changed = 0
        for a in read {
            for b in read {
                let expected = ArchiveDiffer(ignoring: ["timestamp"]).diff(a.values, b.values)
                XCTAssertEqual(ArchiveDiffer(ignoring: ["timestamp"]).diff(a.file, b.file), expected, "\(a.name) → \(b.name)")
                if !expected.isEmpty { changed += 1 }
            }
        }
        XCTAssertGreaterThan(changed, 300)
    }

    /// Objects are equal when their entries are: the same file as binary and as XML, and
    /// dictionaries in another order, are equal; objects whose state changed are not. Entries
    /// identical on their tapes, which `diff` skips unmade, are equal objects.
    func testEqualEntriesAreEqualObjects() throws {
        func read(_ name: String) throws -> RestorationArchive {
            try RestorationArchive(bytes: FixtureFiles.bytes(name)[...])
        }
        func identical(_ a: RestorationArchive, _ b: RestorationArchive) -> [String: Bool] {
            var found: [String: Bool] = [:]
            for object in a.objects {
                guard let other = b.object(at: object.identifierPath) else { continue }
                let same = object == other
                XCTAssertEqual(same, object.state == other.state && Set(object.views) == Set(other.views), object.identifierPath.rawValue)
                if object.hasIdenticalEntry(as: other) { XCTAssertTrue(same, object.identifierPath.rawValue) }
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
        let settings = try XCTUnwrap(reordered.0.objects.first { $0.identifierPath.lastIdentifier == "SettingsViewController" })
        let otherSettings = try XCTUnwrap(reordered.1.objects.first { $0.identifierPath.lastIdentifier == "SettingsViewController" })
        XCTAssertFalse(settings.hasIdenticalEntry(as: otherSettings), "a dictionary's keys are in another order")
        XCTAssertEqual(settings, otherSettings)
    }

    /// The output limit gives the same verdict at and around the text's length.
    func testTheLimitGivesTheSameVerdict() throws {
        let archive = try RestorationArchive(bytes: FixtureFiles.bytes("many-objects.data")[...])
        let length = try XCTUnwrap(text(archive, inParts: true)).count
        for limit in [1, length / 2, length - 1, length, length + 1] {
            XCTAssertEqual(text(archive, inParts: true, limit: limit) == nil, limit < length, "limit \(limit)")
        }
    }
}
