import CPlist
import Foundation
import XCTest
@testable import RestorationKit

/// The decoder's output: the flat tape every reader reads (see docs/design/tape.md).
final class ArchiveTapeTests: XCTestCase {
    /// Every fixture the decoder reads, hostile ones included.
    private func decodableFixtures() throws -> [(name: String, bytes: [UInt8])] {
        let root = FixtureFiles.path("")
        let names = FileManager.default.enumerator(atPath: root)!.compactMap { $0 as? String }
            .filter { [".data", ".xml", ".plist"].contains(where: $0.hasSuffix) }.sorted()
        return try names.compactMap { name in
            let bytes = try FixtureFiles.bytes(name)
            return (try? KeyedArchiveDecoder().decodeTape(bytes[...])) == nil ? nil : (name, bytes)
        }
    }

    /// A plain property list whose array refers to one dictionary `count` times, written by hand
    /// (Foundation's writer does not share containers; a hostile one does).
    private static func sharedDictionaryList(_ count: Int) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.append(bytes.count)
        bytes += [0xAF, 0x11, UInt8(count >> 8), UInt8(count & 0xFF)] + [UInt8](repeating: 1, count: count)
        offsets.append(bytes.count)
        bytes += [0xD1, 2, 3]
        offsets.append(bytes.count)
        bytes += [0x5A] + Array("NSWindowID".utf8)
        offsets.append(bytes.count)
        bytes += [0x10, 0x07]
        let table = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        bytes += [0, 0, 0, 0, 0, 0, 2, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(offsets.count)] + [UInt8](repeating: 0, count: 8)
        bytes += [0, 0, 0, 0, 0, 0, UInt8(table >> 8), UInt8(table & 0xFF)]
        return bytes
    }

    /// A plain property list's container referred to many times is decoded once and shared,
    /// as a keyed archive's shared objects are, and still counted once per reference.
    func testAPlainListsSharedContainerIsDecodedOnce() throws {
        let bytes = Self.sharedDictionaryList(1000)
        let tape = try KeyedArchiveDecoder().decodeTape(bytes[...], allowsPlain: true)
        XCTAssertTrue(tape.isPlainPropertyList)
        XCTAssertLessThan(tape.nodes.count, 1010, "one dictionary block, and the array's 1 000 members")
        let list = try XCTUnwrap(tape.value(tape.root).elements)
        XCTAssertEqual(list.count, 1000)
        XCTAssertTrue(list.allSatisfy { $0["NSWindowID"]?.integerValue == 7 })
        // The array, and per reference the dictionary, its key and its value: 3 001 values.
        XCTAssertNoThrow(try KeyedArchiveDecoder(limits: DecodingLimits(maxNodes: 3001)).decodeTape(bytes[...], allowsPlain: true))
        XCTAssertThrowsError(try KeyedArchiveDecoder(limits: DecodingLimits(maxNodes: 3000)).decodeTape(bytes[...], allowsPlain: true))
        // libplist, the second reader, reads the same list from these bytes.
        var root: plist_t? = nil
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { plist_from_bin($0.baseAddress, UInt32($0.count), &root) }
        }
        let document = LibplistDocument(owning: try XCTUnwrap(root))
        var converter = LibplistConverter(limits: .default)
        guard case .array(let elements) = try converter.convert(document.root) else { return XCTFail("libplist read no array") }
        XCTAssertEqual(elements.count, 1000)
        XCTAssertTrue(elements.allSatisfy { $0.dictionaryValue?["NSWindowID"] == .integer(7) })
    }

    func testNodesAreSixteenBytes() {
        XCTAssertEqual(MemoryLayout<TapeNode>.size, 16)
        XCTAssertEqual(MemoryLayout<TapeNode>.stride, 16)
    }

    func testEveryFixturesTapeIsWellFormedAndMaterialisesAsDecoded() throws {
        let fixtures = try decodableFixtures()
        XCTAssertGreaterThan(fixtures.count, 20)
        for (name, bytes) in fixtures {
            for concurrently in [true, false] {
                var decoder = KeyedArchiveDecoder()
                decoder.allowsConcurrency = concurrently
                let tape = try decoder.decodeTape(bytes[...])
                XCTAssertNil(tape.wellFormednessProblem, name)
                XCTAssertEqual(tape.keyedArchive, try decoder.decode(bytes), name)
            }
        }
    }

    /// A nested archive decoded on another thread joins the tape with its blocks moved: the
    /// large fixture's tape is the same either way.
    func testNestedArchivesDecodedAheadJoinTheTapeAsDecodedInPlace() throws {
        let bytes = try FixtureFiles.bytes("many-objects.data")
        var sequential = KeyedArchiveDecoder()
        sequential.allowsConcurrency = false
        let alone = try sequential.decodeTape(bytes[...])
        let ahead = try KeyedArchiveDecoder().decodeTape(bytes[...])
        XCTAssertNil(ahead.wellFormednessProblem)
        XCTAssertEqual(alone.nodes.count, ahead.nodes.count)
        XCTAssertEqual(ahead.keyedArchive, alone.keyedArchive)
    }

    /// A nested archive that many `$top` entries refer to (one `$objects` entry, as
    /// NSKeyedArchiver writes an object archived under several keys) is decoded once ahead,
    /// not once per entry: the tape holds it once, as when decoded in place.
    func testANestedArchiveSharedByManyEntriesIsDecodedOnceAhead() throws {
        let nested = NSData(data: Data(try FixtureFiles.bytes("ios8-tabbar.data")))
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        for index in 0..<200 { archiver.encode(nested, forKey: "entry\(index)") }
        archiver.finishEncoding()
        let bytes = Array(archiver.encodedData)
        var sequential = KeyedArchiveDecoder()
        sequential.allowsConcurrency = false
        let alone = try sequential.decodeTape(bytes[...])
        let ahead = try KeyedArchiveDecoder().decodeTape(bytes[...])
        XCTAssertEqual(alone.root.memberCount, 200)
        XCTAssertEqual(ahead.nodes.count, alone.nodes.count)
        XCTAssertEqual(ahead.keyedArchive, alone.keyedArchive)
    }

    /// An object referred to twice is decoded once: both references are the same node, whose
    /// block is not copied.
    func testSharedObjectsAreDecodedOnceAndShareTheirBlock() throws {
        let shared = NSArray(array: ["a", "b", "c"])
        let data = try NSKeyedArchiver.archivedData(withRootObject: NSArray(array: [shared, shared]), requiringSecureCoding: false)
        let tape = try KeyedArchiveDecoder().decodeTape(Array(data)[...])
        let root = tape.nodes[tape.root.first + tape.root.memberCount]
        XCTAssertEqual(root.kind, .array)
        let (first, second) = (tape.nodes[root.first], tape.nodes[root.first + 1])
        XCTAssertEqual(first.kind, .array)
        XCTAssertEqual(first.payload, second.payload)
        XCTAssertEqual(tape.nodes.filter { $0.kind == .array && $0.count == 3 }.count, 2, "the shared array's node, once in the root's block")
        XCTAssertEqual(tape.nodes.count, 2 + 2 + 3, "top key and value, the root's two elements, the shared array's three")
    }

    /// Strings stored as ASCII in a binary file stay there: the tape's text holds only what had
    /// to be converted.
    func testASCIIStringsStayInTheInput() throws {
        let bytes = try FixtureFiles.bytes("ios8-tabbar.data")
        let tape = try KeyedArchiveDecoder().decodeTape(bytes[...])
        let strings = tape.nodes.filter { $0.kind == .string }
        XCTAssertGreaterThan(strings.count, 20)
        let converted = strings.filter { !$0.flags.contains(.inSource) }
        XCTAssertGreaterThan(strings.count, 2 * converted.count)
        // A binary property list stores a string as UTF-16 only when it is not ASCII.
        XCTAssertTrue(converted.allSatisfy { node in tape.withBytes(of: node) { $0.contains { $0 >= 0x80 } } })
        XCTAssertEqual(tape.text.count, converted.reduce(0) { $0 + $1.memberCount })
        // From XML every string is converted text.
        let xml = try FixtureFiles.bytes("ios8-tabbar.xml")
        let fromXML = try KeyedArchiveDecoder().decodeTape(xml[...])
        XCTAssertFalse(fromXML.nodes.contains { $0.flags.contains(.inSource) })
        XCTAssertEqual(fromXML.keyedArchive, tape.keyedArchive)
    }

    func testAMalformedTapeIsReported() throws {
        let bytes = try FixtureFiles.bytes("ios8-tabbar.data")
        let tape = try KeyedArchiveDecoder().decodeTape(bytes[...])
        var builder = TapeBuilder()
        builder.nodes = tape.nodes
        builder.source = tape.source
        builder.nodes.append(TapeNode(.array, count: 3, payload: UInt64(tape.nodes.count)))
        XCTAssertNotNil(ArchiveTape(builder, root: tape.root).wellFormednessProblem)
        XCTAssertNotNil(ArchiveTape(builder, root: TapeNode(.object, count: 1, payload: 0)).wellFormednessProblem, "a class the tape does not have")
    }
}
