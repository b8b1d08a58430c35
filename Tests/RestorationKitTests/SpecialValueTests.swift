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
        XCTAssertEqual(try read("RectTest").json, #"{"$rect":{"height":300,"width":200,"x":400,"y":300}}"#)
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
        // The numbers, with the string when it is not Apple's spelling of them: this Foundation
        // writes `{1.5, -2.0}`, Apple's "{1.5, -2}".
        func geometry(_ tag: String, _ string: String, _ numbers: [String: Double]) -> String {
            var members: [String: Any] = numbers
            if !GeometryText(string).isCanonical { members["text"] = string }
            let data = try! JSONSerialization.data(withJSONObject: [tag: members], options: [.sortedKeys])
            return String(decoding: data, as: UTF8.self)
        }
        let cases: [(NSValue, String, String)] = [
            (NSValue(point: point), "Point " + NSStringFromPoint(point), geometry("$point", NSStringFromPoint(point), ["x": 1.5, "y": -2])),
            (NSValue(size: size), "Size " + NSStringFromSize(size), geometry("$size", NSStringFromSize(size), ["width": 320, "height": 480.25])),
            (NSValue(rect: rect), "Rect " + NSStringFromRect(rect), geometry("$rect", NSStringFromRect(rect), ["x": 0, "y": 20, "width": 320, "height": 460])),
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
        XCTAssertTrue(JSONOutput.text([DumpDocument(file: "f", archive: archive)], asArray: false).contains(#""visibleRect": {\#n          "$rect": {\#n            "height": 603.0,\#n            "width": 375.0,\#n            "x": 0.0,\#n            "y": 64.0\#n          }\#n"#))
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

    /// Apple's Foundation writes a transform (10), UIKit's edge insets (11), an offset (13) and
    /// directional edge insets (14) as reals (`-[NSConcreteValue encodeWithCoder:]`): each is
    /// numbers in the JSON and a `structure` to the library.
    func testTransformInsetsAndOffset() throws {
        func value(_ code: Int, _ fields: String) throws -> (shown: (text: String, json: String), value: ArchiveValue) {
            let bytes = try FixtureFiles.generated(#"g.keyed_archive_bytes({"root": g.Obj("NSValue", fields=dict({"NS.special": \#(code)}, **\#(fields)))})"#)
            return (try shown(bytes), try XCTUnwrap(try KeyedArchiveDecoder().decode(bytes[...]).top["root"]))
        }
        let transform = try value(10, #"{"NS.atval.a": 0.5, "NS.atval.b": 0.0, "NS.atval.c": -1.0, "NS.atval.d": 2.0, "NS.atval.tx": 10.0, "NS.atval.ty": -20.25}"#)
        XCTAssertEqual(transform.shown.text, "    root....Affine Transform {{0.5, 0.0, -1.0, 2.0}, {10.0, -20.25}}")
        XCTAssertEqual(transform.shown.json, #"{"$transform":{"m11":0.5,"m12":0,"m21":-1,"m22":2,"tX":10,"tY":-20.25}}"#)
        XCTAssertEqual(transform.value.structureValue, .affineTransform(m11: 0.5, m12: 0, m21: -1, m22: 2, tX: 10, tY: -20.25))
        XCTAssertEqual(transform.value.objectValue?.className, "NSValue")
        let insets = try value(11, #"{"NS.edgeval.top": 47.0, "NS.edgeval.left": 0.0, "NS.edgeval.bottom": 34.0, "NS.edgeval.right": 0.5}"#)
        XCTAssertEqual(insets.shown.text, "    root....UI Edge Insets {47.0, 0.0, 34.0, 0.5}")
        XCTAssertEqual(insets.shown.json, #"{"$uiEdgeInsets":{"bottom":34,"left":0,"right":0.5,"top":47}}"#)
        XCTAssertEqual(insets.value.structureValue, .edgeInsets(top: 47, left: 0, bottom: 34, right: 0.5, uiKit: true))
        let offset = try value(13, #"{"NS.offset.h": 1.5, "NS.offset.v": -3.0}"#)
        XCTAssertEqual(offset.shown.text, "    root....Offset {1.5, -3.0}")
        XCTAssertEqual(offset.shown.json, #"{"$offset":{"horizontal":1.5,"vertical":-3}}"#)
        let margins = try value(14, #"{"NS.dirEdgeVal.top": 8.0, "NS.dirEdgeVal.leading": 16.0, "NS.dirEdgeVal.bottom": 4.0, "NS.dirEdgeVal.trailing": 2.0}"#)
        XCTAssertEqual(margins.shown.text, "    root....Directional Edge Insets {8.0, 16.0, 4.0, 2.0}")
        XCTAssertEqual(margins.shown.json, #"{"$directionalEdgeInsets":{"bottom":4,"leading":16,"top":8,"trailing":2}}"#)
        XCTAssertEqual(margins.value.structureValue, .directionalEdgeInsets(top: 8, leading: 16, bottom: 4, trailing: 2))
        // An integer where Foundation writes a real: the object, every field shown.
        let integer = try value(13, #"{"NS.offset.h": 1, "NS.offset.v": -3.0}"#)
        XCTAssertTrue(integer.shown.text.hasPrefix("    root....NSValue : NSObject\n"), integer.shown.text)
        XCTAssertNil(integer.value.structureValue)
        guard case .object = integer.value.content else { return XCTFail("\(integer.value.content)") }
    }

    /// A point's, size's or rect's numbers are those its string spells in Foundation's form; the
    /// string is kept beside them when it is not Apple's spelling, and alone when it spells none.
    func testGeometryText() throws {
        XCTAssertEqual(GeometryText("{{400, 300}, {200, 300}}").numbers, [400, 300, 200, 300])
        XCTAssertTrue(GeometryText("{{400, 300}, {200, 300}}").isCanonical)
        XCTAssertEqual(GeometryText("{0.10000000000000001, -2.5e+20}").numbers, [0.1, -2.5e20])
        XCTAssertTrue(GeometryText("{0.10000000000000001, -2.5e+20}").isCanonical)
        XCTAssertEqual(GeometryText.text(of: [0.1, -0.0, 1e-7, 123456789012345678]), "{{0.10000000000000001, -0}, {9.9999999999999995e-08, 1.2345678901234568e+17}}")
        XCTAssertEqual(GeometryText("{1.5, -2.0}").numbers, [1.5, -2])
        XCTAssertFalse(GeometryText("{1.5, -2.0}").isCanonical)
        XCTAssertEqual(GeometryText("{0.1, 2}").numbers, [0.1, 2])
        XCTAssertFalse(GeometryText("{0.1, 2}").isCanonical)
        for text in ["", "{}", "{1}", "{1, 2, 3}", "{1,2}", "{ 1, 2}", "{1, 2} ", "{{1, 2}, {3}}", "{{1, 2}, {3, 4}", "{nan, 1}", "{inf, 1}",
                     "{1e999, 1}", "{0x10, 1}", "{+1, 2}", "{.5, 1}", "{1., 2}", "{1e, 2}", "{1, 2}{3, 4}", "{{1, 2}, {3, 4}, {5, 6}}", "{١, 2}"] {
            XCTAssertNil(GeometryText(text).numbers, text)
            XCTAssertFalse(GeometryText(text).isCanonical, text)
        }
        // In the JSON: numbers, the string beside them, or the string alone.
        let archive = try savedState("a=" + rect("{{0, 64}, {375, 603.5}}") + ", b=" + rect("{{0.0, 64.0}, {375.0, 603.5}}") + ", c=" + rect("{{1, 2}, {3}}"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(JSONOutput.text([DumpDocument(file: "f", archive: archive)], asArray: false).utf8)) as? [String: Any])
        let state = try XCTUnwrap(((json["objects"] as? [[String: Any]])?.first?["state"]) as? [String: Any])
        XCTAssertEqual(state["a"] as? NSDictionary, ["$rect": ["x": 0, "y": 64, "width": 375, "height": 603.5]])
        XCTAssertEqual(state["b"] as? NSDictionary, ["$rect": ["x": 0, "y": 64, "width": 375, "height": 603.5, "text": "{{0.0, 64.0}, {375.0, 603.5}}"]])
        XCTAssertEqual(state["c"] as? NSDictionary, ["$rect": "{{1, 2}, {3}}"])
        // The text dump keeps the string as archived.
        XCTAssertTrue(TextDumpFormatter().format(archive, file: "f").contains("....Rect {{0.0, 64.0}, {375.0, 603.5}}\n"))
    }
}
