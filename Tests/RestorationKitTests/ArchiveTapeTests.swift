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
