import Foundation
import XCTest
@testable import RestorationKit

final class ArchiveDifferTests: XCTestCase {
    private func archive(_ objects: [(String, ArchiveFields)], classMap: [(String, String)] = [], timestamp: Double = 0, app: [(String, ArchiveValue)] = []) -> RestorationArchive {
        var top: [(String, ArchiveValue)] = [
            (RestorationKeys.majorVersion, .integer(2)),
            (RestorationKeys.timestamp, .date(timestamp)),
            (RestorationKeys.identifierPaths, .array(objects.map { .string($0.0) })),
        ]
        if !classMap.isEmpty {
            top.append((RestorationKeys.classMap, .dictionary(ArchiveDictionary(entries: classMap.map { .init(key: .string($0.0), value: .string($0.1)) }))))
        }
        top += objects.map { ($0.0, .archive(KeyedArchive(top: $0.1))) }
        return RestorationArchive(archive: KeyedArchive(top: ArchiveFields(top + app)))
    }

    private func lines(_ changes: [ArchiveChange]) -> [String] {
        changes.map { change in
            let marker = ["added": "+", "removed": "-", "changed": "~"][change.kind.rawValue]!
            return marker + " " + (change.identifierPath?.rawValue ?? "(archive)") + " " + DiffTextFormatter.pathText(change.path) + (change.summary.map { " (" + $0 + ")" } ?? "")
        }
    }

    func testIdenticalArchivesAndKeyOrder() {
        let one = archive([("Root", ArchiveFields([("a", .integer(1)), ("b", .dictionary(ArchiveDictionary(entries: [.init(key: .string("x"), value: .real(.nan)), .init(key: .string("y"), value: .integer(2))])))]))])
        let reordered = archive([("Root", ArchiveFields([("b", .dictionary(ArchiveDictionary(entries: [.init(key: .string("y"), value: .integer(2)), .init(key: .string("x"), value: .real(.nan))]))), ("a", .integer(1))]))])
        XCTAssertEqual(ArchiveDiffer().diff(one, reordered), [])
        XCTAssertEqual(ArchiveDiffer().diff(one, one), [], "NaN equals itself")
    }

    /// Timestamps compare by their bits, as every real value does: an archive whose timestamp
    /// is NaN (a fuzzer's input) equals itself, and so does a change of it.
    func testANaNTimestampEqualsItself() throws {
        let archive = try RestorationArchive(contentsOf: FixtureFiles.root + "/Tests/Fuzz/regressions/diff-pair-nan-timestamp.data")
        let timestamp = try XCTUnwrap(archive.timestamp)
        XCTAssertTrue(timestamp.isNaN)
        XCTAssertEqual(archive, archive)
        let changes = ArchiveDiffer().diff(archive, try FixtureFiles.archive("validate/clean.data"))
        XCTAssertEqual(changes, changes)
        XCTAssertEqual(changes.first { $0.path == [.key("timestamp")] }?.old, .timestamp(timestamp))
        XCTAssertEqual(Set([DiffValue.timestamp(timestamp), .timestamp(timestamp)]).count, 1)
        XCTAssertNotEqual(DiffValue.timestamp(0.0), .timestamp(-0.0))
    }

    /// A key repeated in a damaged archive is compared by its first value: the same pairs in
    /// another order still differ there (the models are equal as multisets, the fields are not).
    func testRepeatedKeysInAnotherOrderDiffer() {
        let old = archive([("Root", ArchiveFields([("k", .integer(1)), ("k", .integer(2)), ("j", .integer(0))]))])
        let new = archive([("Root", ArchiveFields([("j", .integer(0)), ("k", .integer(2)), ("k", .integer(1))]))])
        XCTAssertEqual(lines(ArchiveDiffer().diff(old, new)), ["~ Root state.k"])
        XCTAssertEqual(ArchiveDiffer().diff(old, old), [])
    }

    func testNestedChangesAreReportedAtTheirOwnPath() {
        let old = archive([("Root", ArchiveFields([("prefs", .dictionary(ArchiveDictionary(entries: [
            .init(key: .string("sync"), value: .dictionary(ArchiveDictionary(entries: [.init(key: .string("interval"), value: .integer(30))]))),
            .init(key: .string("size"), value: .integer(14)),
        ])))]))])
        let new = archive([("Root", ArchiveFields([("prefs", .dictionary(ArchiveDictionary(entries: [
            .init(key: .string("sync"), value: .dictionary(ArchiveDictionary(entries: [.init(key: .string("interval"), value: .integer(60))]))),
            .init(key: .string("language"), value: .string("de")),
        ])))]))])
        let changes = ArchiveDiffer().diff(old, new)
        XCTAssertEqual(lines(changes), ["~ Root state.prefs.sync.interval", "- Root state.prefs.size", "+ Root state.prefs.language"])
        XCTAssertEqual(changes[0].old, .value(.integer(30)))
        XCTAssertEqual(changes[0].new, .value(.integer(60)))
    }

