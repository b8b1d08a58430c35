import Foundation
import RestorationKit
import XCTest

final class DumpCommandTests: XCTestCase {
    // MARK: Golden output

    func testTextGoldenOutput() throws {
        for name in ["ios8-tabbar.data", "ios7-plain.data", "values.data", "not-restoration.data"] {
            let run = try ToolRunner.run(["dump", "Fixtures/" + name])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stderr, "")
            try GoldenFiles.assertMatches(run.stdout, name + ".txt")
        }
    }

    func testJSONGoldenOutput() throws {
        for name in ["ios8-tabbar.data", "ios7-plain.data", "values.data", "not-restoration.data", "many-objects.data"] {
            let run = try ToolRunner.run(["dump", "--json", "Fixtures/" + name])
            XCTAssertEqual(run.status, 0, run.stderr)
            try GoldenFiles.assertMatches(run.stdout, name + ".json")
        }
    }

    /// Documents go out whole and as the library writes them: the tool gathers the text before
    /// writing any of it, keeping the runs of objects written on other processors where they
    /// are, between copied text (a generated archive of 300 objects, whose states the document
    /// writes from the decoder's tape), and copying the rest in blocks, a piece longer than a
    /// block in a block of its own (tens of megabytes).
    func testDocumentsAreWrittenAsTheLibraryRendersThem() throws {
        let large = try Self.generatedArchive(objects: 300)
        defer { try? FileManager.default.removeItem(atPath: large) }
        let shared = "Fixtures/amplification/diff-shared-a.data"
        for files in [[large], [shared, large, shared]] {
            let run = try ToolRunner.run(["dump", "--json", "--max-output-size", "200000000"] + files)
            XCTAssertEqual(run.status, 0, run.stderr)
            let documents = try files.map { file in
                try DumpDocument(contentsOf: file.hasPrefix("/") ? file : ToolRunner.packageRoot + "/" + file, file: file)
            }
            let expected = JSONOutput.text(documents, asArray: files.count > 1)
            XCTAssertGreaterThan(expected.utf8.count, files.count > 1 ? 60 << 20 : 300_000)
            XCTAssertEqual(run.stdout.utf8.count, expected.utf8.count)
            XCTAssertTrue(run.stdout == expected, "the tool's text differs from the library's: \(files)")
        }
        // The states written from the tape are those of the values made whole.
        let whole = DumpDocument(file: large, archive: try RestorationArchive(contentsOf: large))
        XCTAssertTrue(try ToolRunner.run(["dump", "--json", large]).stdout == (JSONOutput.text([whole], asArray: false)))
    }

    /// A restoration archive of `objects` saved objects written by the fixture generator (the
    /// benchmark's shape) into a temporary file, whose path this returns.
    static func generatedArchive(objects: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("generated-\(UUID().uuidString).data").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import random, sys
            sys.path.insert(0, sys.argv[1])
            import generate
            open(sys.argv[2], "wb").write(generate.benchmark_archive(random.Random(1), int(sys.argv[3])))
            """, ToolRunner.fixture(""), path, String(objects)]
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus == 127 { throw XCTSkip("python3 is not installed") }
        XCTAssertEqual(process.terminationStatus, 0)
        return path
    }

    func testXMLDumpsLikeItsBinaryTwin() throws {
        let binary = try ToolRunner.run(["dump", "Fixtures/ios8-tabbar.data"])
        let xml = try ToolRunner.run(["dump", "Fixtures/ios8-tabbar.xml"])
        XCTAssertEqual(xml.status, 0, xml.stderr)
        XCTAssertEqual(
            xml.stdout.replacingOccurrences(of: "ios8-tabbar.xml", with: "ios8-tabbar.data"), binary.stdout)
    }

    func testNoDemangle() throws {
        let run = try ToolRunner.run(["dump", "--no-demangle", "Fixtures/ios8-tabbar.data"])
        XCTAssertTrue(run.stdout.contains("Restoration Class...._TtC20StateRestorationDemo18CityViewController\n"))
        XCTAssertFalse(run.stdout.contains("StateRestorationDemo.CityViewController"))
    }

    // MARK: JSON shape

    func testJSONDocumentShape() throws {
        let run = try ToolRunner.run(["dump", "--json", "Fixtures/ios8-tabbar.data"])
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["schemaVersion"] as? Int, 1)
        XCTAssertEqual(document["timestamp"] as? String, "2014-07-06T16:05:18Z")
        XCTAssertEqual((document["userInterfaceIdiom"] as? [String: Any])?["name"] as? String, "phone")
        let objects = try XCTUnwrap(document["objects"] as? [[String: Any]])
        XCTAssertEqual(objects.count, 7)
        let withClass = objects.filter { !($0["restorationClass"] is NSNull) }
        XCTAssertEqual(withClass.count, 1)
        XCTAssertEqual(withClass.first?["restorationClassDemangled"] as? String, "StateRestorationDemo.CityViewController")
        let tab = try XCTUnwrap(objects.first)
        XCTAssertEqual(tab["components"] as? [String], ["TabController"])
        let selected = (tab["state"] as? [String: Any])?["kTabBarSelectedViewControllerKey"] as? [String: Any]
        XCTAssertEqual(selected?["$ref"] as? String, "TabController/:[1]:/NavigationController")
    }

    func testAbsentMetadataIsNull() throws {
        let run = try ToolRunner.run(["dump", "--json", "Fixtures/ios7-plain.data"])
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertTrue(document["bundleVersion"] is NSNull)
        XCTAssertEqual(document["timestamp"] as? String, "2013-11-02T09:30:15.25Z")
        XCTAssertEqual((document["restorationClassMap"] as? [String: Any])?.count, 0)
    }

    func testSeveralFilesGiveAnArrayAndTheWorstStatus() throws {
        let run = try ToolRunner.run(["dump", "--json", "Fixtures/ios7-plain.data", "Fixtures/hostile/random.data", "Fixtures/values.data", "Fixtures/plain.plist"])
        XCTAssertEqual(run.status, 2)
        let documents = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(documents.map { $0["file"] as? String }, ["Fixtures/ios7-plain.data", "Fixtures/values.data", "Fixtures/plain.plist"])
        XCTAssertEqual(documents.map { $0["kind"] as? String }, ["restorationArchive", "restorationArchive", "propertyList"])
        XCTAssertEqual(run.stderr, "restoration-tool: Fixtures/hostile/random.data: error: not a property list: neither a binary (bplist00) nor an XML header (at byte 0)\n")
    }

    func testStandardInput() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: ToolRunner.fixture("ios7-plain.data")))
        let run = try ToolRunner.run(["dump", "-"], input: bytes)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("File: (standard input)\n"))
        XCTAssertTrue(run.stdout.contains("UINavigationController/BNRDetailViewController"))
    }

    // MARK: Errors and exit codes

    func testErrorLinesAndExitCodes() throws {
        let cases: [(String, String)] = [
            ("Fixtures/does-not-exist.data", "restoration-tool: Fixtures/does-not-exist.data: error: cannot open: No such file or directory\n"),
            ("Fixtures/ios8-tabbar.data/", "restoration-tool: Fixtures/ios8-tabbar.data/: error: cannot open: Not a directory\n"),
            ("Fixtures/hostile/empty.data", "restoration-tool: Fixtures/hostile/empty.data: error: file is empty\n"),
            ("Fixtures/hostile/uid-out-of-range.data", "restoration-tool: Fixtures/hostile/uid-out-of-range.data: error: UID 9999 is out of range: $objects has 1 entry (in root)\n"),
        ]
        for (file, message) in cases {
            let run = try ToolRunner.run(["dump", file])
            XCTAssertEqual(run.status, 2, file)
            XCTAssertEqual(run.stdout, "", file)
            XCTAssertEqual(run.stderr, message)
        }
    }

    func testUsageErrorsExit64() throws {
        for arguments in [[], ["dump", "--no-such-option", "x"], ["frobnicate"], ["dump", "--max-depth", "0", "x"], ["dump", "-", "-"],
                          ["help", "nosuch"], ["scan", "--max-directory-depth", "-1", "."]] {
            let run = try ToolRunner.run(arguments)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertEqual(run.stdout, "")
            // The tool's own form, not the argument parser's "Error:".
            XCTAssertTrue(run.stderr.hasPrefix("restoration-tool: error: "), "\(arguments): \(run.stderr)")
        }
        // A negative limit reaches the check that names the range ("Missing value" before).
        let negative = try ToolRunner.run(["dump", "--max-depth", "-1", "x"])
        XCTAssertTrue(negative.stderr.hasPrefix("restoration-tool: error: --max-depth must be from 1 to 4096\n"), negative.stderr)
        let help = try ToolRunner.run(["help", "nosuch"])
        XCTAssertTrue(help.stderr.hasPrefix("restoration-tool: error: Unknown command 'nosuch' for help: dump, validate, diff, tree or scan\n"), help.stderr)
        XCTAssertEqual(try ToolRunner.run(["help", "dump"]).status, 0)
    }

    func testHelpAndVersion() throws {
        let help = try ToolRunner.run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("USAGE: restoration-tool <subcommand>"))
        XCTAssertTrue(help.stdout.contains("dump"))
        let dumpHelp = try ToolRunner.run(["dump", "--help"])
        XCTAssertEqual(dumpHelp.status, 0)
        for option in ["--json", "--no-demangle", "--max-depth", "--max-nodes", "--max-archive-depth", "--max-input-size", "<file> ..."] {
            XCTAssertTrue(dumpHelp.stdout.contains(option), option)
        }
        let version = try ToolRunner.run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertEqual(version.stdout, "restoration-tool 0.2.0\n")
    }
}
