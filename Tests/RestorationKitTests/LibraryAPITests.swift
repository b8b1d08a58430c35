import Foundation
import XCTest
@testable import RestorationKit

/// What a program using RestorationKit reads without knowing the decoder: typed accessors on
/// values, the demangled class of an object, fields in order, and a verdict that says when a
/// file is no restoration archive.
final class LibraryAPITests: XCTestCase {
    func testTypedAccessors() {
        XCTAssertEqual(ArchiveValue.boolean(true).boolValue, true)
        XCTAssertNil(ArchiveValue.integer(1).boolValue)
        XCTAssertEqual(ArchiveValue.real(0.25).doubleValue, 0.25)
        XCTAssertEqual(ArchiveValue.float(0.5).doubleValue, 0.5, "a 4-byte real too")
        XCTAssertNil(ArchiveValue.integer(1).doubleValue, "an integer is no real")
        XCTAssertEqual(ArchiveValue.date(-0.5).dateValue, -0.5)
        XCTAssertEqual(ArchiveValue.data(ArchiveData(bytes: [1, 2][...])).dataValue, [1, 2][...])
        XCTAssertEqual(ArchiveValue.uuid(Array(repeating: 7, count: 16)).uuidValue?.count, 16)
        XCTAssertEqual(ArchiveValue.reference("A/:[0]:/B").referenceValue, IdentifierPath("A/:[0]:/B"))
        for value in [ArchiveValue.array([.null, .string("x")]), .set([.null, .string("x")]), .orderedSet([.null, .string("x")])] {
            XCTAssertEqual(value.elements?.count, 2)
            XCTAssertEqual(value.elements?.last?.stringValue, "x")
        }
        let fields = ArchiveFields([("b", .integer(2)), ("a", .integer(1)), ("b", .integer(3))])
        let object = ArchiveValue.object(ArchiveObject(className: "Thing", classChain: ["Thing", "NSObject"], fields: fields))
        XCTAssertEqual(object.objectValue?.className, "Thing")
        XCTAssertEqual(object.fields?.keys, ["b", "a", "b"], "in order, the repeated key kept")
        let dictionary = ArchiveValue.dictionary(ArchiveDictionary(entries: [.init(key: .string("k"), value: .boolean(false))]))
        XCTAssertEqual(dictionary.fields?["k"]?.boolValue, false)
        XCTAssertNil(ArchiveValue.dictionary(ArchiveDictionary(entries: [.init(key: .integer(1), value: .null)])).fields, "keys that are not strings")
        XCTAssertNil(ArchiveValue.string("x").elements)
    }

    func testEntriesAreACollectionOfKeysAndValues() {
        let fields = ArchiveFields([("b", .integer(2)), ("a", .integer(1)), ("b", .integer(3))])
        let entries = fields.entries
        XCTAssertEqual(entries.count, 3)
        XCTAssertEqual(entries[2].key, "b")
        XCTAssertEqual(entries[2].value.integerValue, 3)
        XCTAssertEqual(entries.map(\.key), ["b", "a", "b"])
        XCTAssertEqual(entries.reversed().first?.value.integerValue, 3)
    }

    func testObjectsNameTheirClassAsSwiftWritesIt() throws {
        let archive = try FixtureFiles.archive("ios8-tabbar.data")
        let named = archive.objects.filter { $0.restorationClass != nil }
        XCTAssertEqual(named.map(\.restorationClassName), ["StateRestorationDemo.CityViewController"])
        XCTAssertEqual(named.map(\.restorationClass), ["_TtC20StateRestorationDemo18CityViewController"])
    }

    func testTheReportSaysWhenAFileIsNoRestorationArchive() throws {
        let generic = try FixtureFiles.archive("not-restoration.data")
        XCTAssertEqual(ArchiveValidator().validate(generic), [], "no rule applies: not unsupported-version")
        let report = ArchiveValidator().report(for: generic, file: "x.data")
        XCTAssertFalse(report.isRestorationArchive)
        XCTAssertFalse(report.isValid)
        XCTAssertEqual(report.verdict, "not a restoration archive")
        let archive = try FixtureFiles.archive("validate/dangling-reference.data")
        let invalid = ArchiveValidator().report(for: archive)
        XCTAssertEqual(invalid.verdict, "invalid (2 errors, 0 warnings)")
        XCTAssertEqual(ArchiveValidator().report(for: try FixtureFiles.archive("validate/clean.data"), strict: true).verdict, "valid (0 errors, 0 warnings)")
    }

