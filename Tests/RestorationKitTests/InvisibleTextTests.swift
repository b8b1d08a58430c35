import XCTest
@testable import RestorationKit

/// Issue 34's rows 5 and 8: two different strings never print the same, and a cut counts bytes.
final class InvisibleTextTests: XCTestCase {
    func testEveryInvisibleOrUnknownCharacterIsEscaped() {
        let invisible: [Unicode.Scalar] = ["\u{206A}", "\u{206F}", "\u{FE00}", "\u{FE0F}", "\u{E0100}", "\u{0600}", "\u{17B4}", "\u{180B}",
                                           "\u{FFF0}", "\u{00AD}", "\u{200B}", "\u{2066}", "\u{061C}", "\u{E0001}"]
        var printed = Set<String>()
        for scalar in invisible {
            let text = TextEscaping.escape("Settings" + String(scalar))
            XCTAssertEqual(text, "Settings\\u{\(String(scalar.value, radix: 16))}", "U+\(String(scalar.value, radix: 16, uppercase: true))")
            printed.insert(text)
        }
        XCTAssertEqual(printed.count, invisible.count, "each prints differently")
        // Visible text stays as it is.
        for text in ["café", "日本語", "Ελληνικά", "e\u{301}", "🙂", "עברית"] {
            XCTAssertEqual(TextEscaping.escape(text), text)
        }
    }

    /// The bound the limits count text by holds for every escaped character.
    func testWrittenSizeBoundsTheEscapedText() {
        for scalar in ["\u{0600}", "\u{00AD}", "\u{FE0F}", "\u{E0100}", "\u{1B}", "\u{10FFFF}"] as [Unicode.Scalar] {
            let text = String(repeating: String(scalar), count: 3)
            XCTAssertGreaterThanOrEqual(TextEscaping.writtenSize(text), TextEscaping.escape(text).utf8.count, "U+\(String(scalar.value, radix: 16))")
        }
    }

    func testACutCountsBytesAsWellAsCharacters() {
        let oneCharacter = "a" + String(repeating: "\u{301}", count: 20_000)
        XCTAssertEqual(oneCharacter.count, 1)
        let cut = oneCharacter.shortened(to: 200)
        XCTAssertLessThanOrEqual(cut.utf8.count, 800)
        XCTAssertTrue(cut.hasSuffix("…"))
        XCTAssertEqual("short".shortened(to: 200), "short")
        XCTAssertEqual(String(repeating: "x", count: 300).shortened(to: 200).count, 200)
    }
}
