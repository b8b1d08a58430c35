import Foundation
import XCTest

final class TreeCommandTests: XCTestCase {
    func testGoldenTrees() throws {
        for name in ["ios8-tabbar.data", "validate/dangling-reference.data", "ios7-plain.data"] {
            let run = try ToolRunner.run(["tree", "Fixtures/" + name])
            XCTAssertEqual(run.status, 0, run.stderr)
            try GoldenFiles.assertMatches(run.stdout, "tree-" + name.replacingOccurrences(of: "/", with: "-") + ".txt")
        }
    }

    func testMarks() throws {
        let run = try ToolRunner.run(["tree", "Fixtures/ios8-tabbar.data"])
        XCTAssertTrue(run.stdout.contains("└── MapViewController  (presented)\n"), run.stdout)
        XCTAssertTrue(run.stdout.contains("└── [1] NavigationController  (selected)\n"))
        XCTAssertTrue(run.stdout.contains("class StateRestorationDemo.CityViewController"))
        XCTAssertTrue(run.stdout.hasSuffix("7 objects, 2 views, 0 dangling references\n"))
        let dangling = try ToolRunner.run(["tree", "Fixtures/validate/dangling-reference.data"])
        XCTAssertTrue(dangling.stdout.contains("✗ TabController/:[1]:/NavigationController/:[1]:/DetailViewController  (kUIViewControllerChildrenKey: not saved)"), dangling.stdout)
    }

    func testNestedJSON() throws {
        let run = try ToolRunner.run(["tree", "--json", "Fixtures/ios8-tabbar.data"])
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["schemaVersion"] as? Int, 1)
        let roots = try XCTUnwrap(document["roots"] as? [[String: Any]])
        XCTAssertEqual(roots.map { $0["label"] as? String }, ["TabController"])
        let tabs = try XCTUnwrap(roots.first?["children"] as? [[String: Any]])
        XCTAssertEqual(tabs.map { $0["label"] as? String }, ["[0] NavigationController", "[1] NavigationController"])
        XCTAssertEqual(tabs.last?["selected"] as? Bool, true)
    }

    func testSeveralFilesEachUnderItsName() throws {
        let run = try ToolRunner.run(["tree", "Fixtures/ios7-plain.data", "Fixtures/missing.data", "Fixtures/ios7-plain.data"])
        XCTAssertEqual(run.status, 2, "one file could not be read")
        let single = try ToolRunner.run(["tree", "Fixtures/ios7-plain.data"]).stdout
        let section = "Fixtures/ios7-plain.data:\n" + single
        XCTAssertEqual(run.stdout, section + "\n" + section)
        XCTAssertTrue(run.stderr.hasPrefix("restoration-tool: Fixtures/missing.data: error: "), run.stderr)
    }

    /// --max-output-size bounds the run, every file's heading and tree together: at the limit
    /// all are written; with a limit one byte smaller the last file's are not, and the files
    /// after it that fit what is left still are.
    func testOutputLimitCountsTheHeading() throws {
        let (small, large) = ("Fixtures/ios7-plain.data", "Fixtures/ios8-tabbar.data")
        let (smallTree, largeTree) = (try ToolRunner.run(["tree", small]).stdout, try ToolRunner.run(["tree", large]).stdout)
        let first = small + ":\n" + smallTree
        let second = "\n" + large + ":\n" + largeTree
        XCTAssertLessThan(first.utf8.count, second.utf8.count)
        let total = first.utf8.count + second.utf8.count
        let fits = try ToolRunner.run(["tree", "--max-output-size", "\(total)", small, large])
        XCTAssertEqual(fits.status, 0, fits.stderr)
        XCTAssertEqual(fits.stdout, first + second)
        let past = try ToolRunner.run(["tree", "--max-output-size", "\(total - 1)", small, large])
        XCTAssertEqual(past.status, 2)
        XCTAssertEqual(past.stdout, first)
        XCTAssertEqual(past.stderr, "restoration-tool: \(large): error: the output goes past the limit of \(total - 1) bytes (--max-output-size); nothing of it is written\n")
        // Each file within the limit, two together past it: the run's output is bounded.
        let each = try ToolRunner.run(["tree", "--max-output-size", "\(second.utf8.count)", large, large])
        XCTAssertEqual(each.status, 2)
        XCTAssertEqual(each.stdout, String(second.dropFirst()))
    }

    func testNotARestorationArchive() throws {
        let run = try ToolRunner.run(["tree", "Fixtures/not-restoration.data"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("not a UIKit state-restoration archive"))
    }
}

