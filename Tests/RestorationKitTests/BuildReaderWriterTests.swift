import Foundation
import XCTest
@testable import RestorationKit

/// The two ends of `build` taken alone: its JSON reader, which skips through strings and
/// indentation eight bytes at a time, read against Foundation's; its property-list writer, which
/// writes each string once per file and serves one nested archive after another.
final class BuildReaderWriterTests: XCTestCase {
    private static func input(_ json: String) throws -> JSONInput {
        try JSONInput(Array(json.utf8), maxDepth: 8, maxValues: 100)
    }

    /// Every escape and some multi-byte characters, at each offset around the words the reader
    /// skips by, as a string and as a key: the bytes Foundation's `JSONSerialization` reads.
    func testStringsReadAsFoundationReadsThem() throws {
        let pieces = [#"\""#, #"\\"#, #"\/"#, #"\n"#, #"\t"#, #"\b"#, #"\u00e9"#, #"\ud83d\ude00"#, "é", "😀", "日本", "a", "$"]
        for piece in pieces {
            for offset in 0..<18 {
                let text = String(repeating: "x", count: offset) + piece + String(repeating: "y", count: 17 - offset % 9)
                let json = "[\"" + text + "\", {\"" + text + "\": 1}]"
                let foundation = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any])
                let expected = Array(try XCTUnwrap(foundation[0] as? String).utf8)
                let input = try Self.input(json)
                let elements = input.members(of: input.root)
                XCTAssertEqual(input.withText(of: elements.first!.value) { Array($0) }, expected, json)
                let key = input.members(of: elements.last!.value).first!.key
                XCTAssertEqual(input.withText(key) { Array($0) }, expected, json)
            }
        }
    }

    /// What the words skipped over cannot hide: a control character, the end of the text, where
    /// indentation ends.
    func testWhatTheWordsSkipOverIsStillSeen() {
        for offset in 0..<20 {
            let control = "\"" + String(repeating: "x", count: offset) + "\u{01}yyyyyyyyy\""
            XCTAssertThrowsError(try Self.input(control)) { error in
                XCTAssertEqual("\(error)", "a control character (byte 0x1) inside a string must be escaped (at line 1, column \(offset + 2))")
            }
            let open = "\"" + String(repeating: "x", count: offset)
            XCTAssertThrowsError(try Self.input(open)) { error in
                XCTAssertEqual("\(error)", "a string is not closed (at line 1, column 1)")
            }
            let indented = "[\n" + String(repeating: " ", count: offset) + "x]"
            XCTAssertThrowsError(try Self.input(indented)) { error in
                XCTAssertEqual("\(error)", "expected a value, found 'x' (at line 2, column \(offset + 1))")
            }
            let spaced = "[" + String(repeating: " ", count: offset) + "true" + String(repeating: " ", count: offset) + "]"
            XCTAssertEqual(try Self.input(spaced).members(of: 0).count, 1, spaced)
        }
        XCTAssertThrowsError(try Self.input("[tru]")) { error in
            XCTAssertEqual("\(error)", "expected a value, found 't' (at line 1, column 2)")
        }
    }

    /// Each distinct string is written once in a file, ASCII or not, whichever file of a
    /// sequence the writer is on: after one that grew its table large, and after small ones.
    func testEachStringIsWrittenOncePerFile() throws {
        var writer = BinaryPropertyListWriter()
        for distinct in [3_000, 3, 0, 5] {
            if writer.count > 0 { writer.reset() }
            let repeated = ["café", "plain", "café", "plain", "s0", "😀", "😀", ""]
            let texts = (0..<distinct).map { "s\($0)" } + repeated
            let root = writer.array(texts.map { writer.string($0) })
            let tree = try PlistTree.read(writer.bytes(top: root)[...])
            XCTAssertEqual(tree.arrayValue?.compactMap(\.stringValue), texts)
            // One object for each distinct string, and the array.
            XCTAssertEqual(writer.count, Set(texts).count + 1, "\(distinct)")
        }
    }

    /// The names the writer gives itself are the document's strings of the same bytes, whichever
    /// comes first in a file: one object each, found again in the next file.
    func testNamesAndTheDocumentsStringsAreOneString() throws {
        var writer = BinaryPropertyListWriter()
        for namesFirst in [true, false, true] {
            if writer.count > 0 { writer.reset() }
            var references: [Int] = []
            for name in WriterName.allCases {
                let text = name.text.description
                if namesFirst {
                    references += [writer.string(name: name), writer.string(text), writer.string(name: name)]
                } else {
                    references += [writer.string(text), writer.string(name: name), writer.string(text)]
                }
                XCTAssertEqual(Set(references.suffix(3)).count, 1, "\(name)")
            }
            XCTAssertEqual(writer.count, WriterName.allCases.count)
            let root = writer.array(references)
            let tree = try PlistTree.read(writer.bytes(top: root)[...])
            XCTAssertEqual(tree.arrayValue?.compactMap(\.stringValue), WriterName.allCases.flatMap { Array(repeating: $0.text.description, count: 3) })
        }
    }
}