    /// A value is a view of its node: reading one does not make what is under it, its members
    /// are views of the same tape, which the value keeps alive after its archive is gone, and
    /// it switches one level deep.
    func testValuesAreViewsOfTheTape() throws {
        var value: ArchiveValue?
        do {
            let archive = try FixtureFiles.archive("values.data")
            let state = try XCTUnwrap(archive.objects.first { $0.state?["dictStringKeys"] != nil }?.state)
            value = state["dictStringKeys"]
            XCTAssertTrue(value!.tape === archive.tape, "a view, not a copy")
            XCTAssertTrue(value!.dictionaryValue!.entries.allSatisfy { $0.value.tape === archive.tape })
        }
        let dictionary = try XCTUnwrap(value)
        XCTAssertEqual(dictionary.kind, .dictionary)
        guard case .dictionary(let entries) = dictionary.content else { return XCTFail("a dictionary") }
        XCTAssertFalse(entries.entries.isEmpty)
        // A value built from the decoded one's members is equal to it, on a tape of its own.
        let rebuilt = ArchiveValue.dictionary(ArchiveDictionary(entries: entries.entries.reversed()))
        XCTAssertFalse(rebuilt.tape === dictionary.tape)
        XCTAssertEqual(rebuilt, dictionary, "entries in another order")
        XCTAssertEqual(rebuilt.hashValue, dictionary.hashValue)
        XCTAssertNotEqual(ArchiveValue.dictionary(ArchiveDictionary(entries: Array(entries.entries.dropFirst()))), dictionary)
        // The entries alone compare as the dictionary value does: in any order, as a multiset.
        XCTAssertEqual(ArchiveDictionary(entries: entries.entries.reversed()), entries)
        XCTAssertEqual(ArchiveDictionary(entries: entries.entries.reversed()).hashValue, entries.hashValue)
        XCTAssertNotEqual(ArchiveDictionary(entries: Array(entries.entries.dropFirst())), entries)
        let first = entries.entries[0]
        let other = ArchiveDictionary.Entry(key: first.key, value: .string("another value"))
        XCTAssertNotEqual(ArchiveDictionary(entries: [first, first]), ArchiveDictionary(entries: [first, other]))
        XCTAssertNotEqual(ArchiveDictionary(entries: [first, other, other]), ArchiveDictionary(entries: [first, first, other]))
        XCTAssertEqual(ArchiveDictionary(entries: [other, first, other]), ArchiveDictionary(entries: [first, other, other]))
    }

    /// Values built by hand are laid out as the decoder lays them out: an NSValue's fields read
    /// as the structure, a wide integer and the bytes of data kept.
    func testBuiltValuesAreDecodedValues() {
        let point = ArchiveValue.object(ArchiveObject(className: "NSValue", classChain: ["NSValue", "NSObject"],
                                                      fields: ArchiveFields([("NS.special", .integer(1)), ("NS.pointval", .string("{1, 2}"))])))
        XCTAssertEqual(point.kind, .special)
        XCTAssertEqual(point.description, "Point {1, 2}")
        XCTAssertEqual(point.className, "NSValue")
        let wide = Int128(Int64.max) * 4 + 3
        XCTAssertEqual(ArchiveValue.array([.integer(wide), .integer(-wide)]).elements?.map(\.integerValue), [wide, -wide])
        XCTAssertEqual(ArchiveValue.array([.integer(wide)]), ArchiveValue.array([.integer(wide)]))
        XCTAssertNotEqual(ArchiveValue.array([.integer(wide)]), ArchiveValue.array([.integer(wide - 1)]))
        let failed = ArchiveValue.data(ArchiveData(bytes: [0x62, 0x70][...], archiveError: "truncated"))
        XCTAssertEqual(ArchiveValue.array([failed]).elements?.first?.archiveData, ArchiveData(bytes: [0x62, 0x70][...], archiveError: "truncated"))
        XCTAssertEqual(ArchiveValue.url(ArchiveURL(base: .null, relative: "a/b")).urlValue?.relative, "a/b")
        XCTAssertEqual(ArchiveValue.array([.string("x"), .integer(1), .boolean(true), .reference("A/B"), .data(ArchiveData(bytes: [1, 2][...]))]).description, "[\"x\", 1, Yes, Object Identifier Proxy: A/B, 2 bytes: 01 02]")
        XCTAssertEqual(ArchiveValue.cycle(7).cycleValue, 7)
        XCTAssertEqual(ArchiveValue.float(0.1).floatValue, 0.1)
    }

