import XCTest
@testable import RestorationKit

/// A large archive's text is written in parts, on several threads: the parts must join into the
/// text written in one piece, and the output limit must give the same verdict.
final class TextDumpPartsTests: XCTestCase {
    /// 1 000 saved objects of different sizes (views, long and escaped strings, an entry that is
    /// not an archive), then app state.
    private func largeArchive() -> RestorationArchive {
        var top: [(String, ArchiveValue)] = [(RestorationKeys.majorVersion, .integer(2)), (RestorationKeys.minorVersion, .integer(1))]
        let paths = (0..<1000).map { "Root/:[\($0)]:/Controller\($0)" }
        top.append((RestorationKeys.identifierPaths, .array(paths.map(ArchiveValue.string))))
        for (index, path) in paths.enumerated() {
            if index == 500 {
                top.append((path, .data(ArchiveData(bytes: [1, 2, 3][...]))))
                continue
            }
            var state: [(String, ArchiveValue)] = [
                ("index", .integer(Int128(index))),
                ("title", .string(String(repeating: "é\u{200B}\"", count: index % 7))),
                ("rows", .array((0..<(index % 13)).map { .integer(Int128($0)) })),
            ]
            if index % 3 == 0 {
                let view = KeyedArchive(top: ArchiveFields([("contentOffset", .string("{0, \(index)}"))]))
                state.append((RestorationKeys.viewRestorationData, .dictionary(ArchiveDictionary(entries: [.init(key: .string(path + "/TableView"), value: .archive(view))]))))
            }
            top.append((path, .archive(KeyedArchive(top: ArchiveFields(state)))))
        }
        top.append((RestorationKeys.firstResponders, .array([.string(paths[3])])))
        return RestorationArchive(archive: KeyedArchive(top: ArchiveFields(top)))
    }

    func testPartsJoinIntoTheTextWrittenInOnePiece() throws {
        let archive = largeArchive()
        var inOnePiece = TextDumpFormatter()
        inOnePiece.writesInParts = false
        let whole = try XCTUnwrap(inOnePiece.formatBytes(archive, file: "f", outputLimit: .max))
        var pieces = 0
        XCTAssertTrue(TextDumpFormatter().withFormattedPieces(archive, file: "f", outputLimit: .max) { pieces = $0.count })
        XCTAssertGreaterThan(pieces, 2, "the objects were not written in parts")
        // Compared as a whole: a failure would print megabytes of bytes.
        XCTAssertTrue(TextDumpFormatter().formatBytes(archive, file: "f", outputLimit: .max) == whole, "the parts differ from the text in one piece")
        XCTAssertTrue(String(decoding: whole, as: UTF8.self).hasSuffix("\(RestorationKeys.firstResponders)....Array (1 item)\n        [0]....\"Root/:[3]:/Controller3\"\n"))
    }

    /// At and around each place a limit can fall (the header, the objects, the app state), both
    /// ways of writing keep or refuse the text alike.
    func testTheLimitGivesTheSameVerdict() throws {
        let archive = largeArchive()
        var inOnePiece = TextDumpFormatter()
        inOnePiece.writesInParts = false
        let whole = try XCTUnwrap(inOnePiece.formatBytes(archive, file: "f", outputLimit: .max))
        let text = String(decoding: whole, as: UTF8.self)
        let firstObject = try XCTUnwrap(text.range(of: "\nObject: ")).lowerBound.utf16Offset(in: text)
        let appState = try XCTUnwrap(text.range(of: "\nApp State:")).lowerBound.utf16Offset(in: text)
        var limits = [1, whole.count / 2, whole.count - 1, whole.count, whole.count + 1]
        for place in [firstObject, appState] { limits += [place - 1, place, place + 1] }
        for limit in limits {
            let expected = inOnePiece.formatBytes(archive, file: "f", outputLimit: limit)
            XCTAssertEqual(expected == nil, limit < whole.count, "limit \(limit)")
            XCTAssertTrue(TextDumpFormatter().formatBytes(archive, file: "f", outputLimit: limit) == expected, "limit \(limit)")
        }
    }

    /// Outputs that share a budget stop soon after they pass it together, each far short of the
    /// limit alone.
    func testSharedBudgetStopsEveryPart() {
        let limit = 400_000
        let budget = SharedTextBudget(limit: limit, spent: 0)
        var outputs = [TextOutput(limit: limit, sharing: budget), TextOutput(limit: limit, sharing: budget)]
        let line = String(repeating: "x", count: 999)
        var rounds = 0
        while !(outputs[0].isFull && outputs[1].isFull), rounds < 1000 {
            for index in outputs.indices where !outputs[index].isFull { outputs[index].line(line) }
            rounds += 1
        }
        let written = outputs[0].count + outputs[1].count
        XCTAssertTrue(outputs[0].isFull && outputs[1].isFull)
        XCTAssertLessThan(outputs[0].count, limit)
        XCTAssertGreaterThan(written, limit)
        XCTAssertLessThanOrEqual(written, limit + 2 * (SharedTextBudget.step + 1000))
    }
}
