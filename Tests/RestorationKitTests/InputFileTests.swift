import Foundation
import XCTest
@testable import RestorationKit

/// Large regular files are read by two threads, half each; the bytes must be the file's.
final class InputFileTests: XCTestCase {
    func testLargeAndSmallFilesReadWhole() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("input-file-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Around the parallel threshold (4 MiB), odd sizes, and an empty file.
        for size in [0, 1, 4095, (4 << 20) - 1, 4 << 20, (4 << 20) + 1, (5 << 20) + 12_345] {
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(size + 1)
            let bytes = (0..<size).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 56)
            }
            let file = directory.appendingPathComponent("\(size).bin")
            try Data(bytes).write(to: file)
            XCTAssertEqual(try InputFile.read(file.path), bytes, "\(size) bytes")
            if size > 0 {
                XCTAssertThrowsError(try InputFile.read(file.path, limit: size - 1), "\(size) bytes over a limit")
            }
        }
    }
}