    func testObjectsAddedRemovedAndChildrenReordered() {
        let children = { (paths: [String]) in ArchiveFields([(RestorationKeys.children, .array(paths.map(ArchiveValue.reference)))]) }
        let old = archive([("Tabs", children(["Tabs/:[0]:/A", "Tabs/:[1]:/B"])), ("Tabs/:[0]:/A", .empty), ("Tabs/:[1]:/B", .empty)])
        let new = archive([("Tabs", children(["Tabs/:[1]:/B", "Tabs/:[0]:/A"])), ("Tabs/:[0]:/A", .empty), ("Tabs/:[2]:/C", .empty)])
        XCTAssertEqual(lines(ArchiveDiffer().diff(old, new)), [
            "~ Tabs state.kUIViewControllerChildrenKey (children reordered)",
            "- Tabs/:[1]:/B  (object removed)",
            "+ Tabs/:[2]:/C  (object added)",
        ])
    }

    func testRestorationClassAndIgnoredNames() {
        let old = archive([("Root", ArchiveFields([("noise", .integer(1))]))], classMap: [("Root", "OldClass")], timestamp: 0)
        let new = archive([("Root", ArchiveFields([("noise", .integer(2))]))], classMap: [("Root", "NewClass")], timestamp: 60)
        XCTAssertEqual(lines(ArchiveDiffer().diff(old, new)), [
            "~ (archive) timestamp", "~ Root restorationClass (restoration class changed)", "~ Root state.noise",
        ])
        XCTAssertEqual(lines(ArchiveDiffer(ignoring: ["timestamp", "noise"]).diff(old, new)), ["~ Root restorationClass (restoration class changed)"])
    }

    /// A name to leave out is matched by its bytes, as keys are: "Café" composed leaves out
    /// that key only, not "Café" decomposed, which is another key.
    func testIgnoredNamesMatchByBytes() {
        let (composed, decomposed) = ("Caf\u{E9}", "Cafe\u{301}")
        let old = archive([("Root", ArchiveFields([(composed, .integer(1)), (decomposed, .integer(1))]))])
        let new = archive([("Root", ArchiveFields([(composed, .integer(2)), (decomposed, .integer(2))]))])
        XCTAssertEqual(lines(ArchiveDiffer(ignoring: [composed]).diff(old, new)), ["~ Root state.\"\(decomposed)\""])
        XCTAssertEqual(lines(ArchiveDiffer(ignoring: [decomposed]).diff(old, new)), ["~ Root state.\(composed)"])
        XCTAssertEqual(lines(ArchiveDiffer(ignoring: [composed, decomposed]).diff(old, new)), [])
    }

    func testArraysCompareByPosition() {
        let old = archive([("Root", ArchiveFields([("list", .array([.integer(1), .integer(2)]))]))])
        let new = archive([("Root", ArchiveFields([("list", .array([.integer(1), .integer(3), .integer(4)]))]))])
        XCTAssertEqual(lines(ArchiveDiffer().diff(old, new)), ["~ Root state.list[1]", "+ Root state.list[2]"])
    }

    func testExactReals() {
        let positive = archive([("Root", ArchiveFields([("zero", .real(0.0))]))])
        let negative = archive([("Root", ArchiveFields([("zero", .real(-0.0))]))])
        XCTAssertEqual(lines(ArchiveDiffer().diff(positive, negative)), ["~ Root state.zero"])
    }

    func testPathText() {
        XCTAssertEqual(DiffTextFormatter.pathText([.key("state"), .key("a b"), .index(2), .key("x")]), "state.\"a b\"[2].x")
        // A long key is cut, and quoted as a key that is not plain: it is repeated on every
        // change line below it.
        let long = String(repeating: "k", count: 50_000)
        XCTAssertEqual(DiffTextFormatter.pathText([.key(long), .key("v")]), "\"" + String(repeating: "k", count: 119) + "…\".v")
    }

    /// Containers that differ only inside hash apart: a set of 16 000 such dictionaries made
    /// comparing two sets quadratic when every member hashed alike.
    func testContainersThatDifferInsideHashApart() {
        let dictionaries = (0..<1000).map { index in
            ArchiveValue.dictionary(ArchiveDictionary(entries: [.init(key: .string("k"), value: .string("v")), .init(key: .string("n"), value: .integer(Int128(index)))]))
        }
        XCTAssertEqual(Set(dictionaries.map(\.hashValue)).count, 1000)
        let objects = (0..<1000).map { ArchiveValue.object(ArchiveObject(className: "C", classChain: ["C"], fields: ArchiveFields([("n", .integer(Int128($0)))]))) }
        XCTAssertEqual(Set(objects.map(\.hashValue)).count, 1000)
        // Equal values hash alike whatever their order, where order does not count.
        let forward = ArchiveValue.dictionary(ArchiveDictionary(entries: [.init(key: .string("a"), value: .integer(1)), .init(key: .string("b"), value: .array([.integer(2)]))]))
        let backward = ArchiveValue.dictionary(ArchiveDictionary(entries: [.init(key: .string("b"), value: .array([.integer(2)])), .init(key: .string("a"), value: .integer(1))]))
        XCTAssertEqual(forward, backward)
        XCTAssertEqual(forward.hashValue, backward.hashValue)
    }

