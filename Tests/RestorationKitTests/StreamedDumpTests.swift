import XCTest
@testable import RestorationKit

/// `dump --json` renders plain archives straight from their bytes (`StreamedDump`); these tests
/// hold that road to the text of the decoded archive, on real archives and damaged copies.
final class StreamedDumpTests: XCTestCase {
    func testRealArchivesAreStreamedAsTheyDecode() throws {
        for name in ["ios8-tabbar.data", "ios7-plain.data", "many-objects.data", "validate/clean.data", "validate/class-map-unknown-path.data"] {
            let result = try bothWays(try FixtureFiles.bytes(name))
            XCTAssertEqual(result.streamed, result.decoded, name)
            XCTAssertGreaterThan(result.streamedObjects, 0, "\(name) was not streamed")
        }
    }

    func testEveryFixtureGivesTheDecodedTextOrError() throws {
        let fixtures = try FileManager.default.subpathsOfDirectory(atPath: FixtureFiles.root + "/Fixtures")
            .filter { !$0.hasSuffix(".py") && !$0.hasSuffix(".md") }
        var streamed = 0
        for name in fixtures.sorted() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: FixtureFiles.path(name), isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let result = try bothWays(try FixtureFiles.bytes(name))
            XCTAssertEqual(result.streamed, result.decoded, name)
            streamed += result.streamedObjects > 0 ? 1 : 0
        }
        XCTAssertGreaterThan(streamed, 10)
    }

    func testEveryByteFlippedGivesTheDecodedTextOrError() throws {
        // Flips inside the saved objects' archives reach every part of the renderer: markers,
        // lengths, references, key and string bytes (non-ASCII ones included).
        for (name, step, masks) in [("ios7-plain.data", 1, [0xFF, 0x01, 0x80] as [UInt8]), ("ios8-tabbar.data", 3, [0xFF])] {
            let bytes = try FixtureFiles.bytes(name)
            var streamed = 0
            for offset in stride(from: 0, to: bytes.count, by: step) {
                for mask in masks {
                    var damaged = bytes
                    damaged[offset] ^= mask
                    let result = try bothWays(damaged)
                    XCTAssertEqual(result.streamed, result.decoded, "\(name): byte \(offset) ^ \(mask)")
                    streamed += result.streamedObjects > 0 ? 1 : 0
                }
            }
            // Most flips leave the file plain enough to stream: the comparison was exercised.
            XCTAssertGreaterThan(streamed, bytes.count / step / 4, name)
        }
    }

    func testTruncatedGivesTheDecodedTextOrError() throws {
        let bytes = try FixtureFiles.bytes("ios8-tabbar.data")
        for length in stride(from: 0, to: bytes.count, by: 7) {
            let result = try bothWays(Array(bytes.prefix(length)))
            XCTAssertEqual(result.streamed, result.decoded, "truncated to \(length)")
        }
    }

    func testLimitsAreTheDecoders() throws {
        // Near a limit the road is left to the decoder, which reports it as it always does.
        let bytes = try FixtureFiles.bytes("ios8-tabbar.data")
        var variants: [DecodingLimits] = []
        for nodes in [1, 10, 50, 100, 150, 200, 300, 500, 1_000, 10_000] {
            variants.append(DecodingLimits(maxNodes: nodes))
        }
        for expanded in [10, 100, 1_000, 2_000, 4_000, 8_000, 100_000] {
            variants.append(DecodingLimits(maxExpandedBytes: expanded))
        }
        for nested in [10, 1_000, 3_000, 6_000, 12_000, 100_000] {
            variants.append(DecodingLimits(maxNestedArchiveBytes: nested))
        }
        for depth in [1, 2, 3, 5, 10, 127, 128, 129] {
            variants.append(DecodingLimits(maxDepth: depth))
        }
        for archives in [1, 2, 3, 4] {
            variants.append(DecodingLimits(maxArchiveDepth: archives))
        }
        for limits in variants {
            let result = try bothWays(bytes, limits: limits)
            XCTAssertEqual(result.streamed, result.decoded, "\(limits)")
        }
    }

    func testSeveralDocumentsAreIndentedAsDecoded() throws {
        // In an array of documents every line of a streamed object moves one level in.
        let bytes = try FixtureFiles.bytes("ios8-tabbar.data")
        let streamed = try DumpDocument(bytes: bytes[...], file: "a", limits: .default)
        XCTAssertGreaterThan(streamed.streamedObjectCount, 0)
        let decoded = DumpDocument(file: "a", archive: try RestorationArchive(bytes: bytes[...]))
        XCTAssertEqual(try JSONOutput.text([streamed, streamed], asArray: true), try JSONOutput.text([decoded, decoded], asArray: true))
    }

    func testNodeSinksGetTheDecodedObjects() throws {
        // A sink that does not take text (here the node builder) decodes the entry again.
        let bytes = try FixtureFiles.bytes("ios8-tabbar.data")
        let streamed = try DumpDocument(bytes: bytes[...], file: "a", limits: .default)
        let decoded = DumpDocument(file: "a", archive: try RestorationArchive(bytes: bytes[...]))
        func viaNodes(_ document: DumpDocument) throws -> String {
            let node = JSONNodeBuilder.build { $0.writeNode(try! JSONTreeEncoder().encode(document)) }
            var text: [UInt8] = []
            JSONTextWriter.write(node) { for piece in $0 { text.append(contentsOf: piece.bytes) } }
            return String(decoding: text, as: UTF8.self)
        }
        XCTAssertEqual(try viaNodes(streamed), try viaNodes(decoded))
        XCTAssertEqual(try viaNodes(streamed), try JSONOutput.text([decoded], asArray: false))
    }

    func testRestrictedToAPathAsDecoded() throws {
        let bytes = try FixtureFiles.bytes("ios8-tabbar.data")
        let streamed = try DumpDocument(bytes: bytes[...], file: "a", limits: .default)
        let decoded = DumpDocument(file: "a", archive: try RestorationArchive(bytes: bytes[...]))
        for object in decoded.archive.objects {
            let prefix = object.identifierPath
            XCTAssertEqual(
                try JSONOutput.text([streamed.restricted(to: prefix)], asArray: false),
                try JSONOutput.text([decoded.restricted(to: prefix)], asArray: false), prefix.rawValue)
        }
    }

    /// The document's model is the decoded one, but for the streamed objects' state, views and
    /// state problems (their entries are rendered, not decoded).
    func testStreamedDocumentsKeepTheDecodedModel() throws {
        for name in ["ios8-tabbar.data", "many-objects.data"] {
            let bytes = try FixtureFiles.bytes(name)
            let document = try DumpDocument(bytes: bytes[...], file: "x", limits: .default)
            var decoded = try RestorationArchive(bytes: bytes[...])
            XCTAssertGreaterThan(document.streamedObjectCount, 0)
            for index in decoded.objects.indices where document.streamed[index] != nil {
                decoded.objects[index].state = nil
                decoded.objects[index].views = []
                decoded.objects[index].stateProblem = nil
            }
            XCTAssertEqual(document.archive.objects, decoded.objects, name)
            XCTAssertEqual(document.archive.appState, decoded.appState, name)
            XCTAssertEqual(document.archive.notes, decoded.notes, name)
            XCTAssertEqual(document.archive.identifierPaths, decoded.identifierPaths, name)
            XCTAssertEqual(document.archive.restorationClassMap, decoded.restorationClassMap, name)
        }
    }

    func testManyObjectsStreamConcurrentlyAsOnOneThread() throws {
        let bytes = try FixtureFiles.bytes("many-objects.data")
        let sequential = try DumpDocument(bytes: bytes[...], file: "x", limits: .default, allowsConcurrency: false)
        // Rendered while the outer archive is decoded (found ahead), and after it.
        let ahead = try DumpDocument(bytes: bytes[...], file: "x", limits: .default, allowsConcurrency: true)
        let after = try DumpDocument(bytes: bytes[...], file: "x", limits: .default, allowsConcurrency: true, minimumAheadBytes: .max)
        let text = try JSONOutput.text([sequential], asArray: false)
        for document in [sequential, ahead, after] {
            XCTAssertEqual(document.streamedObjectCount, 80)
            XCTAssertEqual(try JSONOutput.text([document], asArray: false), text)
        }
        XCTAssertEqual(text, try bothWays(bytes).decoded)
    }

    /// Objects rendered ahead go to the sink from where they are, as pieces of their own, never
    /// more pieces at once than asked: the pieces make the decoded document's text.
    func testRenderedTextGoesOutInPiecesAsDecoded() throws {
        let bytes = try FixtureFiles.bytes("many-objects.data")
        let streamed = try DumpDocument(bytes: bytes[...], file: "x", limits: .default)
        let decoded = try bothWays(bytes).decoded
        for maximumPieces in [2, 3, 7, 1024] {
            var text: [UInt8] = []
            var piecesPerCall: [Int] = []
            JSONTextWriter.write(try JSONTreeEncoder().encode(streamed), maximumPieces: maximumPieces) { pieces in
                piecesPerCall.append(pieces.count)
                for piece in pieces { text.append(contentsOf: piece.bytes) }
            }
            XCTAssertEqual(String(decoding: text, as: UTF8.self), decoded, "\(maximumPieces)")
            XCTAssertLessThanOrEqual(piecesPerCall.max() ?? 0, maximumPieces)
            // 80 objects, each a header and a rest of its own.
            XCTAssertGreaterThanOrEqual(piecesPerCall.reduce(0, +), 160)
        }
    }

    func testDamagedManyObjectsGiveTheDecodedTextOrError() throws {
        // Damage reaches the outer table that entries are found ahead in, and the entries
        // rendered ahead (some of which the outer archive then does not list).
        let bytes = try FixtureFiles.bytes("many-objects.data")
        var streamed = 0
        for offset in stride(from: 0, to: bytes.count, by: 601) {
            var damaged = bytes
            damaged[offset] ^= 0xFF
            let result = try bothWays(damaged)
            XCTAssertEqual(result.streamed, result.decoded, "byte \(offset)")
            streamed += result.streamedObjects > 0 ? 1 : 0
        }
        for length in stride(from: 0, to: bytes.count, by: 4_001) {
            let result = try bothWays(Array(bytes.prefix(length)))
            XCTAssertEqual(result.streamed, result.decoded, "truncated to \(length)")
        }
        XCTAssertGreaterThan(streamed, bytes.count / 601 / 8)
    }

    func testSmallArchivesRenderedAheadAsDecoded() throws {
        // Below `minimumAheadBytes` nothing is rendered ahead; with it at 0 the small fixtures and
        // their damaged copies take that road too.
        for name in ["ios8-tabbar.data", "ios7-plain.data", "validate/clean.data"] {
            let bytes = try FixtureFiles.bytes(name)
            var streamed = 0
            for offset in stride(from: 0, to: bytes.count, by: 9) {
                var damaged = bytes
                damaged[offset] ^= 0xFF
                let result = try bothWays(damaged, minimumAheadBytes: 0)
                XCTAssertEqual(result.streamed, result.decoded, "\(name): byte \(offset)")
                streamed += result.streamedObjects > 0 ? 1 : 0
            }
            XCTAssertGreaterThan(streamed, bytes.count / 9 / 4, name)
        }
    }

    func testEntriesShareOneAllowance() throws {
        // The first entry that gives up stops the rest; so does the file's budget, used up.
        let entry = try XCTUnwrap(StreamedDump.entriesAhead(in: try FixtureFiles.bytes("many-objects.data")[...], limits: .default).first)
        let bytes = try FixtureFiles.bytes("many-objects.data")
        let context = StreamingContext()
        let allowance = RenderingAllowance(limits: .default, fileSize: bytes.count)
        XCTAssertNotNil(StreamedEntry.render(bytes[entry], limits: .default, allowance: allowance, context: context))
        allowance.record(nil)
        XCTAssertNil(allowance.next())
        XCTAssertNil(StreamedEntry.render(bytes[entry], limits: .default, allowance: allowance, context: context))

        let one = try XCTUnwrap(StreamedEntry.render(bytes[entry], limits: .default, allowance: RenderingAllowance(limits: .default, fileSize: 0), context: context))
        let small = RenderingAllowance(limits: DecodingLimits(maxNodes: 2 * one.counts.nodes * 3 / 2), fileSize: bytes.count)
        XCTAssertNotNil(StreamedEntry.render(bytes[entry], limits: .default, allowance: small, context: context))
        XCTAssertNotNil(small.next(), "half the budget is left")
        XCTAssertNil(StreamedEntry.render(bytes[entry], limits: .default, allowance: small, context: context), "more than is left")
        XCTAssertNil(small.next())
    }

    func testEntriesFoundAheadAreTheListedEntries() throws {
        let bytes = try FixtureFiles.bytes("many-objects.data")
        let ahead = StreamedDump.entriesAhead(in: bytes[...], limits: .default)
        XCTAssertEqual(ahead.count, 80)
        for (range, next) in zip(ahead, ahead.dropFirst()) {
            XCTAssertLessThanOrEqual(range.upperBound, next.lowerBound)
        }
        var decoder = KeyedArchiveDecoder(limits: .default)
        decoder.leavesOuterDataUndecoded = true
        let outer = try decoder.decodeCounting(bytes[...]).archive
        var listed: [Range<Int>] = []
        for (_, value) in outer.top.entries {
            if case .data(let data) = value, data.bytes.starts(with: BinaryPropertyListReader.magic) { listed.append(data.bytes.indices) }
        }
        XCTAssertEqual(listed.sorted { $0.lowerBound < $1.lowerBound }, ahead)
        // Not a binary property list: nothing is found ahead.
        XCTAssertEqual(StreamedDump.entriesAhead(in: try FixtureFiles.bytes("ios8-tabbar.xml")[...], limits: .default), [])
    }

    func testEntriesAheadAreEachFoundOnceAndNeverOverlap() throws {
        // Object 0 lists the others; 1 and 2 are the same data object (listed twice), and 3 is
        // a data object inside it, which a writer never makes: nothing is rendered ahead then.
        let outer = Array("bplist00".utf8) + Array("xyz".utf8)
        func file(dataObjects offsets: [Int]) -> [UInt8] {
            var bytes: [UInt8] = Array("bplist00".utf8)
            bytes += [0xA0 | UInt8(offsets.count)] + (1...offsets.count).map { UInt8($0) }
            let dataOffset = bytes.count
            // 20 bytes: a binary property list's magic, then a data marker and 11 bytes that
            // begin with the magic too.
            bytes += [0x4F, 0x10, 20] + outer.prefix(8) + [0x4B] + outer
            let tableStart = bytes.count
            bytes += [8] + offsets.map { UInt8(dataOffset + $0) }
            bytes += [0, 0, 0, 0, 0, 0, 1, 1]
            bytes += withUnsafeBytes(of: UInt64(offsets.count + 1).bigEndian, Array.init)
            bytes += withUnsafeBytes(of: UInt64(0).bigEndian, Array.init)
            bytes += withUnsafeBytes(of: UInt64(tableStart).bigEndian, Array.init)
            return bytes
        }
        let once = StreamedDump.entriesAhead(in: file(dataObjects: [0, 0])[...], limits: .default)
        XCTAssertEqual(once.count, 1)
        XCTAssertEqual(once.first?.count, 20)
        XCTAssertEqual(StreamedDump.entriesAhead(in: file(dataObjects: [0, 11])[...], limits: .default), [])
        XCTAssertEqual(StreamedDump.entriesAhead(in: file(dataObjects: [11])[...], limits: .default).first?.count, 11)
    }

    /// `dump --json`'s text for `bytes` streamed where possible and decoded, each an error's
    /// text when reading fails, and how many objects were streamed.
    private func bothWays(
        _ bytes: [UInt8], limits: DecodingLimits = .default, minimumAheadBytes: Int = 64 * 1024
    ) throws -> (streamed: String, decoded: String, streamedObjects: Int) {
        var streamedObjects = 0
        let streamed: String
        do {
            let document = try DumpDocument(bytes: bytes[...], file: "x", limits: limits, minimumAheadBytes: minimumAheadBytes)
            streamedObjects = document.streamedObjectCount
            streamed = try JSONOutput.text([document], asArray: false)
        } catch let error as ArchiveError {
            streamed = "error: \(error)"
        }
        let decoded: String
        do {
            decoded = try JSONOutput.text([DumpDocument(file: "x", archive: try RestorationArchive(bytes: bytes[...], limits: limits))], asArray: false)
        } catch let error as ArchiveError {
            decoded = "error: \(error)"
        }
        return (streamed, decoded, streamedObjects)
    }
}
