import Foundation
import XCTest
@testable import RestorationKit

/// NSValues holding Foundation's structures (`NS.special`): points, sizes, rects, ranges and
/// edge insets are shown as what they hold, in the text and the JSON; every other NSValue, and
/// one whose fields are not exactly Foundation's, stays the object it is.
final class SpecialValueTests: XCTestCase {
    /// The dump text's line for `root` and the JSON of `root`, read from the file's tape and from
    /// the decoder's values copied to a tape of their own (`RestorationArchive(archive:)`), which
    /// must agree.
    private func shown(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> (text: String, json: String) {
        var results: [(String, String)] = []
        for archive in [try RestorationArchive(bytes: bytes[...]), RestorationArchive(archive: try KeyedArchiveDecoder().decode(bytes[...]))] {
            let text = TextDumpFormatter().format(archive, file: "f")
            let rootLines = text.split(separator: "\n").drop { !$0.hasPrefix("    root") }.prefix { $0.hasPrefix("    ") }
            let document = JSONOutput.text([DumpDocument(file: "f", archive: archive)], asArray: false)
            let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any], file: file, line: line)
            let root = try XCTUnwrap((parsed["appState"] as? [String: Any])?["root"], file: file, line: line)
            let json = String(decoding: try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
            results.append((rootLines.joined(separator: "\n"), json))
        }
        XCTAssertEqual(results[0].0, results[1].0, "the text from the tape and from values", file: file, line: line)
        XCTAssertEqual(results[0].1, results[1].1, "the JSON from the tape and from values", file: file, line: line)
        return results[0]
    }

