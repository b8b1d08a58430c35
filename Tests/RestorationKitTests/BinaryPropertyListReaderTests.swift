import XCTest
@testable import RestorationKit

final class BinaryPropertyListReaderTests: XCTestCase {
    private func read(_ bytes: [UInt8], limits: DecodingLimits = .default) throws -> PlistTree {
        try PlistTree.read(bytes, limits: limits)
    }

    func testReadsPlainPropertyList() throws {
        let value = try read(try FixtureFiles.bytes("plain.plist"))
        XCTAssertEqual(value, .dictionary(PlistDictionary([
            ("CFBundleVersion", .string("1")),
            ("items", .array([.integer(1), .integer(2), .integer(3)])),
        ])))
    }

    func testReadsFourByteReals() throws {
        let top = try XCTUnwrap(read(try FixtureFiles.bytes("float32.data")).dictionaryValue?["$top"]?.dictionaryValue)
        // Kept at their own precision: 0.1f is 0.1, not 0.10000000149011612.
        XCTAssertEqual(top["kScrollViewZoomScaleKey"], .float(1.5))
        XCTAssertEqual(top["floatNegative"], .float(-2.5))
        XCTAssertEqual(top["floatPointOne"], .float(0.1))
    }

    func testObjectCountIsBoundedByTheValueLimit() throws {
        // Slots for every object are made before reading: a count above the limit is refused first.
        let bytes = BinaryPlistBuilder.objects([[0xA2, 1, 2], [0x10, 1], [0x10, 2]])
        XCTAssertEqual(try read(bytes, limits: DecodingLimits(maxNodes: 3)), .array([.integer(1), .integer(2)]))
        XCTAssertThrowsError(try read(bytes, limits: DecodingLimits(maxNodes: 2))) { error in
            XCTAssertEqual((error as? PropertyListError)?.reason, "the input expands to more than the limit of 2 values (--max-nodes)")
            XCTAssertEqual((error as? PropertyListError)?.exceedsLimit, true)
        }
    }

    func testXMLWithAByteOrderMarkReadsAsWithout() throws {
        let xml = try FixtureFiles.bytes("ios8-tabbar.xml")
        XCTAssertEqual(try read([0xEF, 0xBB, 0xBF] + xml), try read(xml))
    }

    func testMinimalHandMadeFile() throws {
        // bplist00, one object (integer 7), offset table, trailer.
        let bytes = BinaryPlistBuilder.single(object: [0x10, 0x07])
        XCTAssertEqual(try read(bytes), .integer(7))
    }

    func testIntegerWidthsAndSigns() throws {
        XCTAssertEqual(try read(BinaryPlistBuilder.single(object: [0x11, 0xFF, 0xFF])), .integer(65535))
        XCTAssertEqual(try read(BinaryPlistBuilder.single(object: [0x12, 0xFF, 0xFF, 0xFF, 0xFF])), .integer(4_294_967_295))
        XCTAssertEqual(try read(BinaryPlistBuilder.single(object: [0x13] + Array(repeating: 0xFF, count: 8))), .integer(-1))
        let uint64Max: [UInt8] = [0x14] + Array(repeating: 0, count: 8) + Array(repeating: 0xFF, count: 8)
        XCTAssertEqual(try read(BinaryPlistBuilder.single(object: uint64Max)), .integer(Int128(UInt64.max)))
        XCTAssertThrowsError(try read(BinaryPlistBuilder.single(object: [0x15] + Array(repeating: 0, count: 32))))
    }

    func testStringsKeepTheirCharacters() throws {
        // UTF-16BE "é☕" and an ASCII string with a byte above 0x7F, read as Latin-1.
        XCTAssertEqual(try read(BinaryPlistBuilder.single(object: [0x62, 0x00, 0xE9, 0x26, 0x15])), .string("é☕"))
        XCTAssertEqual(try read(BinaryPlistBuilder.single(object: [0x52, 0x41, 0xE9])), .string("Aé"))
        XCTAssertEqual(try read(BinaryPlistBuilder.single(object: [0x63, 0x00, 0x41, 0x00, 0x00, 0xD8, 0x00])), .string("A\u{0}\u{FFFD}"))
    }

    func testDataIsASliceAtItsFileOffset() throws {
        let value = try read(BinaryPlistBuilder.single(object: [0x43, 0xDE, 0xAD, 0xBE]))
        guard case .data(let data) = value else { return XCTFail("not data: \(value)") }
        XCTAssertEqual(Array(data), [0xDE, 0xAD, 0xBE])
        XCTAssertEqual(data.startIndex, 9, "the bytes follow the header and the marker")
    }

    func testErrorsNameTheByteOffset() throws {
        let error = try XCTUnwrap(readError(BinaryPlistBuilder.single(object: [0x43, 0x01])))
        XCTAssertEqual(error.reason, "data object of 3 bytes runs past the end of the object area")
        XCTAssertEqual(error.byteOffset, 8)
    }

    func testFormatIsDetectedByContent() throws {
        XCTAssertEqual(try PropertyListReader.format(of: Array("bplist00xyz".utf8)[...]), .binary)
        XCTAssertEqual(try PropertyListReader.format(of: Array("\u{FEFF}  <?xml version=\"1.0\"?>".utf8)[...]), .xml)
        XCTAssertEqual(try PropertyListReader.format(of: Array("<plist version=\"1.0\">".utf8)[...]), .xml)
        XCTAssertThrowsError(try PropertyListReader.format(of: Array("{\"json\": 1}".utf8)[...]))
        XCTAssertThrowsError(try PropertyListReader.format(of: [][...]))
    }

