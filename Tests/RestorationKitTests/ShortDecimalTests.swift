import XCTest
@testable import RestorationKit

/// Reals and date fractions read without a string: the same doubles `Double(String)` reads, and
/// the dates read the same as through the decimal text they are checked against otherwise.
final class ShortDecimalTests: XCTestCase {
    func testShortDecimalsReadAsDoubleReadsThem() {
        var generator = SystemRandomNumberGenerator()
        var texts = ["0", "-0", "0.0", "-0.0", "1", "0.1", "0.2", "0.3", "123456789012345", "-999999999999999", "0.000000000000000000001",
                     "9007199254740993", "4.35", "1.7976931348623157", "2.2250738585072014", "100000000000000.5"]
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...17, using: &generator)
            var text = (0..<digits).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            if Bool.random(using: &generator) { text.insert(".", at: text.index(text.startIndex, offsetBy: Int.random(in: 1...digits, using: &generator))) }
            if text.hasSuffix(".") { text += "5" }
            if Bool.random(using: &generator) { text = "-" + text }
            texts.append(text)
        }
        var read = 0
        for text in texts {
            let fast = Array(text.utf8).withUnsafeBytes(ShortDecimal.double)
            guard let fast else { continue }
            read += 1
            XCTAssertEqual(fast.bitPattern, Double(text)!.bitPattern, text)
        }
        // Most of them are short enough; the rest are left to `Double(String)`.
        XCTAssertGreaterThan(read, texts.count / 2)
    }

    func testLongerOrOtherNumbersAreLeftToTheStandardLibrary() {
        for text in ["1234567890123456", "0.1234567890123456", "1e5", "1E-3", "2.5e10", "", "-", ".", "1.2.3", "0.00000000000000000000001", "inf", "nan", "12a"] {
            XCTAssertNil(Array(text.utf8).withUnsafeBytes(ShortDecimal.double), text)
        }
    }

    /// A date with a fraction read by integers and one division: the double nearest the written
    /// instant, which is shown again as written.
    func testDatesWithFractionsReadAsTheirDecimal() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            // Fifteen digits at most, whole seconds and fraction together: a date of this century
            // to the hundred-thousandth, or one of 2001 to the picosecond.
            let early = Bool.random(using: &generator)
            let seconds = Double(Int.random(in: 0...(early ? 999 : 3_000_000_000), using: &generator))
            let digits = Int.random(in: 1...(early ? 12 : 5), using: &generator)
            var fraction = (0..<digits).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            while fraction.hasSuffix("0") { fraction.removeLast() }
            guard !fraction.isEmpty else { continue }
            let whole = try XCTUnwrap(ReferenceDate.iso8601(seconds))
            let text = whole.dropLast() + "." + fraction + "Z"
            guard case .seconds(let read) = ReferenceDate.referenceSeconds(iso8601: Array(text.utf8)) else {
                XCTFail("\(text) was not read")
                continue
            }
            XCTAssertEqual(read.bitPattern, try XCTUnwrap(Double("\(Int64(seconds)).\(fraction)")).bitPattern, String(text))
            XCTAssertEqual(ReferenceDate.iso8601(read), String(text))
        }
    }

    func testDatesFinerThanADoubleAreStillRefused() {
        guard case .finerThanADate = ReferenceDate.referenceSeconds(iso8601: Array("2024-06-03T09:41:00.1234567890123Z".utf8)) else {
            return XCTFail("a fraction of 13 digits on a date of 2024 is finer than a double of seconds holds")
        }
        guard case .seconds(let seconds) = ReferenceDate.referenceSeconds(iso8601: Array("2001-01-01T00:00:00.25Z".utf8)) else {
            return XCTFail("a quarter second after the reference date")
        }
        XCTAssertEqual(seconds, 0.25)
    }
}
