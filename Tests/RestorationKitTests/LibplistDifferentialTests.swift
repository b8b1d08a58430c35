import CPlist
import XCTest
@testable import RestorationKit

/// Keeps libplist and our readers honest against each other: every well-formed binary and XML
/// fixture, and every nested archive inside it, read by both gives the same values, except
/// where libplist 2.2.0 is known to lose information (the sign of integers, dates beyond
/// 32-bit seconds and below a microsecond; XMLPropertyListReaderTests has those cases).
final class LibplistDifferentialTests: XCTestCase {
    func testEveryBinaryFixtureReadsTheSameThroughLibplist() throws {
        var compared = 0
        for name in FixtureFiles.wellFormedBinary {
            let bytes = try FixtureFiles.bytes(name)
            compared += try compareRecursively(bytes[...], name: name)
        }
        XCTAssertGreaterThanOrEqual(compared, 15, "nested archives should have been compared too")
    }

    func testEveryXMLFixtureReadsTheSameThroughLibplist() throws {
        var compared = 0
        for name in ["ios8-tabbar.xml", "diff/xml-twin.xml", "evidence/statedemo-ios8.xml"] {
            let bytes = try FixtureFiles.bytes(name)
            let ours = try PlistTree.read(bytes[...])
            let document = try XCTUnwrap(LibplistDocument(xml: bytes[...]), "libplist could not read \(name)")
            var converter = LibplistConverter(limits: .default)
            assertAgree(ours, try converter.convert(document.root), at: name)
            compared += 1
            for nested in nestedPropertyLists(in: ours) {
                compared += try compareRecursively(nested, name: name + " > nested")
            }
        }
        XCTAssertGreaterThanOrEqual(compared, 15)
    }

    func testXMLFixtureMatchesItsBinaryTwin() throws {
        let binary = try FixtureFiles.archive("ios8-tabbar.data")
        let xml = try FixtureFiles.archive("ios8-tabbar.xml")
        XCTAssertEqual(binary, xml)
    }

    /// Compares `bytes` and every binary property list nested in it; returns how many it compared.
    private func compareRecursively(_ bytes: ArraySlice<UInt8>, name: String) throws -> Int {
        let ours = try PlistTree.read(bytes)
        let theirs = try XCTUnwrap(libplist(bytes), "libplist could not read \(name)")
        assertAgree(ours, theirs, at: name)
        var count = 1
        for nested in nestedPropertyLists(in: ours) {
            count += try compareRecursively(nested, name: name + " > nested")
        }
        return count
    }

    private func libplist(_ bytes: ArraySlice<UInt8>) -> PlistTree? {
        var root: plist_t? = nil
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                plist_from_bin(characters.baseAddress, UInt32(characters.count), &root)
            }
        }
        guard let root else { return nil }
        let document = LibplistDocument(owning: root)
        var converter = LibplistConverter(limits: .default)
        return try? converter.convert(document.root)
    }

    private func nestedPropertyLists(in value: PlistTree) -> [ArraySlice<UInt8>] {
        switch value {
        case .data(let bytes) where bytes.starts(with: BinaryPropertyListFormat.magic):
            return [bytes]
        case .array(let elements):
            return elements.flatMap(nestedPropertyLists)
        case .dictionary(let dictionary):
            return dictionary.values.flatMap(nestedPropertyLists)
        default:
            return []
        }
    }

    private func assertAgree(_ ours: PlistTree, _ theirs: PlistTree, at path: String) {
        switch (ours, theirs) {
        case (.integer(let a), .integer(let b)):
            // libplist keeps 64 bits without a sign.
            XCTAssertEqual(UInt64(truncatingIfNeeded: a), UInt64(truncatingIfNeeded: b), path)
        case (.date(let a), .date(let b)):
            // libplist keeps whole seconds in 32 bits and microseconds.
            XCTAssertEqual(a, b, accuracy: 1e-6, path)
        case (.real(let a), .real(let b)):
            XCTAssertEqual(a.bitPattern, b.bitPattern, path)
        case (.float(let a), .real(let b)):
            // libplist widens 4-byte reals to doubles; we keep them as floats.
            XCTAssertEqual(Double(a).bitPattern, b.bitPattern, path)
        case (.array(let a), .array(let b)):
            XCTAssertEqual(a.count, b.count, path)
            for (index, (x, y)) in zip(a, b).enumerated() {
                assertAgree(x, y, at: path + "[\(index)]")
            }
        case (.dictionary(let a), .dictionary(let b)):
            XCTAssertEqual(a.keys, b.keys, path)
            for (key, value) in a.entries {
                guard let other = b[key] else { continue }
                assertAgree(value, other, at: path + "." + key)
            }
        default:
            XCTAssertEqual(ours, theirs, path)
        }
    }
}