    /// A large archive's objects are compared in parts on several threads: the changes come out
    /// object by object in save order, as one comparison after another gives them.
    func testChangesOfALargeArchiveKeepTheirOrder() {
        let count = 1200
        let path = { (index: Int) in "Root/:[\(index)]:/Controller\(index)" }
        let old = archive((0..<count).map { (path($0), ArchiveFields([("n", .integer(Int128($0))), ("same", .string("x"))])) })
        var newObjects: [(String, ArchiveFields)] = []
        for index in 0..<count where index % 50 != 7 {
            let number = Int128(index % 3 == 0 ? index + 1 : index)
            newObjects.append((path(index), ArchiveFields([("n", .integer(number)), ("same", .string("x"))])))
        }
        newObjects.append((path(count), ArchiveFields([])))
        let new = archive(newObjects)
        var expected: [String] = []
        for index in 0..<count {
            if index % 50 == 7 {
                expected.append("- \(path(index))")
            } else if index % 3 == 0 {
                expected.append("~ \(path(index)) state.n")
            }
        }
        expected.append("+ \(path(count))")
        let changes = ArchiveDiffer(ignoring: ["identifierPaths", "restorationClassMap"]).diff(old, new).map { change in
            let marker = ["added": "+", "removed": "-", "changed": "~"][change.kind.rawValue]!
            let keys = change.path.map { component -> String in
                if case .key(let key) = component { return key }
                return "?"
            }
            return ([marker, change.identifierPath?.rawValue ?? ""] + (keys.isEmpty ? [] : [keys.joined(separator: ".")])).joined(separator: " ")
        }
        XCTAssertGreaterThan(Parallel.parts(of: count).count, 8)
        XCTAssertEqual(changes.count, expected.count)
        let firstDifference = changes.indices.first { $0 < expected.count && changes[$0] != expected[$0] }
        XCTAssertNil(firstDifference, "changes out of order from \(firstDifference.map { changes[$0] } ?? "")")
    }

    /// Values 4 000 levels deep (dictionaries in arrays) are compared, dumped and their change
    /// written on a thread of 256 KiB: each walk keeps a stack of its own. The one change is at
    /// the bottom, by its path.
    func testDeepValuesAreComparedAndWrittenOnAnOrdinaryStack() throws {
        let levels = 4_000
        func deep(_ leaf: Int128) -> RestorationArchive {
            var builder = TapeBuilder()
            var value = builder.integer(leaf)
            for level in 0..<levels {
                if level % 2 == 0 {
                    builder.nodes += [builder.text(.string, "k"), value]
                    value = TapeNode(.dictionary, count: 1, payload: UInt64(builder.nodes.count - 2))
                } else {
                    builder.nodes.append(value)
                    value = TapeNode(.array, count: 1, payload: UInt64(builder.nodes.count - 1))
                }
            }
            let state = ArchiveFields([("deep", ArchiveValue(value, on: ArchiveTape(builder, root: value)))])
            return RestorationArchive(archive: KeyedArchive(top: ArchiveFields([
                (RestorationKeys.majorVersion, .integer(2)),
                (RestorationKeys.identifierPaths, .array([.string("Root")])),
                ("Root", .archive(KeyedArchive(top: state)))])), limits: DecodingLimits(maxDepth: 2 * levels))
        }
        let (old, new) = (deep(1), deep(2))
        let result = try onSmallStack {
            let changes = ArchiveDiffer().diff(old, new)
            return (changes: changes, same: ArchiveDiffer().diff(old, old), dumpLines: TextDumpFormatter().format(new, file: "new").split(separator: "\n"),
                    diffText: DiffTextFormatter().format(changes, a: "old", b: "new"))
        }
        XCTAssertEqual(result.same, [])
        XCTAssertEqual(result.changes.count, 1)
        XCTAssertEqual(result.changes.first?.path.count, 2 + levels)
        XCTAssertEqual(result.changes.first?.path.last, .key("k"))
        XCTAssertEqual(result.changes.first?.old, .value(.integer(1)))
        XCTAssertEqual(result.changes.first?.new, .value(.integer(2)))
        // Written there too: a line per level, the deepest last among the object's.
        XCTAssertEqual(result.dumpLines.filter { $0.contains("[0]") }.count, levels / 2)
        XCTAssertEqual(result.dumpLines.last?.hasSuffix("(level \(levels + 1)) k....2"), true, "\(result.dumpLines.suffix(3))")
        XCTAssertTrue(result.diffText.hasSuffix(": 1 → 2\n"), result.diffText.suffix(80).description)
    }
}
