import Foundation
import XCTest

/// `scan --format csv|tsv|jsonl` and `--timeline`, read back by Python's `csv` and `json` modules
/// and `datetime.fromisoformat` (readers we did not write) and compared with `--format json`.
final class ScanFormatTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        let fileManager = FileManager.default
        root = fileManager.temporaryDirectory.appendingPathComponent("scan-formats-\(UUID().uuidString)")
        // Names a spreadsheet or a CSV reader could trip on: a formula, a comma and a quote, a
        // line break and a tab.
        for (index, bundle) in ["com.example.plain", "=HYPERLINK(\"http://x\",\"y\")", "a,b\"c", "line\nbreak\tand tab"].enumerated() {
            let state = root.appendingPathComponent("app\(index)/\(bundle).savedState")
            try fileManager.createDirectory(at: state, withIntermediateDirectories: true)
            let fixture = index == 3 ? "hostile/truncated-trailer.data" : index == 2 ? "ios7-plain.data" : "validate/dangling-reference.data"
            try fileManager.copyItem(atPath: ToolRunner.fixture(fixture), toPath: state.appendingPathComponent("data.data").path)
        }
        try fileManager.copyItem(atPath: ToolRunner.fixture("validate/pending-discard.savedState/inprogress.data"),
                                 toPath: root.appendingPathComponent("app0/com.example.plain.savedState/inprogress.data").path)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func python(_ script: String, input: String) throws -> Any {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return try JSONSerialization.jsonObject(with: output)
    }

    private func archives() throws -> [[String: Any]] {
        let run = try ToolRunner.run(["scan", "--format", "json", root.path])
        XCTAssertEqual(run.status, 2, "the truncated archive cannot be read")
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return try XCTUnwrap(document["archives"] as? [[String: Any]])
    }

    func testCSVAndTSVHoldWhatJSONHolds() throws {
        let archives = try archives()
        XCTAssertEqual(archives.count, 4)
        for (format, reader) in [("csv", "csv.reader(io.StringIO(sys.stdin.read(), newline=''))"),
                                 ("tsv", "csv.reader(io.StringIO(sys.stdin.read(), newline=''), delimiter='\\t', quoting=csv.QUOTE_NONE)")] {
            let run = try ToolRunner.run(["scan", "--format", format, root.path])
            XCTAssertEqual(run.status, 2)
            XCTAssertTrue(run.stderr.contains(": warning: inprogress.data shows 0 restore attempts left"), run.stderr)
            if format == "csv" { XCTAssertTrue(run.stdout.hasSuffix("\r\n") && !run.stdout.replacingOccurrences(of: "\r\n", with: "").contains("\n")) }
            let table = try XCTUnwrap(try python("import csv, io, json, sys\nprint(json.dumps(list(\(reader))))", input: run.stdout) as? [[String]])
            XCTAssertEqual(table.first, ["saved", "modified", "bundle_id", "scene", "bundle_version", "system_version", "objects", "status",
                                         "errors", "warnings", "findings", "reason", "size", "sha256", "path"])
            XCTAssertEqual(table.count, 1 + archives.count, format)
            for (cells, archive) in zip(table.dropFirst(), archives) {
                XCTAssertEqual(cells.count, 15, "\(cells)")
                let row = Dictionary(uniqueKeysWithValues: zip(table[0], cells))
                let bundle = try XCTUnwrap(archive["bundleIdentifier"] as? String)
                let shown = bundle.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t")
                XCTAssertEqual(row["bundle_id"], bundle.hasPrefix("=") ? "'" + shown : shown, format)
                XCTAssertEqual(row["saved"], archive["timestamp"] as? String ?? "", format)
                XCTAssertEqual(row["modified"], archive["modified"] as? String ?? "", format)
                XCTAssertEqual(row["status"], archive["status"] as? String, format)
                XCTAssertEqual(row["objects"], (archive["objects"] as? Int).map(String.init) ?? "", format)
                XCTAssertEqual(row["findings"], (archive["findings"] as? [String])?.joined(separator: " "), format)
                XCTAssertEqual(row["size"], (archive["size"] as? Int).map(String.init), format)
                XCTAssertEqual(row["sha256"], archive["sha256"] as? String, format)
                XCTAssertEqual(row["sha256"]?.count, 64, format)
            }
            let statuses = table.dropFirst().map { $0[7] }
            XCTAssertEqual(Set(statuses), ["invalid", "valid", "unreadable"], format)
        }
    }

    func testJSONLinesAreTheJSONArchives() throws {
        let archives = try archives()
        let run = try ToolRunner.run(["scan", "--format", "jsonl", root.path])
        let lines = run.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, archives.count)
        for (line, archive) in zip(lines, archives) {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary)
            XCTAssertEqual(object, archive as NSDictionary)
        }
    }

    /// The time line as Timesketch reads it: `message`, `datetime`, `timestamp_desc` on every
    /// row, `datetime` ISO 8601 and equal to `timestamp` (microseconds), oldest first; one event
    /// per saved time and one per file modification time.
    func testTimelineForTimesketch() throws {
        let archives = try archives()
        let savedTimes = archives.filter { $0["timestamp"] is String }.count
        let check = """
            import csv, datetime, io, json, sys
            text = sys.stdin.read()
            rows = list(csv.DictReader(io.StringIO(text, newline=''))) if not text.startswith('{') else [json.loads(l) for l in text.splitlines()]
            out = []
            for row in rows:
                when = datetime.datetime.fromisoformat(row['datetime'])
                micro = (when - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)) // datetime.timedelta(microseconds=1)
                out.append([str(micro), str(row['timestamp']), row['timestamp_desc'], row['message'], str(when.utcoffset())])
            print(json.dumps(out))
            """
        for format in ["csv", "jsonl"] {
            let run = try ToolRunner.run(["scan", "--timeline", "--format", format, root.path])
            XCTAssertEqual(run.status, 2)
            let events = try XCTUnwrap(try python(check, input: run.stdout) as? [[String]])
            XCTAssertEqual(events.count, savedTimes + archives.count, format)
            XCTAssertEqual(events.map { $0[0] }, events.map { $0[1] }, "datetime and timestamp agree")
            XCTAssertEqual(events.map { Int64($0[1])! }, events.map { Int64($0[1])! }.sorted(), "oldest first")
            XCTAssertEqual(Set(events.map { $0[2] }), ["State Saved Time", "Content Modification Time"])
            XCTAssertTrue(events.allSatisfy { $0[4] == "0:00:00" && !$0[3].isEmpty })
            XCTAssertTrue(events.contains { $0[3].hasPrefix("com.example.plain state restoration archive saved: invalid (2 errors, 1 warning), discard pending, ") }, "\(events)")
        }
        // 2013-11-02T09:30:15.25Z, the iOS 7 fixture's saved time, to the microsecond.
        let csv = try ToolRunner.run(["scan", "--timeline", root.path]).stdout
        XCTAssertTrue(csv.hasPrefix("datetime,timestamp,timestamp_desc,message,saved,modified,"), csv)
        XCTAssertTrue(csv.contains("\r\n2013-11-02T09:30:15.25+00:00,1383384615250000,State Saved Time,"), csv)
    }

    func testFormatErrors() throws {
        for arguments in [["--timeline", "--format", "table"], ["--json", "--format", "csv"], ["--format", "xml"]] {
            let run = try ToolRunner.run(["scan"] + arguments + [root.path])
            XCTAssertEqual(run.status, 64, arguments.joined(separator: " "))
            XCTAssertTrue(run.stderr.hasPrefix("restoration-tool: error: "), run.stderr)
            XCTAssertEqual(run.stdout, "")
        }
    }
}
