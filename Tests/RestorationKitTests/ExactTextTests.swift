import XCTest
@testable import RestorationKit

/// Keys, paths and strings are the same when their bytes are, as Foundation compares them, not
/// when Swift's `String` calls them equal (canonical equivalence).
final class ExactTextTests: XCTestCase {
    /// "Café" composed (U+00E9) and decomposed ("e" + U+0301): one `String` to Swift, two to
    /// Foundation.
    static let composed = "Caf\u{E9}"
    static let decomposed = "Cafe\u{301}"
    /// KELVIN SIGN, canonically equivalent to "K".
    static let kelvinKey = "kPresentedViewController\u{212A}ey"

    func testTheSpellingsAreOneStringToSwift() {
        // What the rest of the tests guard against: if this ever fails, Swift changed.
        XCTAssertEqual(Self.composed, Self.decomposed)
        XCTAssertEqual(Self.kelvinKey, RestorationKeys.presentedViewController)
    }

    func testExactTextComparesBytes() {
        XCTAssertFalse(Self.composed.isExactly(Self.decomposed))
        XCTAssertTrue(Self.composed.isExactly("Caf\u{E9}"))
        XCTAssertTrue("".isExactly(""))
        XCTAssertFalse("".isExactly("a"))
        XCTAssertEqual(Set([ExactText(Self.composed), ExactText(Self.decomposed), ExactText(Self.composed)]).count, 2)
        var set = ExactTextSet([Self.composed])
        XCTAssertFalse(set.contains(Self.decomposed))
        XCTAssertTrue(set.insert(Self.decomposed))
        XCTAssertFalse(set.insert(Self.composed))
        XCTAssertEqual(set.count, 2)
        XCTAssertTrue([Self.decomposed].containsExactly(Self.decomposed))
        XCTAssertFalse([Self.decomposed].containsExactly(Self.composed))
    }

    /// Both lookups, the linear one and the index over 64 keys.
    func testFieldsLookUpKeysByTheirBytes() {
        for padding in [0, 70] {
            let extra = (0..<padding).map { ("extra\($0)", ArchiveValue.integer(Int128($0))) }
            let fields = ArchiveFields([(Self.composed, .string("c")), (Self.decomposed, .string("d")), (Self.kelvinKey, .null)] + extra)
            XCTAssertEqual(fields[Self.composed], .string("c"), "\(padding)")
            XCTAssertEqual(fields[Self.decomposed], .string("d"), "\(padding)")
            XCTAssertNil(fields[RestorationKeys.presentedViewController], "\(padding)")
            XCTAssertFalse(fields.hasRepeatedKeys, "\(padding)")
            XCTAssertEqual(fields.removing(Self.composed).keys, [Self.decomposed, Self.kelvinKey] + extra.map(\.0))
            XCTAssertEqual(fields.removing(Set([Self.decomposed])).keys, [Self.composed, Self.kelvinKey] + extra.map(\.0))
        }
        let composedKey = ArchiveFields([(Self.composed, .integer(1))])
        let decomposedKey = ArchiveFields([(Self.decomposed, .integer(1))])
        XCTAssertNotEqual(composedKey, decomposedKey)
        XCTAssertNotEqual(ArchiveFields([("a", .null), (Self.composed, .integer(1))]), ArchiveFields([(Self.decomposed, .integer(1)), ("a", .null)]))
    }

    func testValuesCompareStringsByTheirBytes() {
        XCTAssertNotEqual(ArchiveValue.string(Self.composed), .string(Self.decomposed))
        XCTAssertNotEqual(ArchiveValue.reference(Self.composed), .reference(Self.decomposed))
        XCTAssertNotEqual(ArchiveURL(base: .null, relative: Self.composed), ArchiveURL(base: .null, relative: Self.decomposed))
        let object = { (name: String) in ArchiveObject(className: name, classChain: [name], fields: .empty) }
        XCTAssertNotEqual(object(Self.composed), object(Self.decomposed))
        XCTAssertEqual(object(Self.composed), object("Caf\u{E9}"))
        let dictionary = { (key: String) in ArchiveValue.dictionary(ArchiveDictionary(entries: [.init(key: .string(key), value: .null)])) }
        XCTAssertNotEqual(dictionary(Self.composed), dictionary(Self.decomposed))
    }

    func testPathsCompareByTheirBytes() {
        let composed = IdentifierPath("Root/" + Self.composed)
        let decomposed = IdentifierPath("Root/" + Self.decomposed)
        XCTAssertNotEqual(composed, decomposed)
        XCTAssertEqual(Set([composed, decomposed, IdentifierPath("Root/Caf\u{E9}")]).count, 2)
        XCTAssertTrue(decomposed < composed, "e (0x65) comes before é (0xC3 0xA9)")
        XCTAssertFalse(composed < decomposed)
        XCTAssertTrue(IdentifierPath(decomposed.rawValue + "/Child").hasPrefix(decomposed))
        XCTAssertFalse(IdentifierPath(decomposed.rawValue + "/Child").hasPrefix(composed))
        XCTAssertFalse(IdentifierPath("Root/" + Self.decomposed).hasPrefix(IdentifierPath("Root/Cafe")))
    }

    /// The fixture pair: two saved objects whose paths differ only in how "é" is written, and a
    /// key of Settings that B writes the other way.
    func testAnArchiveHoldingBothSpellings() throws {
        let a = try FixtureFiles.archive("diff/normalization-a.data")
        let b = try FixtureFiles.archive("diff/normalization-b.data")
        let list = "TabController/:[0]:/NavigationController/:[0]:/ListViewController/"
        let paths = [list + Self.composed, list + Self.decomposed].map { IdentifierPath($0) }
        for path in paths {
            XCTAssertEqual(a.objects.filter { $0.identifierPath == path }.count, 1, path.rawValue)
        }
        XCTAssertEqual(a.object(at: paths[0])?.state?["note"], .string("composed"))
        XCTAssertEqual(a.object(at: paths[1])?.state?["note"], .string("decomposed"))
        XCTAssertEqual(a.notes, [])
        XCTAssertEqual(a.appState.keys, [RestorationKeys.firstResponders])
        XCTAssertEqual(ArchiveValidator().validate(a).map(\.message), [])

        let tree = RestorationTree(a)
        let list0 = tree.roots[0].children[0].children[0]
        XCTAssertEqual(list0.children.map(\.identifierPath), paths)

        let settings = "TabController/:[1]:/NavigationController/:[0]:/SettingsViewController"
        let changes = ArchiveDiffer().diff(a, b).map { change in
            "\(change.kind.rawValue) \(change.identifierPath ?? "") \(DiffTextFormatter.pathText(change.path))"
        }
        XCTAssertEqual(changes, [
            "removed \(settings) state.\(Self.composed)",
            "added \(settings) state.\"\(Self.decomposed)\"",
            "changed \(paths[1].rawValue) state.note",
        ])
    }

    /// A field whose first byte is `$` gets one more `$` in the JSON, whatever follows it.
    func testJSONEscapesADollarBeforeACombiningMark() throws {
        let object = ArchiveObject(className: "C", classChain: ["C"], fields: ArchiveFields([("$\u{301}x", .integer(1)), ("x$", .integer(2))]))
        let json = JSONOutput.text([ValueDocument(value: .object(object))], asArray: false)
        XCTAssertTrue(json.contains("\"$$\u{301}x\": 1"), json)
        XCTAssertTrue(json.contains("\"x$\": 2"), json)
    }
}

private struct ValueDocument: JSONRepresentable {
    let value: ArchiveValue

    var jsonNode: JSONNode {
        .members(["value": value])
    }
}
