import Foundation
import XCTest
@testable import RestorationKit

/// The streaming JSON writer: text handed out in pieces must join into the same document a
/// single piece gives, and nested archive values are expanded in place.
final class JSONOutputTests: XCTestCase {
    private struct Document: JSONRepresentable {
        let value: ArchiveValue

        var jsonNode: JSONNode {
            .members(["value": value])
        }
    }

    func testLargeOutputArrivesInPiecesAndJoinsIntoOneDocument() throws {
        let count = 60_000
        let value = ArchiveValue.array((0..<count).map { index in
            .dictionary(ArchiveDictionary(entries: [
                .init(key: .string("n"), value: .integer(Int128(index))), .init(key: .string("s"), value: .string("item \(index)")),
            ]))
        })
        var pieces: [Int] = []
        var bytes: [UInt8] = []
        try JSONOutput.write([Document(value: value)], asArray: false) { piece in
            pieces.append(piece.bytes.count)
            bytes.append(contentsOf: piece.bytes)
        }
        XCTAssertGreaterThan(pieces.count, 2, "more than \(JSONTextWriter.chunkSize) bytes come in several pieces")
        XCTAssertTrue(pieces.dropLast().allSatisfy { $0 >= JSONTextWriter.chunkSize && $0 < JSONTextWriter.chunkSize + 4096 })
        XCTAssertEqual(bytes.last, UInt8(ascii: "\n"))
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), JSONOutput.text([Document(value: value)], asArray: false))
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let elements = try XCTUnwrap(parsed["value"] as? [[String: Any]])
        XCTAssertEqual(elements.count, count)
        XCTAssertEqual(elements.last?["n"] as? Int, count - 1)
        XCTAssertEqual(elements.last?["s"] as? String, "item \(count - 1)")
    }

    func testNestedContainersAreWrittenWithSortedKeys() throws {
        let inner = ArchiveValue.dictionary(ArchiveDictionary(entries: [
            .init(key: .string("b"), value: .boolean(true)), .init(key: .string("a"), value: .array([.null, .real(1.5)])),
        ]))
        let text = JSONOutput.text([Document(value: .array([inner, .set([.string("x")])]))], asArray: false)
        XCTAssertEqual(text, """
            {
              "value": [
                {
                  "a": [
                    null,
                    1.5
                  ],
                  "b": true
                },
                {
                  "$set": [
                    "x"
                  ]
                }
              ]
            }

            """)
    }

    /// A large array of deferred archive content is rendered on several threads a batch at a
    /// time; the text must be exactly the one-thread text, across batch boundaries too.
    func testConcurrentlyWrittenArrayIsTheSequentialText() throws {
        let state = try XCTUnwrap(FixtureFiles.archive("values.data").objects.first?.state)
        let elements: [JSONNode] = (0..<1_100).map { index in
            index.isMultiple(of: 3)
                ? ArchiveValue.archive(KeyedArchive(top: state)).jsonNode
                : ArchiveValue.array([.integer(Int128(index)), .string("element \(index)"), .real(Double(index) / 7)]).jsonNode
        }
        let node = JSONNode.object([("objects", .array(elements)), ("count", .number("1100"))])
        func text(allowsConcurrency: Bool) -> String {
            var bytes: [UInt8] = []
            JSONTextWriter.write(node, allowsConcurrency: allowsConcurrency) { bytes.append(contentsOf: $0.bytes) }
            return String(decoding: bytes, as: UTF8.self)
        }
        let sequential = text(allowsConcurrency: false)
        XCTAssertTrue(sequential.contains("element 1099"))
        XCTAssertEqual(text(allowsConcurrency: true), sequential)
    }

    /// Strings are checked for bytes that need an escape eight at a time: every special byte
    /// must be found wherever it falls in a word, next to any other byte.
    func testEveryByteThatNeedsAnEscapeIsEscapedAtEveryPosition() throws {
        let specials: [UInt8] = Array(0x00..<0x20) + [0x22, 0x5C, 0x7F]
        let neighbours: [UInt8] = [0x20, 0x21, 0x23, 0x41, 0x5B, 0x5D, 0x7E, 0xC3, 0xA9]
        for special in specials {
            for length in 1...19 {
                for position in 0..<length {
                    let filler = neighbours[(length + position) % neighbours.count]
                    var bytes = [UInt8](repeating: filler == 0xC3 ? 0x41 : filler, count: length)
                    bytes[position] = special
                    let string = String(decoding: bytes, as: UTF8.self)
                    let text = JSONOutput.text([Document(value: .string(string))], asArray: false)
                    let decoded = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]
                    XCTAssertEqual(decoded?["value"], string, "byte \(special) at \(position) of \(length)")
                    if special != 0x22, special != 0x5C {
                        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("\"value\"") })
                        XCTAssertFalse(line.utf8.contains(special), "byte \(special) written raw")
                    }
                }
            }
        }
        XCTAssertTrue(JSONOutput.text([Document(value: .string("ab\u{7F}cdefghij"))], asArray: false).contains("ab\\u007fcdefghij"))
        XCTAssertTrue(JSONOutput.text([Document(value: .string("Zürich, 12345678 \"q\""))], asArray: false).contains("Zürich, 12345678 \\\"q\\\""))
    }

    /// The streaming road writes reals from the digits the standard library streams; they must
    /// be `description`'s, which the decoded road writes.
    func testRealsStreamedAsTheirDescription() {
        let values: [Double] = [
            0, -0.0, 1, -1, 0.1, 0.5, 1.5, 3.0e-5, 0.9822634494244304, .pi, 1e16, 1e17, 123456789.123,
            -2.5e-308, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, 1.0 / 3.0, 100, 1e-7,
        ]
        for value in values {
            let buffer = ByteBuffer()
            var stream = ByteBufferStream(buffer: buffer)
            value.write(to: &stream)
            XCTAssertEqual(String(decoding: buffer.bytes, as: UTF8.self), value.description)
        }
    }
}
