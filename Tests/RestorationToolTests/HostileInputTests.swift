import Foundation
import XCTest

/// Every file in Fixtures/hostile attacks one thing; the tool must finish quickly with the
/// documented error, or with a correct result, and leave the file untouched.
final class HostileInputTests: XCTestCase {
    /// Generous: each file takes milliseconds; a hang or an expansion would take far longer.
    static let timeBound = 5.0

    /// File → the error it must give (a prefix of the message after "error: "), or nil for success.
    static let expectations: [String: String?] = [
        "empty.data": "file is empty",
        "random.data": "not a property list: neither a binary (bplist00) nor an XML header (at byte 0)",
        "bad-magic.data": "unsupported binary property list version 'bplist01'",
        "truncated-trailer.data": "trailer gives an offset size of",
        "truncated-objects.data": "trailer's offset table position 8495 lies outside the object area",
        "offset-out-of-range.data": "object 2 has offset 4294967295, outside the object area",
        "top-object-out-of-range.data": "trailer's top object 8 is out of range (8 objects)",
        "object-count-out-of-range.data": "offset table of 1099511627776 entries of 1 bytes runs past the trailer",
        "ref-out-of-range.data": "object reference 2 is out of range (2 objects)",
        "plist-cycle.data": "reference cycle: object 0 contains itself",
        "shared-bomb.data": "the input expands to more than the limit of 5000000 values (--max-nodes)",
        "nested-arrays.data": "values nest deeper than the limit of 512 levels (--max-depth)",
        "nested-archives.data": "keyed archives nest deeper than the limit of 16 levels (--max-archive-depth)",
        "uid-bomb.data": "the input expands to more than the limit of 5000000 values (--max-nodes)",
        "many-entry-bombs.data": "the input expands to more than the limit of 5000000 values (--max-nodes)",
        "shared-string-bomb.data": "strings and data expand to more than the limit of 256M (--max-expanded-bytes)",
        "uid-out-of-range.data": "UID 9999 is out of range",
        "class-not-dict.data": "the $class of object 1 (UID 2) is a string without a $classname, not a class dictionary",
        "objects-not-array.data": "not a keyed archive: $objects is a dictionary, not an array",
        "huge-data-length.data": "object declares a length of 4294967296, larger than the file (151 bytes)",
        "uid-cycle.data": nil,
        "utf16-nul.data": nil,
        "ascii-invalid-utf8.data": nil,
        "int16.data": nil,
        "date-extremes.data": nil,
        "long-path.data": nil,
        "demangling-bomb.data": nil,
        "escape-bomb.data": "strings and data expand to more than the limit of 256M (--max-expanded-bytes)",
        "xml-deep-newline.xml": "values nest deeper than the limit of 512 levels (--max-depth) (at line 516, column 2)",
        "xml-entity-bomb.xml": "not a well-formed XML property list: the document type declares entities, which are not read (at line 3, column 1)",
        "xml-unclosed.xml": "not a well-formed XML property list: the property list ends inside <string> (at line 4, column 27)",
    ]

