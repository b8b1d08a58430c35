import XCTest
@testable import RestorationKit

final class ReferenceDateTests: XCTestCase {
    func testKnownDates() {
        // Reference values computed with Python's datetime.
        XCTAssertEqual(ReferenceDate.iso8601(0), "2001-01-01T00:00:00Z")
        XCTAssertEqual(ReferenceDate.iso8601(426_355_518), "2014-07-06T16:05:18Z")
        XCTAssertEqual(ReferenceDate.iso8601(-978_307_200), "1970-01-01T00:00:00Z")
        XCTAssertEqual(ReferenceDate.iso8601(-26_481_600), "2000-02-29T12:00:00Z")
        XCTAssertEqual(ReferenceDate.iso8601(-63_113_904_000), "0001-01-01T00:00:00Z")
        XCTAssertEqual(ReferenceDate.iso8601(252_423_993_599), "9999-12-31T23:59:59Z")
    }

    func testFractionsAreExactAndOnlyWhenPresent() {
        XCTAssertEqual(ReferenceDate.iso8601(428_947_518.123456), "2014-08-05T16:05:18.123456Z")
        XCTAssertEqual(ReferenceDate.iso8601(0.5), "2001-01-01T00:00:00.5Z")
        XCTAssertEqual(ReferenceDate.iso8601(0.00001), "2001-01-01T00:00:00.00001Z")
        XCTAssertEqual(ReferenceDate.iso8601(-0.25), "2000-12-31T23:59:59.75Z")
        XCTAssertEqual(ReferenceDate.iso8601(-86_400.5), "2000-12-30T23:59:59.5Z")
        XCTAssertEqual(ReferenceDate.iso8601(-1e-5), "2000-12-31T23:59:59.99999Z")
    }

    func testUnrepresentableDates() {
        XCTAssertNil(ReferenceDate.iso8601(.nan))
        XCTAssertNil(ReferenceDate.iso8601(.infinity))
        XCTAssertNil(ReferenceDate.iso8601(1e300))
        XCTAssertNil(ReferenceDate.iso8601(-63_113_904_001))
        XCTAssertNil(ReferenceDate.iso8601(252_423_993_600))
    }
}

final class FormattingTests: XCTestCase {
    func testEscapingKeepsOutputOnOneSafeLine() {
        XCTAssertEqual(TextEscaping.escape("plain Zürich ☕"), "plain Zürich ☕")
        XCTAssertEqual(TextEscaping.escape("a\nb\tc"), "a\\nb\\tc")
        XCTAssertEqual(TextEscaping.escape("\u{1B}[31mred"), "\\u{1b}[31mred")
        XCTAssertEqual(TextEscaping.escape("x\u{202E}y\u{0}"), "x\\u{202e}y\\u{0}")
        XCTAssertEqual(TextEscaping.escape("back\\slash"), "back\\\\slash")
    }

    func testBase64() {
        XCTAssertEqual(ByteFormatting.base64([UInt8]()), "")
        XCTAssertEqual(ByteFormatting.base64(Array("f".utf8)), "Zg==")
        XCTAssertEqual(ByteFormatting.base64(Array("fo".utf8)), "Zm8=")
        XCTAssertEqual(ByteFormatting.base64(Array("foobar".utf8)), "Zm9vYmFy")
        XCTAssertEqual(ByteFormatting.base64([0xDE, 0xAD, 0xBE, 0xEF]), "3q2+7w==")
    }

    func testHexPreview() {
        XCTAssertEqual(ByteFormatting.hexPreview([0x00, 0xAB], limit: 4), "00 ab")
        XCTAssertEqual(ByteFormatting.hexPreview(Array(0..<6), limit: 4), "00 01 02 03 …")
    }

    func testDemangling() {
        XCTAssertEqual(SwiftDemangler.demangle("_TtC20StateRestorationDemo18CityViewController"), "StateRestorationDemo.CityViewController")
        XCTAssertEqual(SwiftDemangler.demangle("_TtCC3App5Outer5Inner"), "App.Outer.Inner")
        XCTAssertEqual(SwiftDemangler.demangle("_TtCV3App5Outer5Inner"), "App.Outer.Inner")
        XCTAssertEqual(SwiftDemangler.demangle("$s20StateRestorationDemo18CityViewControllerC"), "StateRestorationDemo.CityViewController")
        XCTAssertNil(SwiftDemangler.demangle("UINavigationController"))
        XCTAssertNil(SwiftDemangler.demangle("_TtC20Short"))
        XCTAssertNil(SwiftDemangler.demangle("_TtC3App5Outer5Extra"))
        XCTAssertNil(SwiftDemangler.demangle("_TtC" + String(repeating: "9", count: 2000)))
    }
}