    /// Written by Apple's Foundation on macOS (swift-corelibs-foundation's test resources; see
    /// `AppleWrittenArchiveTests`).
    func testAppleWrittenValues() throws {
        let folder = AppleWrittenArchiveTests.folder
        guard FileManager.default.fileExists(atPath: folder) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("no Apple-written archives at \(folder): CI must run this test") }
            throw XCTSkip("no Apple-written archives at \(folder) (see Fixtures/README.md)")
        }
        func read(_ name: String) throws -> (text: String, json: String) {
            try shown(try InputFile.read(folder + "/NSKeyedUnarchiver-" + name + ".plist"))
        }
        XCTAssertEqual(try read("RectTest").text, "    root....Rect {{400, 300}, {200, 300}}")
        XCTAssertEqual(try read("RectTest").json, #"{"$rect":"{{400, 300}, {200, 300}}"}"#)
        XCTAssertEqual(try read("RangeTest").text, "    root....Range {97345, 98345}")
        XCTAssertEqual(try read("RangeTest").json, #"{"$range":{"length":98345,"location":97345}}"#)
        XCTAssertEqual(try read("EdgeInsetsTest").text, "    root....Edge Insets {1.0, 2.0, 3.0, 4.0}")
        XCTAssertEqual(try read("EdgeInsetsTest").json, #"{"$edgeInsets":{"bottom":3,"left":2,"right":4,"top":1}}"#)
        // An NSValue of an Objective-C type and its bytes (`[3i]`): an object, every field shown.
        let concrete = try read("ConcreteValueTest")
        XCTAssertTrue(concrete.text.hasPrefix("    root....NSValue : NSObject\n        $0....\"[3i]\""), concrete.text)
        XCTAssertTrue(concrete.json.contains(#""$class":"NSValue""#), concrete.json)
        // The library's values keep the object Foundation archived.
        let rect = try KeyedArchiveDecoder().decode(try InputFile.read(folder + "/NSKeyedUnarchiver-RectTest.plist")).top["root"]
        XCTAssertEqual(rect?.objectValue?.className, "NSValue")
        XCTAssertEqual(rect?.objectValue?.fields["NS.rectval"], .string("{{400, 300}, {200, 300}}"))
        XCTAssertEqual(rect?.objectValue?.fields["NS.special"], .integer(3))
    }

    /// Written by Foundation's `NSKeyedArchiver` (swift-corelibs-foundation on Linux, an encoder
    /// we did not write): each structure reads as the string Foundation itself makes of it.
    func testFoundationWrittenValues() throws {
        let point = NSPoint(x: 1.5, y: -2)
        let size = NSSize(width: 320, height: 480.25)
        let rect = NSRect(x: 0, y: 20, width: 320, height: 460)
        let cases: [(NSValue, String, String)] = [
            (NSValue(point: point), "Point " + NSStringFromPoint(point), #"{"$point":"\#(NSStringFromPoint(point))"}"#),
            (NSValue(size: size), "Size " + NSStringFromSize(size), #"{"$size":"\#(NSStringFromSize(size))"}"#),
            (NSValue(rect: rect), "Rect " + NSStringFromRect(rect), #"{"$rect":"\#(NSStringFromRect(rect))"}"#),
            (NSValue(range: NSRange(location: 3, length: 5)), "Range {3, 5}", #"{"$range":{"length":5,"location":3}}"#),
            (NSValue(edgeInsets: NSEdgeInsets(top: 1, left: 2.5, bottom: 3, right: 4)), "Edge Insets {1.0, 2.5, 3.0, 4.0}",
             #"{"$edgeInsets":{"bottom":3,"left":2.5,"right":4,"top":1}}"#),
        ]
        for (value, text, json) in cases {
            let archiver = NSKeyedArchiver(requiringSecureCoding: false)
            archiver.encode(value, forKey: "root")
            archiver.finishEncoding()
            let shown = try shown([UInt8](archiver.encodedData))
            XCTAssertEqual(shown.text, "    root...." + text)
            XCTAssertEqual(shown.json, json)
        }
    }

    /// Fields that are not exactly Foundation's: the object, all its fields shown.
    func testOtherFieldsStayAnObject() throws {
        for fields in [
            #"{"NS.special": 3, "NS.rectval": "{{0, 0}, {1, 1}}", "extra": 1}"#,
            #"{"NS.special": 3, "NS.rectval": 7}"#,
            #"{"NS.special": 99, "NS.rectval": "{{0, 0}, {1, 1}}"}"#,
            #"{"NS.special": 4, "NS.rangeval.location": 1}"#,
            #"{"NS.special": 4, "NS.rangeval.location": 1, "NS.rangeval.location ": 2}"#,
            #"{"NS.special": 12, "NS.edgeval.top": 1, "NS.edgeval.left": 2.0, "NS.edgeval.bottom": 3.0, "NS.edgeval.right": 4.0}"#,
            #"{"NS.special": 2**64 - 1, "NS.sizeval": "{1, 1}"}"#,
        ] {
            let bytes = try FixtureFiles.generated(#"g.keyed_archive_bytes({"root": g.Obj("NSValue", fields=\#(fields))})"#)
            let shown = try shown(bytes)
            XCTAssertTrue(shown.text.hasPrefix("    root....NSValue : NSObject\n"), fields + "\n" + shown.text)
            XCTAssertTrue(shown.json.contains(#""$class":"NSValue""#), fields + "\n" + shown.json)
        }
    }

    /// A restoration archive of one object whose state holds `keys` (Python keyword arguments).
    private func savedState(_ keys: String) throws -> RestorationArchive {
        let bytes = try FixtureFiles.generated("""
            g.binary(g.restoration_archive([("Root", g.view_controller_state(\(keys)))],
                system_version="17.5", timestamp=g.NSDate(1.5), idiom=1))
            """)
        return try RestorationArchive(bytes: bytes[...])
    }

    private func rect(_ string: String) -> String {
        #"g.Obj("NSValue", fields={"NS.special": 3, "NS.rectval": "\#(string)"})"#
    }

    /// Inside a saved object's state, where an app would encode one. `diff` writes a value added
    /// or removed as `dump` does, and a changed one by the field that changed.
    func testInsideAState() throws {
        let archive = try savedState("visibleRect=" + rect("{{0, 64}, {375, 603}}"))
        XCTAssertTrue(TextDumpFormatter().format(archive, file: "f").contains("....Rect {{0, 64}, {375, 603}}\n"))
        XCTAssertTrue(JSONOutput.text([DumpDocument(file: "f", archive: archive)], asArray: false).contains(#""visibleRect": {\#n          "$rect": "{{0, 64}, {375, 603}}"\#n"#))
        XCTAssertEqual(ArchiveValidator().validate(archive), [])
        let other = try savedState("visibleRect=" + rect("{{0, 0}, {375, 667}}") + ", frames=[" + rect("{{1, 2}, {3, 4}}") + "]")
        XCTAssertEqual(DiffTextFormatter().format(ArchiveDiffer().diff(archive, other), a: "a", b: "b"), """
            --- a
            +++ b
            Root
            ~ state.visibleRect."NS.rectval": "{{0, 64}, {375, 603}}" → "{{0, 0}, {375, 667}}"
            + state.frames: [Rect {{1, 2}, {3, 4}}]

            """)
    }
}
