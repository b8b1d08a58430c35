import XCTest
@testable import RestorationKit

/// Damaged copies of real archives: every one must either fail with an `ArchiveError` or decode
/// to something both printers can write. A deterministic complement to the fuzz targets.
final class MutationTests: XCTestCase {
    func testTruncationAtEveryOffset() throws {
        let bytes = try FixtureFiles.bytes("ios8-tabbar.data")
        for length in 0..<bytes.count {
            assertDecodesOrFails(Array(bytes.prefix(length)), "truncated to \(length) bytes")
        }
    }

    func testEveryByteFlipped() throws {
        let bytes = try FixtureFiles.bytes("ios7-plain.data")
        var decoded = 0
        for offset in bytes.indices {
            var damaged = bytes
            damaged[offset] ^= 0xFF
            decoded += assertDecodesOrFails(damaged, "byte \(offset) flipped") ? 1 : 0
        }
        // Flips in string contents leave a decodable archive: the printers were exercised.
        XCTAssertGreaterThan(decoded, 100)
    }

    func testNestedArchiveTruncatedInsideTheOuterOne() throws {
        // Cut every object's state archive short; the outer archive still decodes and says why.
        let archive = try FixtureFiles.archive("ios8-tabbar.data")
        for object in archive.objects {
            XCTAssertNotNil(object.state)
        }
        let top = archive.archive.top
        var keys: [String] = []
        var values: [ArchiveValue] = []
        for (key, value) in top.entries {
            keys.append(key)
            if value.kind == .archive, archive.identifierPaths.contains(IdentifierPath(key)) {
                values.append(.data(ArchiveData(bytes: [0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0x00], archiveError: "truncated")))
            } else {
                values.append(value)
            }
        }
        let damaged = RestorationArchive(archive: KeyedArchive(top: ArchiveFields(keys: keys, values: values)))
        XCTAssertEqual(damaged.objects.count, 7)
        XCTAssertTrue(damaged.objects.allSatisfy { $0.state == nil && $0.stateProblem?.contains("truncated") == true })
    }

    @discardableResult
    private func assertDecodesOrFails(_ bytes: [UInt8], _ what: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        do {
            let archive = try RestorationArchive(bytes: bytes[...])
            XCTAssertFalse(TextDumpFormatter().format(archive, file: "x").isEmpty, what, file: file, line: line)
            XCTAssertFalse(JSONOutput.text([DumpDocument(file: "x", archive: archive)], asArray: false).isEmpty, what, file: file, line: line)
            return true
        } catch {
            XCTAssertFalse(error.description.isEmpty, what, file: file, line: line)
            return false
        }
    }
}
