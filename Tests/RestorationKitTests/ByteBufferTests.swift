import XCTest
@testable import RestorationKit

/// The output buffer's shortcuts (short pieces copied as words, indentation written eight spaces
/// at a time past the count) give the bytes a plain copy gives.
final class ByteBufferTests: XCTestCase {
    func testPiecesOfEveryShortLengthAndEveryIndentation() {
        let buffer = ByteBuffer(capacity: 16)
        var expected: [UInt8] = []
        let source = (0..<64).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        for length in 0...40 {
            source.withUnsafeBytes { buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[(length % 7)..<(length % 7 + length)])) }
            expected += source[(length % 7)..<(length % 7 + length)]
            buffer.appendNewline(indentedBy: length * 3 % 67)
            expected += [UInt8(ascii: "\n")] + [UInt8](repeating: UInt8(ascii: " "), count: length * 3 % 67)
            XCTAssertEqual(Array(buffer.bytes), expected, "length \(length)")
        }
    }
}
