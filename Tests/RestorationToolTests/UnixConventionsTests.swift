import Foundation
import XCTest

/// What users of ripgrep, fd, jq and diff expect without thinking: the version line, help with
/// the everyday options first, sizes with suffixes, standard input, limits named in errors,
/// nothing on standard output when there is nothing to show, and ASCII where UTF-8 is not.
final class UnixConventionsTests: XCTestCase {
    func testVersionNamesTheTool() throws {
        for arguments in [["--version"], ["-V"], ["dump", "--version"]] {
            let run = try ToolRunner.run(arguments)
            XCTAssertEqual(run.status, 0, "\(arguments)")
            XCTAssertEqual(run.stdout, "restoration-tool 0.2.0\n", "\(arguments)")
        }
        // The help lists every option it takes, -V too, and names every kind the tool reads.
        for arguments in [["--help"], ["dump", "--help"]] {
            XCTAssertTrue(try ToolRunner.run(arguments).stdout.contains("\n  -V, --version           Show the version.\n"), "\(arguments)")
        }
        let overview = try ToolRunner.run(["--help"]).stdout
        XCTAssertTrue(overview.hasPrefix("OVERVIEW: Inspect iOS state restoration, scene sessions and macOS window state.\n"), overview)
        // After `--`, -V is a file name.
        let file = try ToolRunner.run(["dump", "--", "-V"])
        XCTAssertEqual(file.status, 2)
        XCTAssertTrue(file.stderr.hasPrefix("restoration-tool: -V: error: cannot open"), file.stderr)
    }

    func testHelpPutsOptionsFirstAndLimitsLastWithAShortUsage() throws {
        for command in ["dump", "validate", "diff", "tree", "scan"] {
            let help = try ToolRunner.run([command, "--help"]).stdout
            let options = try XCTUnwrap(help.range(of: "\nOPTIONS:\n"), command)
            let limits = try XCTUnwrap(help.range(of: "\nLIMITS:\n"), command)
            XCTAssertLessThan(options.lowerBound, limits.lowerBound, command)
            XCTAssertTrue(help.hasSuffix("\n") && !help.hasSuffix("\n\n\n"), command)
            let usage = try XCTUnwrap(help.split(separator: "\n").first { $0.hasPrefix("USAGE: ") }, command)
            XCTAssertTrue(usage.contains("[<options>]"), "\(command): \(usage)")
            XCTAssertLessThanOrEqual(usage.count, 80, "\(command): \(usage)")
            XCTAssertTrue(help.contains("(default: 1G)"), "sizes are shown as they are given: \(command)")
        }
        // The usage a usage error repeats is the short one too.
        let error = try ToolRunner.run(["diff", "a"])
        XCTAssertEqual(error.status, 64)
        XCTAssertTrue(error.stderr.contains("\nUsage: restoration-tool diff [<options>] <a> <b>\n"), error.stderr)
    }

    func testSizeOptionsTakeSuffixes() throws {
        let fixture = "Fixtures/ios8-tabbar.data"
        let small = try ToolRunner.run(["dump", "--max-input-size", "1k", fixture])
        XCTAssertEqual(small.status, 2)
        XCTAssertTrue(small.stderr.contains("the input is larger than the limit of 1k (--max-input-size)"), small.stderr)
        for size in ["64k", "10M", "1G", "1g", "65536"] {
            XCTAssertEqual(try ToolRunner.run(["dump", "--max-input-size", size, fixture]).status, 0, size)
        }
        for size in ["1x", "k", "-1k", "1.5M", "99999999999T"] {
            XCTAssertEqual(try ToolRunner.run(["dump", "--max-input-size", size, fixture]).status, 64, size)
        }
    }

