import Foundation
import XCTest
@testable import RestorationKit

final class FileDigestTests: XCTestCase {
    /// FIPS 180-4's examples, then lengths around the padding boundaries against coreutils'
    /// `sha256sum`, an implementation we did not write.
    func testAgainstPublishedDigestsAndSha256sum() throws {
        XCTAssertEqual(FileDigest.sha256Hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(FileDigest.sha256Hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(FileDigest.sha256Hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        var generator = SystemRandomNumberGenerator()
        for count in [1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 1000, 100_003] {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let sha256sum = try OtherTools.run("sha256sum", [], input: Data(bytes))
            XCTAssertEqual(sha256sum.status, 0)
            XCTAssertEqual(FileDigest.sha256Hex(bytes), String(sha256sum.output.prefix(64)), "\(count) bytes")
        }
    }
}

final class FileTimeTests: XCTestCase {
    func testISO8601() {
        XCTAssertEqual(FileTime(seconds: 0, nanoseconds: 0).iso8601, "1970-01-01T00:00:00Z")
        XCTAssertEqual(FileTime(seconds: -1, nanoseconds: 0).iso8601, "1969-12-31T23:59:59Z")
        XCTAssertEqual(FileTime(seconds: -86_401, nanoseconds: 500_000_000).iso8601, "1969-12-30T23:59:59.5Z")
        XCTAssertEqual(FileTime(seconds: 1_700_000_000, nanoseconds: 843_695_834).iso8601, "2023-11-14T22:13:20.843695834Z")
        XCTAssertEqual(FileTime(seconds: 1_700_000_000, nanoseconds: 1).iso8601, "2023-11-14T22:13:20.000000001Z")
        XCTAssertEqual(FileTime(seconds: 253_402_300_799, nanoseconds: 0).iso8601, "9999-12-31T23:59:59Z")
        XCTAssertNil(FileTime(seconds: 253_402_300_800, nanoseconds: 0).iso8601)
        XCTAssertNil(FileTime(seconds: .min, nanoseconds: 0).iso8601)
    }

    func testMicrosecondsAndReferenceDates() {
        XCTAssertEqual(FileTime(seconds: 1_700_000_000, nanoseconds: 843_695_834).microseconds, 1_700_000_000_843_695)
        XCTAssertEqual(FileTime(seconds: -1, nanoseconds: 500_000_000).microseconds, -500_000)
        XCTAssertEqual(FileTime(seconds: .max, nanoseconds: 0).microseconds, .max)
        // 2001-01-01 is 978 307 200 s after 1970.
        XCTAssertEqual(FileTime(referenceDate: 0), FileTime(seconds: 978_307_200, nanoseconds: 0))
        XCTAssertEqual(FileTime(referenceDate: -0.25), FileTime(seconds: 978_307_199, nanoseconds: 750_000_000))
        XCTAssertNil(FileTime(referenceDate: .nan))
        XCTAssertNil(FileTime(referenceDate: 1e300))
    }
}

final class ScanDelimitedFormatterTests: XCTestCase {
    func testQuotingAndSpreadsheetFormulas() {
        func csv(_ text: String) -> String { ScanDelimitedFormatter.field(.text(text), .csv) }
        XCTAssertEqual(csv("com.example.app"), "com.example.app")
        XCTAssertEqual(csv("a,b"), "\"a,b\"")
        XCTAssertEqual(csv("say \"hi\""), "\"say \"\"hi\"\"\"")
        XCTAssertEqual(csv("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"")
        XCTAssertEqual(csv("+1"), "'+1")
        XCTAssertEqual(csv("@sum"), "'@sum")
        XCTAssertEqual(ScanDelimitedFormatter.field(.text("-x,y"), .tsv), "-x,y", "TSV keeps values as they are")
        XCTAssertEqual(ScanDelimitedFormatter.field(.text("=1+1"), .csv, formulaGuard: false), "=1+1", "--no-formula-guard")
        XCTAssertEqual(ScanDelimitedFormatter.field(.number(-3), .csv), "-3", "numbers are the tool's own")
        XCTAssertEqual(ScanDelimitedFormatter.field(nil, .csv), "")
    }

    /// Names from the file system are escaped before they become fields: one line per row.
    func testEveryRowIsOneLine() {
        var row = ScanRow(path: "/d/a\nb\tc.savedState/data.data", bundleIdentifier: "a\nb\tc", sceneSession: "s\r1")
        row.systemVersion = "17\u{1B}[31m"
        row.reason = "line one\nline two"
        row.isUnreadable = true
        row.timestamp = 0
        row.modificationTime = FileTime(seconds: 0, nanoseconds: 0)
        for (dialect, timeline) in [(ScanDelimitedFormatter.Dialect.csv, false), (.tsv, false), (.csv, true), (.tsv, true)] {
            let text = timeline ? ScanDelimitedFormatter.format(ScanTimelineEvent.events([row]), dialect: dialect)
                : ScanDelimitedFormatter.format([row], dialect: dialect)
            let lines = text.utf8.split(separator: UInt8(ascii: "\n"))
            XCTAssertEqual(lines.count, timeline ? 3 : 2, text)
            XCTAssertFalse(text.utf8.contains(0x1B), text)
            let separators = lines.map { $0.filter { $0 == (dialect == .csv ? UInt8(ascii: ",") : UInt8(ascii: "\t")) }.count }
            // (A CSV time line's message is quoted and holds commas: Python's csv module reads
            // those in ScanFormatTests.)
            if dialect == .tsv || !timeline { XCTAssertTrue(separators.allSatisfy { $0 == separators[0] }, text) }
        }
    }
}

final class ScanOrderTests: XCTestCase {
    /// Newest first; a time that is no number (NaN) or infinite sorts with the rows that have
    /// none, last, by path: the order does not depend on where such a row started.
    func testRowsWithoutAFiniteTimeComeLast() {
        let times: [Double?] = [900_000_000, .nan, 300_000_000, nil, 700_000_000, .infinity]
        for rotation in times.indices {
            var rows = times.indices.map { index in
                var row = ScanRow(path: "p\(index)", bundleIdentifier: "b", sceneSession: nil)
                row.timestamp = times[index]
                return row
            }
            rows = Array(rows[rotation...] + rows[..<rotation])
            rows.sort(by: ScanRow.newestFirst)
            XCTAssertEqual(rows.map(\.path), ["p0", "p4", "p2", "p1", "p3", "p5"], "starting at \(rotation)")
        }
    }

    /// The last second of 9999 is a time like any other; one past what can be shown (year
    /// 10 000 and later) sorts as its "-" reads, with the rows that have none.
    func testATimeThatCannotBeShownSortsAsNone() {
        let lastSecond = 252_423_993_599.0   // 9999-12-31T23:59:59Z, in seconds since 2001
        let times: [Double?] = [nil, lastSecond + 1e9, 0, lastSecond]
        var rows = times.indices.map { index in
            var row = ScanRow(path: "p\(index)", bundleIdentifier: "b", sceneSession: nil)
            row.timestamp = times[index]
            return row
        }
        rows.sort(by: ScanRow.newestFirst)
        XCTAssertEqual(rows.map(\.path), ["p3", "p2", "p0", "p1"])
    }
}