final class ScanCommandTests: XCTestCase {
    /// A simulator-like tree: two devices, three apps, one with scene sessions, one unreadable.
    private func makeTree() throws -> URL {
        let fileManager = FileManager.default
        let root = fileManager.temporaryDirectory.appendingPathComponent("scan-\(UUID().uuidString)")
        func app(_ device: String, _ container: String, _ bundle: String) throws -> URL {
            let state = root.appendingPathComponent("Devices/\(device)/data/Containers/Data/Application/\(container)/Library/Saved Application State/\(bundle).savedState")
            try fileManager.createDirectory(at: state, withIntermediateDirectories: true)
            return state
        }
        let fixtures = URL(fileURLWithPath: ToolRunner.fixture(""))
        let older = try app("DEVICE-A", "APP-1", "com.example.older")
        try fileManager.copyItem(at: fixtures.appendingPathComponent("ios7-plain.data"), to: older.appendingPathComponent("data.data"))
        let newer = try app("DEVICE-B", "APP-2", "com.example.newer")
        try fileManager.copyItem(at: fixtures.appendingPathComponent("validate/clean.data"), to: newer.appendingPathComponent("data.data"))
        try fileManager.copyItem(at: fixtures.appendingPathComponent("validate/pending-discard.savedState/inprogress.data"), to: newer.appendingPathComponent("inprogress.data"))
        let scenes = try app("DEVICE-B", "APP-3", "com.example.scenes")
        let session = scenes.appendingPathComponent("SESSION-1")
        try fileManager.createDirectory(at: session, withIntermediateDirectories: true)
        try fileManager.copyItem(at: fixtures.appendingPathComponent("validate/dangling-reference.data"), to: session.appendingPathComponent("data.data"))
        let broken = try app("DEVICE-B", "APP-4", "com.example.broken")
        try fileManager.copyItem(at: fixtures.appendingPathComponent("hostile/truncated-trailer.data"), to: broken.appendingPathComponent("data.data"))
        // A symbolic-link cycle must not trap the walk.
        try fileManager.createSymbolicLink(at: root.appendingPathComponent("Devices/DEVICE-A/loop"), withDestinationURL: root)
        return root
    }