    func testDepthLimitIsConfigurable() throws {
        // [[[1]]]: three arrays deep.
        let bytes = BinaryPlistBuilder.objects([[0xA1, 0x01], [0xA1, 0x02], [0xA1, 0x03], [0x10, 0x01]])
        XCTAssertNoThrow(try read(bytes, limits: DecodingLimits(maxDepth: 3)))
        let error = try XCTUnwrap(readError(bytes, limits: DecodingLimits(maxDepth: 2)))
        XCTAssertTrue(error.exceedsLimit)
        XCTAssertEqual(error.reason, "values nest deeper than the limit of 2 levels (--max-depth)")
    }

    func testSharedObjectsCountOncePerReference() throws {
        // [x, x] where x = [1, 1]: 1 + 2 × 3 = 7 values when expanded.
        let bytes = BinaryPlistBuilder.objects([[0xA2, 0x01, 0x01], [0xA2, 0x02, 0x02], [0x10, 0x01]])
        XCTAssertNoThrow(try read(bytes, limits: DecodingLimits(maxNodes: 7)))
        XCTAssertTrue(try XCTUnwrap(readError(bytes, limits: DecodingLimits(maxNodes: 6))).exceedsLimit)
    }

    private func readError(_ bytes: [UInt8], limits: DecodingLimits = .default) -> PropertyListError? {
        do {
            _ = try read(bytes, limits: limits)
            return nil
        } catch let error as PropertyListError {
            return error
        } catch {
            XCTFail("unexpected error \(error)")
            return nil
        }
    }

    /// ASCII is checked eight bytes at a time, the last word overlapping or padded: a byte of
    /// 0x80 or more must be found at every position of every length, and none invented.
    func testIsASCIIAtEveryPositionAndLength() {
        for length in 0...20 {
            let ascii = (0..<length).map { UInt8(0x7F - $0) }
            XCTAssertTrue(ascii.withUnsafeBytes(\.isASCII), "length \(length)")
            for position in 0..<length {
                for high: UInt8 in [0x80, 0xC3, 0xFF] {
                    var bytes = ascii
                    bytes[position] = high
                    XCTAssertFalse(bytes.withUnsafeBytes(\.isASCII), "\(high) at \(position) of \(length)")
                }
            }
        }
        // Only the bytes asked about count, not the ones after them.
        let tail: [UInt8] = Array("abcdefgh".utf8) + [0xFF, 0xFF]
        tail.withUnsafeBytes { buffer in
            for length in 0...8 {
                XCTAssertTrue(UnsafeRawBufferPointer(rebasing: buffer[..<length]).isASCII, "prefix \(length)")
                XCTAssertTrue(UnsafeRawBufferPointer(rebasing: buffer[(8 - length)..<8]).isASCII, "suffix \(length)")
            }
        }
    }

    /// A binary list is checked with a stack of its own: on a 256 KiB thread, arrays nested
    /// 4 000 levels deep are read and checked (the recursive tree builder this replaced crashed
    /// there in a debug build). The tests' tree of it is made on the test's thread.
    func testDeepNestingIsMadeOnAnOrdinaryStack() throws {
        let levels = 4_000
        // Object i is an array holding object i + 1 (2-byte references); the last is "end".
        var objects: [[UInt8]] = []
        for index in 1...levels {
            let high = UInt8(index >> 8), low = UInt8(index & 0xFF)
            objects.append([0xA1, high, low])
        }
        objects.append([0x53] + Array("end".utf8))
        let bytes = BinaryPlistBuilder.objects(objects, referenceSize: 2)
        try onSmallStack { [bytes] in
            try BinaryPropertyList.withTable(bytes[...]) { (table) throws(PropertyListError) in try table.check(limits: DecodingLimits(maxDepth: levels)) }
        }
        var value = try PlistTree.read(bytes, limits: DecodingLimits(maxDepth: levels))
        var depth = 0
        while case .array(let elements) = value, let first = elements.first {
            depth += 1
            value = first
        }
        XCTAssertEqual(depth, levels)
        XCTAssertEqual(value, .string("end"))
    }
}

/// Builds small binary property lists by hand: objects in order, 1-byte offsets and references.
enum BinaryPlistBuilder {
    static func single(object: [UInt8]) -> [UInt8] {
        objects([object])
    }

    /// `objects[0]` is the top object; references inside the objects are indices into
    /// `objects`, written in `referenceSize` bytes. Offsets take the fewest bytes that hold
    /// the largest.
    static func objects(_ objects: [[UInt8]], referenceSize: Int = 1) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let offsetSize = byteCount(UInt64(bytes.count))
        let tableStart = bytes.count
        bytes += offsets.flatMap { bigEndian(UInt64($0), offsetSize) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        bytes += bigEndian(UInt64(objects.count), 8) + bigEndian(0, 8) + bigEndian(UInt64(tableStart), 8)
        return bytes
    }

    /// 1, 2, 4 or 8: the fewest bytes that hold `value`.
    static func byteCount(_ value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    static func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

}
