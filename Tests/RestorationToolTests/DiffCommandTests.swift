import Foundation
import XCTest

final class DiffCommandTests: XCTestCase {
    static let pairs = ["metadata", "objects", "state", "children", "class", "views", "normalization", "shared-bytes", "unlisted"]

    func testGoldenTextAndJSON() throws {
        for pair in Self.pairs {
            let arguments = ["Fixtures/diff/\(pair)-a.data", "Fixtures/diff/\(pair)-b.data"]
            let text = try ToolRunner.run(["diff"] + arguments)
            XCTAssertEqual(text.status, 1, "\(pair): \(text.stderr)")
            try GoldenFiles.assertMatches(text.stdout, "diff-\(pair).txt")
            let json = try ToolRunner.run(["diff", "--json"] + arguments)
            XCTAssertEqual(json.status, 1, pair)
            try GoldenFiles.assertMatches(json.stdout, "diff-\(pair).json")
        }
    }

    func testIdenticalPairsExitZero() throws {
        let identical = [
            ("Fixtures/ios8-tabbar.data", "Fixtures/ios8-tabbar.xml"),
            ("Fixtures/validate/clean.data", "Fixtures/diff/xml-twin.xml"),
            ("Fixtures/diff/reordered-keys-base.data", "Fixtures/diff/reordered-keys.data"),
            ("Fixtures/values.data", "Fixtures/values.data"),
            ("Fixtures/hostile/long-path.data", "Fixtures/hostile/long-path.data"),
        ]
        for (a, b) in identical {
            let run = try ToolRunner.run(["diff", a, b])
            XCTAssertEqual(run.status, 0, "\(a) vs \(b): \(run.stdout)\(run.stderr)")
            XCTAssertEqual(run.stdout, "")
            let json = try ToolRunner.run(["diff", "--json", a, b])
            let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            XCTAssertEqual(document["identical"] as? Bool, true)
            XCTAssertEqual((document["changes"] as? [Any])?.count, 0)
        }
    }

