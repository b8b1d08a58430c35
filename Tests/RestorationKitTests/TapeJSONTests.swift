import XCTest
@testable import RestorationKit

/// `dump --json` writes each saved object's state straight from the decoder's tape
/// (`JSONTapeValue`); these tests hold that text to the one the archive's values give (the
/// decoder's `KeyedArchive`, copied to a tape of its own by `RestorationArchive(archive:)` and
/// written by the same writer), on every input, damaged copies and limits included.
final class TapeJSONTests: XCTestCase {
    func testEveryInputWritesAsItsValues() throws {
        let inputs = try FixtureFiles.everyInput()
        XCTAssertGreaterThan(inputs.count, 80)
        var written = 0
        for (name, bytes) in inputs {
            let result = try bothWays(bytes)
            XCTAssertTrue(result.fromTape == result.fromValues, name)
            written += result.objectsOnTape > 0 ? 1 : 0
        }
        XCTAssertGreaterThan(written, 40)
    }

    /// Shapes no fixture has: fields and keys that begin with `$` (written with one more in
    /// front, or as a tagged dictionary), keys that need escapes, keys that are not strings, and
    /// view data with entries that are not views (left in the state).
    func testKeysThatNeedCareWriteAsTheirValues() throws {
        let bytes = try FixtureFiles.generated("""
            g.binary(g.restoration_archive([("Root", g.view_controller_state(
                odd=g.Obj("App.Odd", fields={"$dollar": 1, "$$two": "x", "plain": "quote \\" and \\\\ and \\u00e9", "tab\\there": 2}),
                dollarKeys={"$k": 1, "a": 2}, intKeys={1: "one"}, escapedKeys={"new\\nline": 1, "é": 2},
                **{"$state": 3, "kViewRestorationDataKey": {
                    "TableView": g.keyed_archive_bytes({"$hidden": True, "frame": "{{0, 0}, {320, 480}}"}),
                    7: "not a path", "Footer": "not an archive"}}))],
                system_version="17.5", timestamp=g.NSDate(1.5), idiom=0))
            """)
        let result = try bothWays(bytes)
        XCTAssertEqual(result.objectsOnTape, 1)
        XCTAssertEqual(result.fromTape, result.fromValues)
        for expected in [#""$$dollar": 1"#, #""$$$two": "x""#, #""$dictionary": ["#, #""new\nline": 1"#, #""$state": 3"#, #""$hidden": true"#, #""Footer""#] {
            XCTAssertTrue(result.fromTape.contains(expected), expected)
        }
    }

    func testEveryByteFlippedWritesAsItsValues() throws {
        // Flips inside the saved objects' archives reach every kind of node: strings (plain or
        // not, non-ASCII), keys with `$`, dictionaries with other keys, data, references.
        for (name, step, masks) in [("ios7-plain.data", 1, [0xFF, 0x01, 0x80] as [UInt8]), ("ios8-tabbar.data", 3, [0xFF])] {
            let bytes = try FixtureFiles.bytes(name)
            var written = 0
            for offset in stride(from: 0, to: bytes.count, by: step) {
                for mask in masks {
                    var damaged = bytes
                    damaged[offset] ^= mask
                    let result = try bothWays(damaged)
                    XCTAssertTrue(result.fromTape == result.fromValues, "\(name): byte \(offset) ^ \(mask)")
                    written += result.objectsOnTape > 0 ? 1 : 0
                }
            }
            // Most flips leave objects on the tape: the comparison was exercised.
            XCTAssertGreaterThan(written, bytes.count / step / 4, name)
        }
    }

    func testTruncatedWritesAsItsValues() throws {
        let bytes = try FixtureFiles.bytes("ios8-tabbar.data")
        for length in stride(from: 0, to: bytes.count, by: 7) {
            let result = try bothWays(Array(bytes.prefix(length)))
            XCTAssertTrue(result.fromTape == result.fromValues, "truncated to \(length)")
        }
    }