    /// Values 20 000 levels deep compare, print and copy on a thread of 256 KiB (each walk keeps
    /// a stack of its own), and compare in time when they differ at their bottom: a dictionary's
    /// entry, compared in order and again as a multiset member, would cost 2^512 comparisons
    /// without the pairs already found unequal; so would a repeated key whose values share
    /// one container. (Equal values cost what they expand to, shared members once per
    /// reference, which the decoder's `maxNodes` bounds; these, built by hand, would expand to
    /// 2^20000.)
    func testDeepValuesWorkOnASmallStackAndCompareInLinearTime() throws {
        func nested(_ leaf: Int128, entries: Int) -> ArchiveValue {
            var builder = TapeBuilder()
            var value = builder.integer(leaf)
            for _ in 0..<20_000 {
                let keys = (0..<entries).map { _ in builder.text(.string, "k") }
                builder.nodes += keys + Array(repeating: value, count: entries)
                value = TapeNode(.dictionary, count: entries, payload: UInt64(builder.nodes.count - 2 * entries))
            }
            return ArchiveValue(value, on: ArchiveTape(builder, root: value))
        }
        let values = [1, 2].map { entries in (nested(1, entries: entries), nested(1, entries: entries), nested(2, entries: entries)) }
        let outcomes = try onSmallStack(timeout: 60) {
            var outcomes: [Bool] = []
            for (index, (a, b, c)) in values.enumerated() { outcomes += [index > 0 || a == b, a != c, c != a] }
            // Written and copied there too (the first, whose members are not shared).
            let (a, _, c) = values[0]
            outcomes += [a.description.hasPrefix("{k: {k: "), a.description.hasSuffix("…"), ArchiveValue.array([a]).elements?.first == a, ArchiveValue.array([c]).elements?.first != a]
            return outcomes
        }
        XCTAssertEqual(outcomes, Array(repeating: true, count: 10))
    }

    /// The program in README.md's "The library", line for line: it compiles here, and what it
    /// prints is what a reader of the README would see.
    func testTheREADMEProgram() throws {
        let readme = try String(contentsOfFile: FixtureFiles.root + "/README.md", encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "## The library\n").dropFirst().first)
        let program = try XCTUnwrap(section.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```").first)
        let source = try String(contentsOfFile: "\(#filePath)", encoding: .utf8)
        for line in program.split(separator: "\n") {
            XCTAssertTrue(source.contains("\n        " + line + "\n"), "README's line is not in this test: \(line)")
        }
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        let folder = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(FixtureFiles.root))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(folder) }

        let path = "Fixtures/validate/dangling-reference.data"
        let archive = try RestorationArchive(contentsOf: path)
        for object in archive.objects {
            print(object.identifierPath, object.restorationClassName ?? "-")
        }
        let report = ArchiveValidator().report(for: archive, file: path)
        for finding in report.diagnostics {
            print(finding.severity, finding.rule.rawValue, finding.identifierPath ?? "(archive)", finding.message)
        }
        print(report.verdict)

        XCTAssertEqual(printed, [
            "TabController -",
            "TabController/:[0]:/NavigationController -",
            "TabController/:[0]:/NavigationController/:[0]:/ListViewController -",
            "TabController/:[1]:/NavigationController -",
            "TabController/:[1]:/NavigationController/:[0]:/SettingsViewController Demo.SettingsViewController",
            "error dangling-reference TabController/:[1]:/NavigationController can't find child view controller at index 1 with identifier "
                + "TabController/:[1]:/NavigationController/:[1]:/DetailViewController (no object was saved under it): UIKit truncates the child array at index 1",
            "error dangling-reference TabController/:[1]:/NavigationController/:[0]:/SettingsViewController kPresentedViewControllerKey refers to "
                + "TabController/:[1]:/NavigationController/:[0]:/SettingsViewController/GoneViewController, but no object was saved under that path: "
                + "the presented view controller is not restored",
            "invalid (2 errors, 0 warnings)",
        ])
        // The catalog's overview holds the same program.
        let catalog = try String(contentsOfFile: FixtureFiles.root + "/Sources/RestorationKit/RestorationKit.docc/RestorationKit.md", encoding: .utf8)
        XCTAssertTrue(catalog.contains("```swift\n" + program + "```"), "the catalog's program differs from README's")
    }
}