    /// Every limit error names the option that raises it, once, in one wording per limit.
    func testEveryLimitErrorNamesItsOption() throws {
        let fixture = "Fixtures/ios8-tabbar.data"
        let cases: [(arguments: [String], message: String)] = [
            (["--max-depth", "2"], "values nest deeper than the limit of 2 levels (--max-depth)"),
            (["--max-nodes", "10"], "the input expands to more than the limit of 10 values (--max-nodes)"),
            (["--max-archive-depth", "1"], "keyed archives nest deeper than the limit of 1 level (--max-archive-depth)"),
            (["--max-input-size", "100"], "the input is larger than the limit of 100 bytes (--max-input-size)"),
            (["--max-nested-bytes", "10"], "nested archives add up to more than the limit of 10 bytes (--max-nested-bytes)"),
            (["--max-expanded-bytes", "10"], "strings and data expand to more than the limit of 10 bytes (--max-expanded-bytes)"),
            (["--max-output-size", "10"], "the output goes past the limit of 10 bytes (--max-output-size)"),
        ]
        for (arguments, message) in cases {
            for command in ["dump", "tree", "validate"] {
                let run = try ToolRunner.run([command] + arguments + [fixture])
                XCTAssertEqual(run.status, 2, "\(command) \(arguments)")
                XCTAssertTrue(run.stderr.hasPrefix("restoration-tool: \(fixture): error: "), run.stderr)
                XCTAssertTrue(run.stderr.contains(message), "\(command) \(arguments): \(run.stderr)")
                XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, run.stderr)
            }
        }
    }

    /// XML input gives a line and a column; a nested archive read from XML data gives its path
    /// in the archive, not a byte offset of data that is not in the file.
    func testXMLErrorsGiveALineAndAColumn() throws {
        let depth = 600
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            <key>$archiver</key><string>NSKeyedArchiver</string>
            <key>$version</key><integer>100000</integer>
            <key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>
            <key>$objects</key><array><string>$null</string>
            \(String(repeating: "<array>", count: depth))\(String(repeating: "</array>", count: depth))
            </array></dict></plist>

            """
        let run = try ToolRunner.run(["dump", "-"], input: Data(xml.utf8))
        XCTAssertEqual(run.status, 2)
        // The root <dict> and the $objects <array> of line 7 are the first two levels; the
        // <array> of line 8 (7 bytes each, from column 1) at level 513 passes the limit.
        XCTAssertEqual(run.stderr, "restoration-tool: (standard input): error: values nest deeper than the limit of 512 levels (--max-depth) (at line 8, column \(7 * 510 + 1))\n")
        let tabbarXML = try ToolRunner.run(["dump", "--max-archive-depth", "1", "Fixtures/ios8-tabbar.xml"])
        XCTAssertFalse(tabbarXML.stderr.contains("(at byte 0)"), tabbarXML.stderr)
        XCTAssertTrue(tabbarXML.stderr.contains("(--max-archive-depth) (in TabController)"), tabbarXML.stderr)
    }

    func testStandardInputIsReadWhenNoFileIsGiven() throws {
        let archive = try Data(contentsOf: URL(fileURLWithPath: ToolRunner.fixture("ios8-tabbar.data")))
        let named = try ToolRunner.run(["dump", "-"], input: archive)
        for command in [["dump"], ["tree"], ["validate"]] {
            let run = try ToolRunner.run(command, input: archive)
            XCTAssertEqual(run.status, 0, "\(command): \(run.stderr)")
            if command == ["dump"] { XCTAssertEqual(run.stdout, named.stdout) }
        }
        // At a terminal nothing is coming: a usage error that says how to read standard input.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("script(1) gives the test a terminal") }
        let terminal = try ToolRunner.run(["-qec", "\(ToolRunner.executable.path) dump", "/dev/null"], executable: "/usr/bin/script")
        XCTAssertEqual(terminal.status, 64, terminal.stdout)
        XCTAssertTrue(terminal.stdout.contains("restoration-tool: error: Missing expected argument '<file> ...' (- reads standard input)"), terminal.stdout)
    }

    func testListRulesTakesNoFile() throws {
        let run = try ToolRunner.run(["validate", "--list-rules", "Fixtures/ios8-tabbar.data"])
        XCTAssertEqual(run.status, 64)
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(run.stderr.hasPrefix("restoration-tool: error: --list-rules lists the rules and reads no file; leave out the file\n"), run.stderr)
    }

    func testScanWritesNothingWhenItFindsNothingOrFails() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("scan-empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let none = try ToolRunner.run(["scan", empty])
        XCTAssertEqual(none.status, 0)
        XCTAssertEqual(none.stdout, "")
        XCTAssertEqual(none.stderr, "restoration-tool: \(empty): note: no saved state found (no <bundle-id>.savedState folder holds an archive)\n")
        // Formats for programs still give their empty document.
        XCTAssertTrue(try ToolRunner.run(["scan", "--json", empty]).stdout.contains("\"archives\": []"))
        // A search that failed: the table shows nothing; the formats for programs give their
        // document all the same, JSON with the directory and why it could not be read.
        let missing = empty + "/missing"
        let table = try ToolRunner.run(["scan", missing])
        XCTAssertEqual(table.status, 2)
        XCTAssertEqual(table.stdout, "")
        XCTAssertEqual(table.stderr, "restoration-tool: \(missing): error: cannot read this directory: No such file or directory\n")
        let json = try ToolRunner.run(["scan", "--json", missing])
        XCTAssertEqual(json.status, 2)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((document["archives"] as? [Any])?.count, 0)
        XCTAssertEqual(document["directories"] as? [String], [missing])
        XCTAssertEqual(document["unreadableDirectories"] as? [[String: String]], [["path": missing, "error": "No such file or directory"]])
        let csv = try ToolRunner.run(["scan", "--format", "csv", missing])
        XCTAssertEqual(csv.status, 2)
        XCTAssertEqual(csv.stdout.split(separator: "\r\n").count, 1, "the header alone: \(csv.stdout)")
    }

    func testScanColorsTheStatusBySeverity() throws {
        let table = try ToolRunner.run(["scan", "--color", "always", "Fixtures/validate"]).stdout
        func color(ofRowWith path: String) -> String? {
            guard let line = table.split(separator: "\n").first(where: { $0.hasSuffix(path) }) else { return nil }
            guard let start = line.range(of: "\u{1B}[") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != "m" })
        }
        XCTAssertEqual(color(ofRowWith: "interrupted-restore.savedState/data.data"), "33", "a warning and an interrupted restore: yellow")
        XCTAssertEqual(color(ofRowWith: "undecodable-user-info.savedState/9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D/data.data"), "31", "an error: red")
        let clean = try ToolRunner.run(["scan", "--color", "always", "Fixtures/scenes"]).stdout
        XCTAssertTrue(clean.contains("\u{1B}[32mvalid "), clean)
    }

    func testTextFallsBackToASCIIOutsideAUTF8Locale() throws {
        let tree = try ToolRunner.run(["tree", "Fixtures/ios8-tabbar.data"], environment: ["LC_ALL": "C"])
        XCTAssertEqual(tree.status, 0)
        XCTAssertTrue(tree.stdout.utf8.allSatisfy { $0 < 0x80 }, tree.stdout)
        XCTAssertTrue(tree.stdout.contains("|-- [0] NavigationController\n|   `-- [0] "), tree.stdout)
        XCTAssertTrue(tree.stdout.contains("\n`-- [1] NavigationController  (selected)\n"), tree.stdout)
        // No locale at all is POSIX's, which is ASCII; --charset overrides the locale.
        XCTAssertEqual(try ToolRunner.run(["tree", "Fixtures/ios8-tabbar.data"], environment: ["LC_ALL": "", "LC_CTYPE": "", "LANG": ""]).stdout, tree.stdout)
        XCTAssertTrue(try ToolRunner.run(["tree", "--charset", "utf-8", "Fixtures/ios8-tabbar.data"], environment: ["LC_ALL": "C"]).stdout.contains("├── "))
        XCTAssertEqual(try ToolRunner.run(["tree", "--charset", "ascii", "Fixtures/ios8-tabbar.data"]).stdout, tree.stdout)
        // Characters from the input are escaped, and each line of every command stays ASCII.
        XCTAssertTrue(try ToolRunner.run(["dump", "Fixtures/values.data"], environment: ["LC_ALL": "C"]).stdout.contains("\\u{"))
        for command in [["dump"], ["validate"], ["tree"]] {
            let run = try ToolRunner.run(command + ["--charset", "ascii", "Fixtures/validate/class-map-unknown-path.data"])
            XCTAssertTrue((run.stdout + run.stderr).utf8.allSatisfy { $0 < 0x80 }, "\(command)")
        }
        // Escapes make the text longer: the limit holds for the text as written.
        let utf8 = try ToolRunner.run(["dump", "--charset", "utf-8", "Fixtures/values.data"]).stdout.utf8.count
        let ascii = try ToolRunner.run(["dump", "--charset", "ascii", "Fixtures/values.data"]).stdout.utf8.count
        XCTAssertGreaterThan(ascii, utf8)
        let past = try ToolRunner.run(["dump", "--charset", "ascii", "--max-output-size", String(utf8), "Fixtures/values.data"])
        XCTAssertEqual(past.status, 2)
        XCTAssertEqual(past.stdout, "")
        XCTAssertTrue(past.stderr.contains("(--max-output-size); nothing of it is written"), past.stderr)
        XCTAssertEqual(try ToolRunner.run(["dump", "--charset", "ascii", "--max-output-size", String(ascii), "Fixtures/values.data"]).status, 0)
        let diff = try ToolRunner.run(["diff", "--charset", "ascii", "Fixtures/diff/state-a.data", "Fixtures/diff/state-b.data"])
        XCTAssertTrue(diff.stdout.contains("\"{0, 44}\" -> \"{0, 300}\""), diff.stdout)
        // CSV is data for programs: UTF-8 whatever the locale.
        let csv = try ToolRunner.run(["scan", "--format", "csv", "Fixtures"], environment: ["LC_ALL": "C"])
        XCTAssertEqual(csv.stdout, try ToolRunner.run(["scan", "--format", "csv", "Fixtures"]).stdout)
    }

    func testDelimitedOutputKeepsValuesAndOneTimeFormat() throws {
        let timeline = try ToolRunner.run(["scan", "--timeline", "Fixtures/validate"]).stdout
        let times = timeline.split(separator: "\r\n").dropFirst().flatMap { line in
            line.split(separator: ",").filter { $0.count >= 20 && $0.dropFirst(4).hasPrefix("-") && $0.dropFirst(10).hasPrefix("T") }
        }
        XCTAssertGreaterThan(times.count, 10)
        for time in times {
            XCTAssertTrue(time.hasSuffix("+00:00"), "one format for every time of the time line: \(time)")
        }
    }
}