    func testRowsNewestFirst() throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try ToolRunner.run(["scan", "--json", root.path])
        // The broken archive is a row and an error line, and makes the status 2.
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.hasSuffix("com.example.broken.savedState/data.data: error: trailer gives an offset size of 33 bytes; it must be 1 to 8 (at byte 8707)\n"), run.stderr)
        XCTAssertEqual(run.stderr.components(separatedBy: ": error: ").count - 1, 1, run.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let rows = try XCTUnwrap(document["archives"] as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["bundleIdentifier"] as? String }, ["com.example.newer", "com.example.scenes", "com.example.older", "com.example.broken"])
        XCTAssertEqual(rows[0]["valid"] as? Bool, true)
        XCTAssertEqual((rows[0]["restoreWarnings"] as? [String])?.count, 1)
        XCTAssertEqual(rows[1]["sceneSession"] as? String, "SESSION-1")
        XCTAssertEqual(rows[1]["errors"] as? Int, 2)
        XCTAssertEqual(rows[2]["timestamp"] as? String, "2013-11-02T09:30:15.25Z")
        XCTAssertEqual(rows[2]["systemVersion"] as? String, "7.1")
        XCTAssertEqual(rows[2]["objects"] as? Int, 2)
        XCTAssertNotNil(rows[3]["reason"] as? String)
        XCTAssertEqual(rows[3]["valid"] as? Bool, false)
    }

    func testTable() throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try ToolRunner.run(["scan", root.path])
        let lines = run.stdout.split(separator: "\n")
        XCTAssertTrue(lines.first?.hasPrefix("SAVED ") == true && lines.first?.contains(" BUNDLE ID ") == true, run.stdout)
        XCTAssertTrue(lines[1].contains("com.example.newer") && lines[1].contains("valid (1 warning), discard pending"), run.stdout)
        XCTAssertTrue(run.stdout.contains("invalid (2 errors)"))
        // Rows only: the warnings about side files go to standard error with the errors.
        XCTAssertEqual(lines.count, 5, run.stdout)
        XCTAssertFalse(run.stdout.contains(": warning: "), run.stdout)
        XCTAssertTrue(run.stderr.contains("restoration-tool: " + root.path + "/Devices/DEVICE-B/data/Containers/Data/Application/APP-2/Library/Saved Application State/com.example.newer.savedState/data.data: warning: inprogress.data shows 0 restore attempts left"), run.stderr)
    }

    func testInterruptedRestoreWithTriesToSpare() throws {
        let fileManager = FileManager.default
        let root = fileManager.temporaryDirectory.appendingPathComponent("scan-\(UUID().uuidString)")
        let state = root.appendingPathComponent("com.example.retry.savedState")
        try fileManager.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(at: root) }
        try fileManager.copyItem(atPath: ToolRunner.fixture("validate/clean.data"), toPath: state.appendingPathComponent("data.data").path)
        let inProgress = try PropertyListSerialization.data(
            fromPropertyList: ["kRestorationTriesLeft": 2, "kRestorationExtended": false], format: .binary, options: 0)
        try inProgress.write(to: state.appendingPathComponent("inprogress.data"))
        let run = try ToolRunner.run(["scan", root.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("valid (1 warning), restore interrupted  "), run.stdout)
        XCTAssertTrue(run.stderr.contains("(2 attempts left)"), run.stderr)
    }

    /// scan counts what validate counts, the files beside the archive included.
    func testScanCountsAsValidateDoes() throws {
        for directory in ["pending-discard", "interrupted-restore", "unreadable-sidecar"] {
            let path = "Fixtures/validate/\(directory).savedState"
            let scan = try ToolRunner.run(["scan", "--json", path])
            let row = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any])?["archives"] as? [[String: Any]]).first
            let (_, reports) = try ToolRunner.run(["validate", "--json", path]).withJSONArray()
            XCTAssertEqual(row?["warnings"] as? Int, reports.first?["warnings"] as? Int, directory)
            XCTAssertEqual(row?["errors"] as? Int, reports.first?["errors"] as? Int, directory)
            XCTAssertEqual((row?["restoreWarnings"] as? [String])?.count, reports.first?["warnings"] as? Int, directory)
        }
        let table = try ToolRunner.run(["scan", "Fixtures/validate/unreadable-sidecar.savedState"])
        XCTAssertTrue(table.stdout.contains("valid (2 warnings)  "), table.stdout)
        XCTAssertTrue(table.stderr.contains(": warning: restorationInfo.plist cannot be read"), table.stderr)
    }

    func testUnreadableDirectory() throws {
        let run = try ToolRunner.run(["scan", "/nonexistent-\(UUID().uuidString)"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.hasSuffix(": error: cannot read this directory: No such file or directory\n"), run.stderr)
        // The system's reason, whatever it is.
        let long = try ToolRunner.run(["scan", "/tmp/" + String(repeating: "n", count: 300)])
        XCTAssertEqual(long.status, 2)
        XCTAssertTrue(long.stderr.hasSuffix(": error: cannot read this directory: File name too long\n"), long.stderr)
        let file = try ToolRunner.run(["scan", "Fixtures/ios7-plain.data"])
        XCTAssertEqual(file.status, 2)
        XCTAssertEqual(file.stderr, "restoration-tool: Fixtures/ios7-plain.data: error: not a directory (scan searches directories; validate or dump read a file)\n")
        let locked = FileManager.default.temporaryDirectory.appendingPathComponent("scan-locked-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false, attributes: [.posixPermissions: 0])
        defer { try? FileManager.default.removeItem(at: locked) }
        // root reads any directory: run as another user.
        if ToolRunner.canRunUnprivileged {
            let denied = try ToolRunner.run(["scan", locked.path], asUnprivilegedUser: true)
            XCTAssertEqual(denied.status, 2)
            XCTAssertTrue(denied.stderr.hasSuffix(": error: cannot read this directory: Permission denied\n"), denied.stderr)
        }
    }
}

final class OutputOptionTests: XCTestCase {
    func testDumpPath() throws {
        let run = try ToolRunner.run(["dump", "--path", "TabController/:[1]:/NavigationController", "Fixtures/ios8-tabbar.data"])
        XCTAssertEqual(run.status, 0)
        let objects = run.stdout.split(separator: "\n").filter { $0.hasPrefix("Object: ") }
        XCTAssertEqual(objects.count, 4)
        XCTAssertTrue(objects.allSatisfy { $0.hasPrefix("Object: TabController/:[1]:/NavigationController") })
        let json = try ToolRunner.run(["dump", "--json", "--path", "Nowhere", "Fixtures/ios8-tabbar.data"])
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((document["objects"] as? [Any])?.count, 0)
        XCTAssertEqual(document["notes"] as? [String], ["no saved object at or below Nowhere"])
    }

    func testDumpPathTrailingSlashAndMisuse() throws {
        let plain = try ToolRunner.run(["dump", "--path", "TabController/:[1]:/NavigationController", "Fixtures/ios8-tabbar.data"])
        let slash = try ToolRunner.run(["dump", "--path", "TabController/:[1]:/NavigationController/", "Fixtures/ios8-tabbar.data"])
        XCTAssertEqual(slash.stdout, plain.stdout, "a trailing slash names the same subtree")
        let raw = try ToolRunner.run(["dump", "--raw", "--path", "TabController", "Fixtures/ios8-tabbar.data"])
        XCTAssertEqual(raw.status, 64)
        XCTAssertTrue(raw.stderr.contains("--path needs the restoration reading"), raw.stderr)
        XCTAssertEqual(try ToolRunner.run(["dump", "--path", "", "Fixtures/ios8-tabbar.data"]).status, 64)
        let generic = try ToolRunner.run(["dump", "--path", "TabController", "Fixtures/not-restoration.data"])
        XCTAssertEqual(generic.status, 0)
        XCTAssertEqual(generic.stderr, "restoration-tool: Fixtures/not-restoration.data: note: --path ignored: not a restoration archive, so there are no identifier paths\n")
    }

    func testDumpRaw() throws {
        let run = try ToolRunner.run(["dump", "--json", "--raw", "Fixtures/ios7-plain.data"])
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["kind"] as? String, "keyedArchive")
        XCTAssertNotNil((document["appState"] as? [String: Any])?["kRootRestorationIdentifiersKey"])
    }

    func testColorOnlyWhenAskedOrOnATerminal() throws {
        for command in [["dump"], ["validate"], ["tree"]] {
            let plain = try ToolRunner.run(command + ["Fixtures/validate/dangling-reference.data"])
            XCTAssertFalse(plain.stdout.contains("\u{1B}["), "\(command): no color when not a terminal")
            let colored = try ToolRunner.run(command + ["--color", "always", "Fixtures/validate/dangling-reference.data"])
            XCTAssertTrue(colored.stdout.contains("\u{1B}["), "\(command) --color always")
        }
    }

    /// On a terminal (a pseudo-terminal from script(1)), auto colors unless TERM is dumb.
    func testNoColorOnADumbTerminal() throws {
        let command = "\(ToolRunner.executable.path) validate Fixtures/validate/dangling-reference.data"
        for (term, colored) in [("dumb", false), ("xterm", true)] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["TERM=\(term)", "NO_COLOR=", "script", "-qec", command, "/dev/null"]
            process.currentDirectoryURL = URL(fileURLWithPath: ToolRunner.packageRoot)
            let output = Pipe()
            process.standardOutput = output
            process.standardInput = FileHandle.nullDevice
            do { try process.run() } catch { throw XCTSkip("script(1) cannot run here") }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if process.terminationStatus == 127 { throw XCTSkip("no script(1)") }
            XCTAssertTrue(text.contains("dangling-reference"), text)
            XCTAssertEqual(text.contains("\u{1B}["), colored, "TERM=\(term): \(text)")
        }
    }

    func testCompletionScripts() throws {
        for shell in ["bash", "zsh", "fish"] {
            let run = try ToolRunner.run(["--generate-completion-script", shell])
            XCTAssertEqual(run.status, 0, shell)
            XCTAssertTrue(run.stdout.contains("validate") && run.stdout.contains("scan"), shell)
        }
        // File arguments complete file names, scan's complete directories.
        let bash = try ToolRunner.run(["--generate-completion-script", "bash"]).stdout
        XCTAssertEqual(bash.components(separatedBy: "_add_completions -f\n").count - 1, 7, "dump, validate, tree, diff's two, build's document and -o")
        XCTAssertEqual(bash.components(separatedBy: "_add_completions -d\n").count - 1, 1, "scan")
        let zsh = try ToolRunner.run(["--generate-completion-script", "zsh"]).stdout
        for argument in ["'*:file:_files'", "':a:_files'", "':b:_files'", "'*:directory:_files -/'"] {
            XCTAssertTrue(zsh.contains(argument), argument)
        }
    }
}

