import XCTest
@testable import RestorationKit

/// Buffers of megabytes are advised for large pages (`LargePages`): a hint the kernel may take or
/// not, which must never change what they hold.
final class LargePagesTests: XCTestCase {
    func testLargeByteBuffersKeepTheirBytesAcrossResizes() {
        let buffer = ByteBuffer(capacity: 5 << 20)
        let piece = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for _ in 0..<(3 * 1024) { buffer.append(contentsOf: piece) }
        XCTAssertEqual(buffer.count, 12 << 20)
        for offset in stride(from: 0, to: buffer.count, by: 4096) {
            XCTAssertTrue(buffer.bytes[offset..<(offset + 4096)].elementsEqual(piece), "at \(offset)")
        }
    }

    func testAdvisingAnyRangeIsHarmless() {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 5 << 20, alignment: 16)
        defer { memory.deallocate() }
        for (offset, count) in [(0, 0), (1, 3), (4095, 2 << 20), (0, 5 << 20), (3, (5 << 20) - 3)] {
            LargePages.advise(memory + offset, count: count)
        }
        memory.initializeMemory(as: UInt8.self, repeating: 9, count: 5 << 20)
        XCTAssertEqual(memory.load(fromByteOffset: (5 << 20) - 1, as: UInt8.self), 9)
    }
}