    func testLimitsGiveTheSameErrors() throws {
        let bytes = try FixtureFiles.bytes("ios8-tabbar.data")
        var variants: [DecodingLimits] = []
        for nodes in [1, 10, 50, 100, 150, 200, 300, 500, 1_000, 10_000] {
            variants.append(DecodingLimits(maxNodes: nodes))
        }
        for expanded in [10, 100, 1_000, 2_000, 4_000, 8_000, 100_000] {
            variants.append(DecodingLimits(maxExpandedBytes: expanded))
        }
        for depth in [1, 2, 3, 5, 10, 127, 128, 129] {
            variants.append(DecodingLimits(maxDepth: depth))
        }
        for archives in [1, 2, 3, 4] {
            variants.append(DecodingLimits(maxArchiveDepth: archives))
        }
        for limits in variants {
            let result = try bothWays(bytes, limits: limits)
            XCTAssertEqual(result.fromTape, result.fromValues, "\(limits)")
        }
    }

    func testSeveralDocumentsAreIndentedAsTheirValues() throws {
        // In an array of documents every line of an object moves one level in.
        let (onTape, values) = try documents("ios8-tabbar.data")
        XCTAssertEqual(JSONOutput.text([onTape, onTape], asArray: true), JSONOutput.text([values, values], asArray: true))
    }

    func testRestrictedToAPathAsTheirValues() throws {
        let (onTape, values) = try documents("ios8-tabbar.data")
        for object in values.archive.objects {
            let prefix = object.identifierPath
            XCTAssertEqual(
                JSONOutput.text([onTape.restricted(to: prefix)], asArray: false),
                JSONOutput.text([values.restricted(to: prefix)], asArray: false), prefix.rawValue)
        }
    }

    func testManyObjectsWriteConcurrentlyAsOnOneThread() throws {
        let (onTape, values) = try generatedDocuments(objects: 300)
        let node = onTape.jsonNode
        var texts: [String] = []
        for allowsConcurrency in [false, true] {
            var pieces: [JSONOutput.Piece] = []
            var text: [UInt8] = []
            JSONTextWriter.write(node, allowsConcurrency: allowsConcurrency) { piece in
                pieces.append(piece)
                text.append(contentsOf: piece.bytes)
            }
            // Concurrently, runs of objects come as pieces of their own that a sink may keep.
            XCTAssertEqual(pieces.contains { $0.owner != nil }, allowsConcurrency)
            texts.append(String(decoding: text, as: UTF8.self))
        }
        XCTAssertEqual(texts[0], texts[1])
        XCTAssertEqual(texts[0], JSONOutput.text([values], asArray: false))
    }

    func testALimitStopsTheTextAlike() throws {
        let (onTape, values) = try generatedDocuments(objects: 300)
        let whole = JSONOutput.text([values], asArray: false).utf8.count
        for limit in [0, 1000, 70_000, whole / 3, whole - 1, whole] {
            for document in [onTape, values] {
                var handed = 0
                let fits: Bool
                do {
                    try JSONOutput.write([document], asArray: false, limit: limit) { handed += $0.bytes.count }
                    fits = true
                } catch {
                    fits = false
                }
                XCTAssertEqual(fits, limit >= whole, "\(limit)")
                XCTAssertLessThanOrEqual(handed, limit, "\(limit)")
            }
        }
    }

    func testDamagedManyObjectsWriteAsTheirValues() throws {
        let bytes = try FixtureFiles.bytes("many-objects.data")
        var written = 0
        for offset in stride(from: 0, to: bytes.count, by: 601) {
            var damaged = bytes
            damaged[offset] ^= 0xFF
            let result = try bothWays(damaged)
            XCTAssertTrue(result.fromTape == result.fromValues, "byte \(offset)")
            written += result.objectsOnTape > 0 ? 1 : 0
        }
        XCTAssertGreaterThan(written, bytes.count / 601 / 8)
    }