    func testEveryHostileFileHasAnExpectation() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: ToolRunner.fixture("hostile"))
        XCTAssertEqual(Set(files), Set(Self.expectations.keys))
    }

    func testTextDump() throws {
        try check(["dump"])
    }

    func testJSONDump() throws {
        try check(["dump", "--json"])
    }

    private func check(_ command: [String]) throws {
        for (name, expectedError) in Self.expectations.sorted(by: { $0.key < $1.key }) {
            let path = "Fixtures/hostile/" + name
            let before = try fingerprint(path)
            let run = try ToolRunner.run(command + [path])
            XCTAssertLessThan(run.seconds, Self.timeBound, name)
            XCTAssertEqual(try fingerprint(path), before, "\(name) was modified")
            if let expectedError {
                XCTAssertEqual(run.status, 2, name)
                XCTAssertEqual(run.stdout, "", name)
                let prefix = "restoration-tool: \(path): error: \(expectedError)"
                XCTAssertTrue(run.stderr.hasPrefix(prefix), "\(name): \(run.stderr)")
                XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, "one line: \(run.stderr)")
            } else {
                XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)")
                XCTAssertEqual(run.stderr, "", name)
                XCTAssertFalse(run.stdout.isEmpty, name)
            }
        }
    }

    func testValidate() throws {
        try checkRestorationCommand(["validate"])
        try checkRestorationCommand(["validate", "--json"])
    }

    func testTree() throws {
        try checkRestorationCommand(["tree"])
    }

    /// Each hostile file as either side of a diff against a clean archive.
    func testDiff() throws {
        try checkRestorationCommand(["diff", "Fixtures/validate/clean.data"])
        try checkRestorationCommand(["diff", "--json"], after: ["Fixtures/validate/clean.data"])
    }

    /// The commands that need a restoration archive: the documented error where `dump` has one;
    /// otherwise a result (0 or 1), or, for a keyed archive that is not a restoration archive,
    /// status 2 with the one line that says so.
    private func checkRestorationCommand(_ command: [String], after: [String] = []) throws {
        for (name, expectedError) in Self.expectations.sorted(by: { $0.key < $1.key }) {
            let path = "Fixtures/hostile/" + name
            let before = try fingerprint(path)
            let run = try ToolRunner.run(command + [path] + after)
            let label = "\(command) \(name)"
            XCTAssertLessThan(run.seconds, Self.timeBound, label)
            XCTAssertEqual(try fingerprint(path), before, "\(name) was modified")
            let comparing = command.first == "diff"
            if let expectedError {
                XCTAssertEqual(run.status, 2, label)
                XCTAssertEqual(run.stdout, "", label)
                // diff decodes its two files at the same time, each within half of what is left
                // of the run's budget: a bomb that passes one file's limit passes that first.
                let passesFileLimit = expectedError.contains("(--max-nodes)") || expectedError.contains("(--max-expanded-bytes)")
                let expected = comparing && passesFileLimit ? "the files of this run together expand to more than their budget" : expectedError
                XCTAssertTrue(run.stderr.hasPrefix("restoration-tool: \(path): error: \(expected)"), "\(label): \(run.stderr)")
                XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, "one line: \(run.stderr)")
            } else if run.status == 2 {
                XCTAssertEqual(run.stdout, "", label)
                // diff compares any two files of one kind: a generic keyed archive is of another
                // kind than the restoration archive it is compared with.
                let refusal = comparing
                    ? "error: a keyed archive, not a UIKit state-restoration archive as Fixtures/validate/clean.data is: nothing to compare\n"
                    : "\(path): error: not a UIKit state-restoration archive (a keyed archive without kUIStateRestorationArchiveMajorVersionKey or kRootRestorationIdentifiersKey)\n"
                let refusedTheOtherWay = "restoration-tool: Fixtures/validate/clean.data: error: a UIKit state-restoration archive, not a keyed archive as \(path) is: nothing to compare\n"
                XCTAssertTrue(run.stderr.hasPrefix("restoration-tool: ") && run.stderr.hasSuffix(refusal) || comparing && run.stderr == refusedTheOtherWay, "\(label): \(run.stderr)")
                XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, "one line: \(run.stderr)")
            } else {
                XCTAssertTrue([0, 1].contains(run.status), "\(label): \(run.status) \(run.stderr)")
                XCTAssertEqual(run.stderr, "", label)
                XCTAssertFalse(run.stdout.isEmpty, label)
            }
        }
    }

    func testHostileStringsAreEscapedInText() throws {
        let run = try ToolRunner.run(["dump", "Fixtures/hostile/utf16-nul.data"])
        XCTAssertTrue(run.stdout.contains(#"title....."A\u{0}B"#), run.stdout)
        XCTAssertFalse(run.stdout.unicodeScalars.contains { $0.value == 0 })
    }

    func testExtremeValuesKeepTheirExactValue() throws {
        let ints = try ToolRunner.run(["dump", "--json", "Fixtures/hostile/int16.data"])
        XCTAssertTrue(ints.stdout.contains(#""twoPow64": {"# + "\n" + #"      "$integer": "18446744073709551616""#), ints.stdout)
        XCTAssertTrue(ints.stdout.contains(#""$integer": "170141183460469231731687303715884105727""#))
        let dates = try ToolRunner.run(["dump", "--json", "Fixtures/hostile/date-extremes.data"])
        XCTAssertTrue(dates.stdout.contains(#""$real": "nan""#), dates.stdout)
        XCTAssertTrue(dates.stdout.contains(#""referenceSeconds": 1e+300"#), dates.stdout)
    }

    /// Output from structure alone (16 KB that print 295 MB): past --max-output-size nothing of
    /// a file's output is written, and making it stops there.
    func testOutputPastTheLimitIsNotWritten() throws {
        let path = "Fixtures/amplification/structure-bomb.data"
        for command in [["dump"], ["dump", "--raw"], ["dump", "--json"]] {
            let run = try ToolRunner.run(command + ["--max-output-size", "1000000", path])
            XCTAssertEqual(run.status, 2, "\(command)")
            XCTAssertEqual(run.stdout, "", "\(command)")
            XCTAssertEqual(run.stderr, "restoration-tool: \(path): error: the output goes past the limit of 1000000 bytes (--max-output-size); nothing of it is written\n", "\(command)")
            XCTAssertLessThan(run.seconds, Self.timeBound, "\(command)")
        }
        // Another file of the same run is still written; the status is the worst.
        let run = try ToolRunner.run(["dump", "--max-output-size", "1000000", path, "Fixtures/ios7-plain.data"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stdout.hasPrefix("File: Fixtures/ios7-plain.data\n"), run.stdout)
        let fits = try ToolRunner.run(["diff", "--max-output-size", "100", "Fixtures/diff/state-a.data", "Fixtures/diff/state-b.data"])
        XCTAssertEqual(fits.status, 2)
        XCTAssertEqual(fits.stdout, "")
    }

    func testRaisedLimitsDoNotCrash() throws {
        // Far beyond what the main thread's stack could take: decoding runs on a sized stack.
        let run = try ToolRunner.run(["dump", "--max-depth", "4096", "--max-archive-depth", "256", "Fixtures/hostile/nested-arrays.data"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("values nest deeper than the limit of 4096 levels (--max-depth)"), run.stderr)
        let archives = try ToolRunner.run(["dump", "--json", "--max-depth", "4096", "--max-archive-depth", "256", "Fixtures/hostile/nested-archives.data"])
        XCTAssertEqual(archives.status, 2)
        XCTAssertTrue(archives.stderr.contains("keyed archives nest deeper than the limit of 256 levels"), archives.stderr)
    }

    private func fingerprint(_ path: String) throws -> [String] {
        let full = ToolRunner.packageRoot + "/" + path
        let attributes = try FileManager.default.attributesOfItem(atPath: full)
        let data = try Data(contentsOf: URL(fileURLWithPath: full))
        return ["\(data.count)", "\(data.hashValue)", "\(attributes[.modificationDate] ?? "")"]
    }
}
