import Foundation
import XCTest
@testable import RestorationKit

/// Text `dump` reads the saved objects' states from the tape one at a time
/// (`DeferredStates`): its archive and text must be those of the archive read whole.
final class DeferredStatesTests: XCTestCase {
    /// Every fixture, hostile ones and the fuzzers' regressions included.
    private func inputs() throws -> [(name: String, bytes: [UInt8])] {
        let root = FixtureFiles.root
        var names: [String] = []
        for folder in ["Fixtures", "Tests/Fuzz/regressions"] {
            let found = FileManager.default.enumerator(atPath: root + "/" + folder)?.compactMap { $0 as? String } ?? []
            names += found.filter { !$0.hasSuffix(".md") && !$0.hasSuffix(".py") }.map { folder + "/" + $0 }
        }
        return try names.sorted().compactMap { name in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
            return (name, try InputFile.read(root + "/" + name))
        }
    }

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
        let inputs = try inputs()
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