    /// A fixture's document with every object's state on the tape, and with values made whole.
    /// An entry decoded once is written wherever it is referred to, so a value can nest far
    /// more deeply than the limit on reading: here each of 120 entries is an array nested 400
    /// levels deep around the one before, 48 000 levels in all. The writer walks with a stack of
    /// its own, so on a 256 KiB thread it writes every level. (Written by recursion, it crashes.)
    func testValuesNestedPastTheReadingLimitWriteOnAnOrdinaryStack() throws {
        let (entries, levels) = (120, 400)
        var objects: [PlistTree] = [.string("$null")]
        for entry in 1...entries {
            var value = PlistTree.array([entry == 1 ? .string("end") : .uid(UInt64(entry - 1))])
            for _ in 1..<levels { value = .array([value]) }
            objects.append(value)
        }
        let archive = try KeyedArchiveDecoder().decode(tree: .dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")),
            ("$version", .integer(100_000)),
            // Each entry is decoded first from `$top`, within the depth limit, then shared.
            ("$top", .dictionary(PlistDictionary((1...entries).map { ("e\($0)", .uid(UInt64($0))) }))),
            ("$objects", .array(objects)),
        ])))
        let value = try XCTUnwrap(archive.top["e\(entries)"])
        let text = try onSmallStack {
            var text: [UInt8] = []
            JSONTextWriter.write(value.jsonNode, allowsConcurrency: false) { text.append(contentsOf: $0.bytes) }
            return text
        }
        XCTAssertEqual(text.count { $0 == UInt8(ascii: "[") }, entries * levels)
        XCTAssertEqual(text.count { $0 == UInt8(ascii: "]") }, entries * levels)
        // Indentation stops growing at 32 levels.
        let innermost = String(repeating: " ", count: 2 * JSONTextWriter.maximumIndent) + "\"end\"\n"
        XCTAssertEqual(text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count, 2 * entries * levels + 2)
        XCTAssertTrue(String(decoding: text, as: UTF8.self).contains(innermost))
    }

    private func documents(_ name: String) throws -> (onTape: DumpDocument, values: DumpDocument) {
        try documents(of: try FixtureFiles.bytes(name), name: name)
    }

    /// The same for an archive of `objects` saved objects (the benchmark's shape): enough to be
    /// written in parts on several processors.
    private func generatedDocuments(objects: Int) throws -> (onTape: DumpDocument, values: DumpDocument) {
        try documents(of: try FixtureFiles.generated("g.benchmark_archive(__import__('random').Random(1), \(objects))"), name: "generated")
    }

    private func documents(of bytes: [UInt8], name: String) throws -> (onTape: DumpDocument, values: DumpDocument) {
        let onTape = DumpDocument(file: "a", archive: try RestorationArchive(bytes: bytes[...]))
        XCTAssertGreaterThan(objectsOnTape(onTape.archive), 0, name)
        return (onTape, DumpDocument(file: "a", archive: RestorationArchive(archive: try KeyedArchiveDecoder().decode(bytes[...]))))
    }

    private func objectsOnTape(_ archive: RestorationArchive) -> Int {
        archive.objects.filter { $0.entry?.node.kind == .archive }.count
    }

    /// `dump --json`'s text for `bytes` from the decoder's tape and from the decoder's values,
    /// each an error's text when reading fails, and how many objects have a state. A file that
    /// is no keyed archive (a saved-state file of another kind) has no values to compare with.
    private func bothWays(_ bytes: [UInt8], limits: DecodingLimits = .default) throws -> (fromTape: String, fromValues: String, objectsOnTape: Int) {
        var objects = 0
        var isKeyedArchive = true
        let fromTape: String
        do {
            let archive = try RestorationArchive(bytes: bytes[...], limits: limits)
            objects = objectsOnTape(archive)
            isKeyedArchive = archive.kind == .restorationArchive || archive.kind == .keyedArchive
            fromTape = JSONOutput.text([DumpDocument(file: "x", archive: archive)], asArray: false)
        } catch {
            fromTape = "error: \(error)"
        }
        guard isKeyedArchive else { return (fromTape, fromTape, objects) }
        let fromValues: String
        do {
            let values = try FixtureFiles.decodedValues(bytes, limits: limits)
            fromValues = JSONOutput.text([DumpDocument(file: "x", archive: RestorationArchive(archive: values, limits: limits))], asArray: false)
        } catch {
            fromValues = "error: \(error)"
        }
        return (fromTape, fromValues, objects)
    }
}
