import XCTest
@testable import RestorationKit

final class RawPathTests: XCTestCase {
    /// Every byte string has one name, which gives the same bytes back.
    func testEveryByteStringComesBackUnchanged() {
        var generator = SystemRandomNumberGenerator()
        let samples: [[UInt8]] = [
            Array("TabController/data.data".utf8), Array("Zürich ☕".utf8), [0x63, 0x61, 0x66, 0xE9], [0xFF, 0xFE, 0x00 + 0x41],
            [0xC3], [0xE2, 0x82], [0xF4, 0x8F, 0xBF, 0xBF], [0xED, 0xA0, 0x80], [0xC0, 0xAF],
        ] + (0..<2000).map { _ in (0..<Int.random(in: 0...12, using: &generator)).map { _ in UInt8.random(in: 1...255, using: &generator) } }
        for bytes in samples {
            let name = RawPath.string(bytes)
            XCTAssertEqual(RawPath.bytes(name), bytes, "\(bytes)")
            RawPath.withCString(name) { pointer in
                XCTAssertEqual(Array(UnsafeBufferPointer(start: pointer, count: bytes.count)).map { UInt8(bitPattern: $0) }, bytes)
                XCTAssertEqual(pointer[bytes.count], 0)
            }
        }
        XCTAssertEqual(RawPath.string(Array("plain".utf8)), "plain")
    }

    func testDisplayShowsBytesThatAreNotUTF8() {
        XCTAssertEqual(RawPath.display(RawPath.string([0x63, 0x61, 0x66, 0xE9, 0x0A])), "caf\\xe9\\n")
        // A real U+10FFFF is kept as its four bytes, each shown.
        XCTAssertEqual(RawPath.display(RawPath.string([0xF4, 0x8F, 0xBF, 0xBF])), "\\xf4\\x8f\\xbf\\xbf")
        XCTAssertEqual(RawPath.display("a/b"), "a/b")
    }

    /// Only a path holding a scalar that stands for a byte is spelled out scalar by scalar;
    /// any other goes to the kernel as its UTF-8, whatever else it holds.
    func testOnlyMappedScalarsChangeThePathsBytes() {
        let notUTF8 = RawPath.string([0x61, 0xFF, 0x2F, 0x62])
        XCTAssertTrue(RawPath.holdsMapped(notUTF8))
        XCTAssertEqual(RawPath.bytes(notUTF8), [0x61, 0xFF, 0x2F, 0x62])
        // U+10FEFF and U+100000 share the lead byte F4 with the mapped scalars but are not mapped.
        for text in ["plain/path", "caf\u{E9}/\u{10FEFF}", "\u{100000}", ""] {
            XCTAssertFalse(RawPath.holdsMapped(text), text)
            XCTAssertEqual(RawPath.bytes(text), Array(text.utf8), text)
        }
    }

    /// Paths split at every "/" byte, as the kernel splits them: also where a combining mark
    /// follows the "/" (one character to Swift's `split`).
    func testPathComponentsAreSplitOnBytes() {
        XCTAssertEqual(PathText.components("/a//b/"), ["a", "b"])
        XCTAssertEqual(PathText.components("/a//b/", omittingEmpty: false), ["", "a", "", "b", ""])
        XCTAssertEqual(PathText.components("dir/\u{301}name"), ["dir", "\u{301}name"])
        XCTAssertEqual("dir/\u{301}name".split(separator: "/").count, 1, "characters do not split there")
        let notUTF8 = RawPath.string([0x61, 0xFF, 0x2F, 0x62])
        XCTAssertEqual(PathText.components(notUTF8).map { RawPath.bytes(String($0)) }, [[0x61, 0xFF], [0x62]])
        XCTAssertEqual(PathText.components(""), [])
    }
}