    func testJSONShape() throws {
        let run = try ToolRunner.run(["diff", "--json", "Fixtures/diff/state-a.data", "Fixtures/diff/state-b.data"])
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["schemaVersion"] as? Int, 1)
        XCTAssertEqual(document["identical"] as? Bool, false)
        let changes = try XCTUnwrap(document["changes"] as? [[String: Any]])
        let interval = try XCTUnwrap(changes.first { ($0["path"] as? [String])?.last == "interval" })
        XCTAssertEqual(interval["change"] as? String, "changed")
        XCTAssertEqual(interval["path"] as? [String], ["state", "preferences", "sync", "interval"])
        XCTAssertEqual(interval["old"] as? Int, 30)
        XCTAssertEqual(interval["new"] as? Int, 60)
        let removed = try XCTUnwrap(changes.first { $0["change"] as? String == "removed" })
        XCTAssertNil(removed["new"], "new is absent where it does not apply")
    }

    func testIgnore() throws {
        let run = try ToolRunner.run(["diff", "--ignore", "timestamp", "--ignore", "bundleVersion", "--ignore", "systemVersion",
                                      "--ignore", "userInterfaceIdiom", "--ignore", "AppLaunchCount", "--ignore", "restorationClassMap",
                                      "Fixtures/diff/metadata-a.data", "Fixtures/diff/metadata-b.data"])
        XCTAssertEqual(run.status, 0, run.stdout)
    }

    func testColor() throws {
        let arguments = ["Fixtures/diff/class-a.data", "Fixtures/diff/class-b.data"]
        XCTAssertFalse(try ToolRunner.run(["diff"] + arguments).stdout.contains("\u{1B}["), "not a terminal: no color")
        XCTAssertTrue(try ToolRunner.run(["diff", "--color", "always"] + arguments).stdout.contains("\u{1B}[33m~ "))
        XCTAssertTrue(try ToolRunner.run(["diff", "--color", "always"] + arguments, environment: ["NO_COLOR": "1"]).stdout.contains("\u{1B}["),
                      "an explicit --color always wins over NO_COLOR")
        XCTAssertFalse(try ToolRunner.run(["diff", "--color", "never"] + arguments).stdout.contains("\u{1B}["))
        XCTAssertEqual(try ToolRunner.run(["diff", "--color", "sometimes"] + arguments).status, 64)
    }

    func testTroubleExitsTwo() throws {
        let missing = try ToolRunner.run(["diff", "Fixtures/validate/clean.data", "Fixtures/nope.data"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stdout, "")
        XCTAssertEqual(missing.stderr, "restoration-tool: Fixtures/nope.data: error: cannot open: No such file or directory\n")
        // Both sides are read (at the same time) and reported, the older first.
        let neither = try ToolRunner.run(["diff", "Fixtures/nope-a.data", "Fixtures/hostile/empty.data"])
        XCTAssertEqual(neither.status, 2)
        XCTAssertEqual(neither.stdout, "")
        XCTAssertEqual(neither.stderr, """
            restoration-tool: Fixtures/nope-a.data: error: cannot open: No such file or directory
            restoration-tool: Fixtures/hostile/empty.data: error: file is empty

            """)
        XCTAssertEqual(try ToolRunner.run(["diff", "Fixtures/plain.plist", "Fixtures/validate/clean.data"]).status, 2)
        // A generic keyed archive is compared with another, not with a restoration archive.
        let generic = try ToolRunner.run(["diff", "Fixtures/not-restoration.data", "Fixtures/validate/clean.data"])
        XCTAssertEqual(generic.status, 2)
        XCTAssertEqual(generic.stderr, "restoration-tool: Fixtures/validate/clean.data: error: a UIKit state-restoration archive, not a keyed archive as Fixtures/not-restoration.data is: nothing to compare\n")
        XCTAssertEqual(try ToolRunner.run(["diff", "Fixtures/validate/clean.data"]).status, 64)
        XCTAssertEqual(try ToolRunner.run(["diff", "-", "-"]).status, 64)
    }

    /// 1.4 KB files that differ at 262 144 paths: the JSON document that cannot fit the output
    /// limit is refused before it is built (it took 2.5 GB and 20 s), the text stops at the limit.
    func testDiffsLargerThanTheOutputLimitAreNotBuilt() throws {
        let pair = ["Fixtures/amplification/diff-shared-a.data", "Fixtures/amplification/diff-shared-b.data"]
        for json in [[], ["--json"]] {
            let run = try ToolRunner.run(["diff"] + json + ["--max-output-size", "1000000"] + pair)
            XCTAssertEqual(run.status, 2, "\(json)")
            XCTAssertEqual(run.stdout, "")
            XCTAssertEqual(run.stderr, "restoration-tool: \(pair[1]): error: the output goes past the limit of 1000000 bytes (--max-output-size); nothing of it is written\n")
        }
        let json = try ToolRunner.run(["diff", "--json"] + pair)
        XCTAssertEqual(json.status, 2, "2.5 GB of nodes are not built for a document past 64 MiB")
        XCTAssertLessThan(json.seconds, 5)
    }

    /// Each of 2 000 change lines named a 20 000-character key in full.
    func testLongKeysAreCutInChangeLines() throws {
        let run = try ToolRunner.run(["diff", "Fixtures/amplification/diff-long-key-a.data", "Fixtures/amplification/diff-long-key-b.data"])
        XCTAssertEqual(run.status, 1, run.stderr)
        let lines = run.stdout.split(separator: "\n").filter { $0.hasPrefix("~ ") }
        XCTAssertEqual(lines.count, 2000)
        XCTAssertTrue(lines.allSatisfy { $0.count < 200 }, String(lines[0]))
        XCTAssertTrue(lines[0].hasPrefix("~ state.\"" + String(repeating: "L", count: 119) + "…\".v"), String(lines[0]))
    }

    func testStandardInputSide() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: ToolRunner.fixture("validate/clean.data")))
        let run = try ToolRunner.run(["diff", "-", "Fixtures/diff/xml-twin.xml"], input: bytes)
        XCTAssertEqual(run.status, 0, run.stderr)
    }
}
