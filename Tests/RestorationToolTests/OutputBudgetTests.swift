import Foundation
import XCTest

/// Issue 34's rows 1 to 4 and 16: output is produced against its budget as it is built, so
/// that refusing costs no more than the budget; an error names the files and the limit given.
/// (Time and memory are measured by Tests/Hostile/harness.py on the release build.)
final class OutputBudgetTests: XCTestCase {
    private let braces = ["Fixtures/amplification/shared-braces-a.data", "Fixtures/amplification/shared-braces-b.data"]
    private let limit = "1000000"

    func testDiffStopsAtTheBudget() throws {
        for json in [[], ["--json"]] {
            let run = try ToolRunner.run(["diff"] + json + ["--max-output-size", limit] + braces)
            XCTAssertEqual(run.status, 2, "\(json)")
            XCTAssertEqual(run.stdout, "")
            XCTAssertEqual(run.stderr, "restoration-tool: \(braces[1]): error: the output goes past the limit of 1000000 bytes (--max-output-size); nothing of it is written\n")
        }
    }

    func testGraphsStopAtTheBudget() throws {
        for format in ["dot", "mermaid"] {
            let run = try ToolRunner.run(["tree", "--format", format, "--max-output-size", limit, braces[0]])
            XCTAssertEqual(run.status, 2, format)
            XCTAssertEqual(run.stdout, "")
            XCTAssertEqual(run.stderr, "restoration-tool: \(braces[0]): error: the output goes past the limit of 1000000 bytes (--max-output-size); nothing of it is written\n")
        }
        // Several files' graph: named by its last file, the count said.
        let files = ["Fixtures/ios8-tabbar.data", "Fixtures/ios7-plain.data"]
        let whole = try ToolRunner.run(["tree", "--format", "mermaid"] + files).stdout.utf8.count
        let several = try ToolRunner.run(["tree", "--format", "mermaid", "--max-output-size", "\(whole - 1)"] + files)
        XCTAssertEqual(several.status, 2)
        XCTAssertEqual(several.stdout, "")
        XCTAssertEqual(several.stderr, "restoration-tool: Fixtures/ios7-plain.data: error: the output goes past the limit of \(whole - 1) bytes (--max-output-size) with the 2 files, this one the last; nothing of it is written\n")
    }

    /// Three files' JSON: each tree is built within what the trees before it left, and the error
    /// names the file whose tree passed the limit, not "(standard input)".
    func testSeveralDocumentsShareOneBudget() throws {
        let small = "Fixtures/ios8-tabbar.data"
        let one = try ToolRunner.run(["tree", "--json", small]).stdout.utf8.count
        let run = try ToolRunner.run(["tree", "--json", "--max-output-size", "\(one * 2)", small, small, braces[0]])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, "restoration-tool: \(braces[0]): error: the output goes past the limit of \(one * 2) bytes (--max-output-size); nothing of it is written\n")
        let pair = [small, "Fixtures/ios7-plain.data"]
        let whole = try ToolRunner.run(["dump", "--json"] + pair).stdout.utf8.count
        let dump = try ToolRunner.run(["dump", "--json", "--max-output-size", "\(whole - 1)"] + pair)
        XCTAssertEqual(dump.status, 2)
        XCTAssertEqual(dump.stderr, "restoration-tool: Fixtures/ios7-plain.data: error: the output goes past the limit of \(whole - 1) bytes (--max-output-size) with the 2 files, this one the last; nothing of it is written\n")
    }

    /// JSON Lines names the limit given, not the budget left when the line passed it.
    func testJSONLinesNameTheLimitGiven() throws {
        let run = try ToolRunner.run(["scan", "--format", "jsonl", "--max-output-size", "1500", "Fixtures/validate"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("goes past the limit of 1500 bytes (--max-output-size)"), run.stderr)
    }
}