/// `tree --format dot|mermaid`: the same objects, marks and dangling references as the text.
final class TreeGraphTests: XCTestCase {
    func testGoldenGraphs() throws {
        for (format, suffix) in [("dot", "dot"), ("mermaid", "mmd")] {
            let one = try ToolRunner.run(["tree", "--format", format, "Fixtures/validate/dangling-reference.data"])
            XCTAssertEqual(one.status, 0, one.stderr)
            try GoldenFiles.assertMatches(one.stdout, "tree-validate-dangling-reference.data.\(suffix)")
            let two = try ToolRunner.run(["tree", "--format", format, "Fixtures/ios8-tabbar.data", "Fixtures/validate/dangling-reference.data"])
            XCTAssertEqual(two.status, 0, two.stderr)
            try GoldenFiles.assertMatches(two.stdout, "tree-two-files.\(suffix)")
        }
    }

    /// Every fixture that `tree` draws: one box per object and per dangling reference, one edge
    /// per child and per dangling reference, as the text tree counts them.
    func testGraphsHoldWhatTheTextTreeHolds() throws {
        let fixtures = try FileManager.default.subpathsOfDirectory(atPath: ToolRunner.fixture("")).filter { $0.hasSuffix(".data") }.sorted()
        var drawn = 0
        for fixture in fixtures {
            let text = try ToolRunner.run(["tree", "Fixtures/" + fixture])
            guard text.status == 0, let summary = text.stdout.split(separator: "\n").last else { continue }
            let numbers = summary.split(separator: " ").compactMap { Int($0) }
            let roots = text.stdout.split(separator: "\n").dropLast().filter { !$0.hasPrefix(" ") && !$0.hasPrefix("│") && !$0.hasPrefix("├") && !$0.hasPrefix("└") && !$0.hasPrefix("✗") }.count
            let appDangling = text.stdout.split(separator: "\n").filter { $0.hasPrefix("✗") }.count
            for format in ["dot", "mermaid"] {
                let graph = try ToolRunner.run(["tree", "--format", format, "Fixtures/" + fixture])
                XCTAssertEqual(graph.status, 0, fixture)
                let lines = graph.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                let boxes = lines.filter { $0.range(of: #"^[nd][0-9]+ ?\["#, options: .regularExpression) != nil }.count
                let edges = lines.filter { $0.contains(" -> ") || $0.contains(" --> ") || $0.contains(" -.-> ") }.count
                XCTAssertEqual(boxes, numbers[0] + numbers[2], "\(format) \(fixture)")
                XCTAssertEqual(edges, numbers[0] - roots + numbers[2] - appDangling, "\(format) \(fixture)")
                XCTAssertTrue(lines.contains((format == "dot" ? "// " : "%% ") + summary), "\(format) \(fixture)")
            }
            drawn += 1
        }
        XCTAssertGreaterThan(drawn, 20)
    }

    /// Graphviz, a reader we did not write, lays out every graph (CI installs it).
    func testGraphvizReadsTheGraphs() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dot") else {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("CI installs graphviz") }
            throw XCTSkip("graphviz is not installed")
        }
        for files in [["Fixtures/ios8-tabbar.data"], ["Fixtures/validate/dangling-reference.data", "Fixtures/evidence/statedemo-ios8.data"], ["Fixtures/hostile/long-path.data"], ["Fixtures/validate/malformed-path.data"], ["Fixtures/validate/missing-object.data"]] {
            let graph = try ToolRunner.run(["tree", "--format", "dot"] + files)
            guard graph.status == 0 else { continue }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID().uuidString).dot")
            try graph.stdout.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/dot")
            process.arguments = ["-Tplain", file.path]
            let output = Pipe(), errors = Pipe()
            (process.standardOutput, process.standardError) = (output, errors)
            try process.run()
            let plain = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, warnings)
            XCTAssertEqual(warnings, "", files.joined(separator: " "))
            let boxes = graph.stdout.split(separator: "\n").filter { $0.range(of: #"^ *(f[0-9]+_)?[nd][0-9]+ \["#, options: .regularExpression) != nil }.count
            XCTAssertEqual(plain.split(separator: "\n").filter { $0.hasPrefix("node ") }.count, boxes, files.joined(separator: " "))
        }
    }

    func testFormatOptions() throws {
        let conflict = try ToolRunner.run(["tree", "--json", "--format", "dot", "Fixtures/ios8-tabbar.data"])
        XCTAssertEqual(conflict.status, 64)
        XCTAssertTrue(conflict.stderr.hasPrefix("restoration-tool: error: --json and --format dot ask for different formats"), conflict.stderr)
        let json = try ToolRunner.run(["tree", "--format", "json", "Fixtures/ios8-tabbar.data"])
        XCTAssertEqual(json.stdout, try ToolRunner.run(["tree", "--json", "Fixtures/ios8-tabbar.data"]).stdout)
        // A file that cannot be read is left out of the graph, with an error line and status 2.
        let mixed = try ToolRunner.run(["tree", "--format", "mermaid", "Fixtures/ios8-tabbar.data", "Fixtures/missing.data"])
        XCTAssertEqual(mixed.status, 2)
        XCTAssertTrue(mixed.stdout.hasPrefix("flowchart TD\n  subgraph f1 [\"Fixtures/ios8-tabbar.data\"]\n"), mixed.stdout)
        XCTAssertTrue(mixed.stderr.hasPrefix("restoration-tool: Fixtures/missing.data: error: "), mixed.stderr)
    }
}
