import Foundation
import XCTest
@testable import RestorationKit

/// `build`, the inverse of `dump --json`: every fixture's document builds a file that reads back
/// to the same document and compares identical, and documents that are not `dump`'s are
/// refused with where and why.
final class ArchiveBuilderTests: XCTestCase {
    /// A document's text, `file` set to "x" so that two documents compare.
    static func json(_ path: String, limits: DecodingLimits = .default) throws -> String {
        let document = try DumpDocument(contentsOf: path, file: "x", limits: limits)
        return JSONOutput.text([document], asArray: false)
    }

    static func jsonObject(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func build(_ json: String, limits: DecodingLimits = .default) throws -> BuiltArchive {
        try ArchiveBuilder(limits: limits).build(json: Array(json.utf8))
    }

    /// The fixtures whose documents are built: every file `dump` reads, but the hostile ones (past
    /// the limits on purpose) and those the builder says it cannot write.
    static func roundTrips() throws -> [(name: String, original: String, built: BuiltArchive)] {
        var results: [(String, String, BuiltArchive)] = []
        for (name, _) in try FixtureFiles.everyInput() where name.hasPrefix("Fixtures/") && !name.hasPrefix("Fixtures/hostile/") && !name.hasPrefix("Fixtures/amplification/") {
            let path = FixtureFiles.root + "/" + name
            guard let json = try? json(path) else { continue }
            do {
                results.append((name, path, try build(json)))
            } catch let error as BuildError where error.reason.contains("$cycle") || error.reason.contains("macOS window state") {
                continue
            }
        }
        return results
    }

    func testEveryFixtureRoundTrips() throws {
        let trips = try Self.roundTrips()
        XCTAssertGreaterThanOrEqual(trips.count, 60)
        var kinds = Set<SavedStateKind>()
        for (name, path, built) in trips {
            kinds.insert(built.kind)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("build-\(getpid())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            // The known scene sessions are told by their folder's name.
            let inner = folder.appendingPathComponent(((name as NSString).deletingLastPathComponent as NSString).lastPathComponent)
            try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
            let copy = inner.appendingPathComponent((name as NSString).lastPathComponent).path
            try Data(built.bytes).write(to: URL(fileURLWithPath: copy))
            if name.contains("repeated-root-key") {
                // A root dictionary that repeats `$top`: the document has the first, and a note.
                let (rebuilt, original) = (try Self.jsonObject(Self.json(copy)), try Self.jsonObject(Self.json(path)))
                XCTAssertEqual(rebuilt["appState"] as? NSDictionary, original["appState"] as? NSDictionary, name)
                XCTAssertEqual(rebuilt["objects"] as? NSArray, original["objects"] as? NSArray, name)
                XCTAssertEqual(rebuilt["notes"] as? [String], [], name)
            } else {
                XCTAssertEqual(try Self.json(copy), try Self.json(path), name)
            }
            let original = try RestorationArchive.readForComparison(contentsOf: [path], limits: .default)[0].get()
            let rebuilt = try RestorationArchive.readForComparison(contentsOf: [copy], limits: .default)[0].get()
            let changes = ArchiveDiffer().diff(original, rebuilt)
            XCTAssertTrue(changes.isEmpty, "\(name): \(changes)")
            // The same document builds the same bytes.
            XCTAssertEqual(try Self.build(try Self.json(path)).bytes, built.bytes, name)
        }
        XCTAssertEqual(kinds, [.restorationArchive, .keyedArchive, .sceneActivity, .knownSceneSessions, .propertyList])
    }

    /// `--format xml`: the same archive, its outer file in XML, which libplist reads too. XML
    /// has one kind of real, so a document with 4-byte reals reads back with 8-byte ones; one
    /// with a date XML cannot spell is refused.
    func testEveryFixtureRoundTripsThroughXML() throws {
        var built = 0
        for (name, path, _) in try Self.roundTrips() where !name.contains("KnownSceneSessions") && !name.contains("repeated-root-key") {
            let json = try Self.json(path)
            let xml: BuiltArchive
            switch Result(catching: { () throws(BuildError) in try ArchiveBuilder().build(json: Array(json.utf8), format: .xml) }) {
            case .success(let built): xml = built
            case .failure(let error):
                XCTAssertTrue(error.reason.contains("XML format cannot spell"), "\(name): \(error)")
                continue
            }
            XCTAssertTrue(xml.bytes.starts(with: Array("<?xml".utf8)), name)
            XCTAssertNotNil(LibplistDocument(xml: xml.bytes[...]), "libplist reads \(name)")
            let copy = FileManager.default.temporaryDirectory.appendingPathComponent("build-xml-\(getpid()).plist").path
            try Data(xml.bytes).write(to: URL(fileURLWithPath: copy))
            defer { try? FileManager.default.removeItem(atPath: copy) }
            if json.contains("\"$float\"") {
                // The outer file's 4-byte reals come back widened, and nothing else changes;
                // nested archives stay binary.
                let original = try RestorationArchive(contentsOf: path)
                let changes = ArchiveDiffer().diff(original, try RestorationArchive(contentsOf: copy))
                for change in changes {
                    guard case .value(let old)? = change.old, case .value(let new)? = change.new, let float = old.floatValue else {
                        XCTFail("\(name): \(change)")
                        continue
                    }
                    XCTAssertEqual(new.kind, .real, name)
                    XCTAssertEqual(new.doubleValue, Double(float), name)
                }
            } else {
                XCTAssertEqual(try Self.json(copy), json, name)
            }
            built += 1
        }
        XCTAssertGreaterThanOrEqual(built, 50)
    }

    /// The Apple-written archives of AppleWrittenArchiveTests, through their documents: decoded
    /// again, every value is the same.
    func testAppleWrittenArchivesRoundTrip() throws {
        let folder = AppleWrittenArchiveTests.folder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { throw XCTSkip("no Apple-written archives at \(folder)") }
        var built = 0
        for name in names.sorted() where name.hasSuffix(".archive") || name.hasSuffix(".plist") {
            let path = folder + "/" + name
            let json = try Self.json(path)
            guard let archive = try? Self.build(json) else { continue }
            let original = try KeyedArchiveDecoder().decode(try InputFile.read(path))
            let rebuilt = try KeyedArchiveDecoder().decode(archive.bytes)
            XCTAssertEqual(original.top, rebuilt.top, name)
            built += 1
        }
        XCTAssertGreaterThanOrEqual(built, 40)
    }

    /// Foundation's own unarchiver reads what was built as it reads what Apple's Foundation wrote.
    func testFoundationUnarchivesWhatWasBuilt() throws {
        let folder = AppleWrittenArchiveTests.folder
        guard FileManager.default.fileExists(atPath: folder) else { throw XCTSkip("no Apple-written archives at \(folder)") }
        for name in ["NSKeyedUnarchiver-ArrayTest.plist", "NSKeyedUnarchiver-URLTest.plist", "NSKeyedUnarchiver-UUIDTest.plist", "NSKeyedUnarchiver-OrderedSetTest.plist"] {
            let path = folder + "/" + name
            let built = try Self.build(try Self.json(path))
            let ours = try NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(Data(built.bytes)) as? NSObject
            let theirs = try NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(Data(contentsOf: URL(fileURLWithPath: path))) as? NSObject
            XCTAssertNotNil(ours, name)
            XCTAssertEqual(ours, theirs, name)
        }
    }

    func testValuesJSONCannotSayAreKept() throws {
        let json = """
            {"kind": "keyedArchive", "appState": {
              "big": {"$integer": "-170141183460469231731687303715884105728"}, "u64": 18446744073709551615,
              "real": 0.10000000000000001, "nan": {"$real": "nan"}, "date": {"$date": "2013-11-02T09:30:15.25Z"},
              "old": {"$date": null, "referenceSeconds": -1e300}, "data": {"$data": "AAEC", "length": 3},
              "uuid": {"$uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}, "rect": {"$rect": {"x": 0.5, "y": 20, "width": 320, "height": 460}},
              "spelled": {"$point": {"x": 1.5, "y": -2, "text": "{1.5, -2.0}"}}, "range": {"$range": {"location": 3, "length": 5}},
              "url": {"$url": "foo.xml", "base": {"$url": "https://example.com", "base": null}}, "ref": {"$ref": "A/B"},
              "odd": {"$dictionary": [[1, "one"], ["$x", "dollar"]]}, "set": {"$set": [1, 2]},
              "object": {"$class": "Thing", "$classes": ["Thing", "NSObject"], "$$weird": 1, "name": "n"}
            }}
            """
        let built = try Self.build(json)
        let archive = try KeyedArchiveDecoder().decode(built.bytes)
        XCTAssertEqual(archive.top["big"]?.integerValue, Int128.min)
        XCTAssertEqual(archive.top["u64"]?.integerValue, Int128(UInt64.max))
        XCTAssertEqual(archive.top["real"]?.doubleValue, 0.1)
        XCTAssertTrue(archive.top["nan"]?.doubleValue?.isNaN == true)
        XCTAssertEqual(archive.top["date"]?.dateValue, 405_077_415.25)
        XCTAssertEqual(archive.top["old"]?.dateValue, -1e300)
        XCTAssertEqual(archive.top["data"]?.dataValue.map(Array.init), [0, 1, 2])
        XCTAssertEqual(archive.top["ref"]?.referenceValue?.description, "A/B")
        XCTAssertEqual(archive.top["object"]?.objectValue?.fields["$weird"]?.integerValue, 1)
        XCTAssertEqual(archive.top["odd"]?.dictionaryValue?.count, 2)
        XCTAssertEqual(archive.top["range"]?.kind, .special)
        let document = JSONOutput.text([DumpDocument(file: "x", archive: try RestorationArchive(bytes: built.bytes[...]))], asArray: false)
        XCTAssertTrue(document.contains(#""$rect": {"#), document)
        XCTAssertTrue(document.contains(#""text": "{1.5, -2.0}""#), "the spelling archived is kept: \(document)")
        XCTAssertTrue(document.contains(#""x": 0.5"#), document)
    }

    private func assertRefused(_ json: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            _ = try Self.build(json)
            XCTFail("built \(json)", file: file, line: line)
        } catch let error as BuildError {
            XCTAssertEqual(error.description, expected, file: file, line: line)
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }

    func testDocumentsThatAreNotDumpsAreRefusedWithWhereAndWhy() {
        assertRefused("[1]", ".: a document of several files (dump --json of more than one): build them one at a time (jq '.[0]') (at line 1, column 1)")
        assertRefused("{\"kind\": \"keyedArchive\",\n \"appState\": {\"a\": [1, {\"$bogus\": 2}]}}",
                      ".appState.a[1][\"$bogus\"]: $bogus is not a tag docs/json.md names (a dictionary whose keys begin with $ is written {\"$dictionary\": [[key, value], …]}) (at line 2, column 35)")
        assertRefused("{\"kind\": \"keyedArchive\", \"appState\": {\"d\": {\"$date\": \"yesterday\"}}}",
                      ".appState.d[\"$date\"]: expected a date as dump writes it, 2014-07-06T16:05:18Z (a fraction of a second after a point) (at line 1, column 54)")
        assertRefused("{\"kind\": \"keyedArchive\", \"appState\": {\"x\": 1,}}", "expected a member's name in double quotes, found '}' (at line 1, column 46)")
        assertRefused("{\"kind\": \"keyedArchive\", \"appState\": {\"x\": 1e999}}", ".appState.x: 1e999 is past the largest real; write {\"$real\": \"inf\"} for infinity (at line 1, column 44)")
        assertRefused("{\"kind\": \"propertyList\", \"appState\": {\"x\": null}}", ".appState.x: a plain property list has no null (at line 1, column 44)")
        assertRefused("{\"kind\": \"keyedArchive\", \"appState\": {\"o\": {\"$class\": \"T\", \"$classes\": [\"T\"], \"$f\": 1}}}",
                      ".appState.o[\"$f\"]: an object's field whose name begins with $ is written with another $ in front ($$f) (at line 1, column 85)")
        assertRefused("{\"kind\": \"macWindowRecords\", \"appState\": {}}",
                      ".kind: building macOS window state (macWindowRecords) is not supported yet: its records are encrypted with keys from windows.plist (at line 1, column 10)")
        assertRefused("{\"kind\": \"keyedArchive\", \"appState\": {\"d\": {\"$data\": \"AAEC\", \"length\": 4}}}",
                      ".appState.d.length: length is not the 3 bytes the base64 holds (at line 1, column 72)")
    }

    func testRepeatedKeysAreWrittenAndSaid() throws {
        let built = try Self.build("{\"kind\": \"keyedArchive\", \"appState\": {\"d\": {\"k\": 1, \"k\": 2}}}")
        XCTAssertEqual(built.warnings, [".appState.d.k: the key \"k\" is repeated; every one is written"])
        XCTAssertEqual(try KeyedArchiveDecoder().decode(built.bytes).top["d"]?.dictionaryValue?.count, 2)
    }

    func testLimitsBoundTheDocument() {
        let deep = "{\"kind\": \"keyedArchive\", \"appState\": {\"a\": " + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}}"
        XCTAssertThrowsError(try Self.build(deep, limits: DecodingLimits(maxDepth: 40))) { error in
            XCTAssertTrue("\(error)".contains("JSON nests deeper than 88 levels (--max-depth)"), "\(error)")
        }
        XCTAssertThrowsError(try Self.build(deep, limits: DecodingLimits(maxNodes: 50))) { error in
            XCTAssertTrue("\(error)".contains("more than 50 JSON values"), "\(error)")
        }
    }

    /// The deepest document the command line allows builds on a secondary thread's stack.
    func testDeepDocumentsBuildOnASmallStack() throws {
        let levels = 4_000
        let deep = "{\"kind\": \"keyedArchive\", \"appState\": {\"a\": " + String(repeating: "{\"$set\": [", count: levels) + String(repeating: "]}", count: levels) + "}}"
        let bytes = try onSmallStack(stackSize: 512 << 10) { try Self.build(deep, limits: DecodingLimits(maxDepth: 4096)).bytes }
        XCTAssertGreaterThan(bytes.count, levels * 10)
    }
}
