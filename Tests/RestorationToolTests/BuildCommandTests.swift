import Foundation
import XCTest

/// `restoration-tool build`, end to end: where it writes, what it refuses, what it says.
final class BuildCommandTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("build-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func document(_ fixture: String, edit: (inout String) -> Void = { _ in }) throws -> String {
        var json = try ToolRunner.run(["dump", "--json", fixture]).stdout
        edit(&json)
        let path = folder.appendingPathComponent("document.json").path
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private var entries: [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()) ?? [] }

    func testWritesTheArchiveTheDocumentDescribes() throws {
        let document = try document("Fixtures/validate/clean.data")
        let output = folder.appendingPathComponent("built.data").path
        let run = try ToolRunner.run(["build", document, "-o", output])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderr, "")
        // Nothing but the document and the archive: the temporary file was renamed.
        XCTAssertEqual(entries, ["built.data", "document.json"])
        XCTAssertEqual(try ToolRunner.run(["diff", "Fixtures/validate/clean.data", output]).status, 0)
        // Standard input and output, through a pipe.
        let piped = try ToolRunner.run(["build", "-o", "-"], input: try Data(contentsOf: URL(fileURLWithPath: document)))
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertTrue(piped.stdout.hasPrefix("bplist00"))
    }

    func testXMLIsTextAndReadsBackTheSame() throws {
        let document = try document("Fixtures/validate/clean.data")
        let xml = try ToolRunner.run(["build", "--format", "xml", document, "-o", "-"])
        XCTAssertEqual(xml.status, 0, xml.stderr)
        XCTAssertTrue(xml.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist"), xml.stdout)
        let output = folder.appendingPathComponent("built.plist").path
        XCTAssertEqual(try ToolRunner.run(["build", "--format", "xml", document, "-o", output]).status, 0)
        XCTAssertEqual(try ToolRunner.run(["diff", "Fixtures/validate/clean.data", output]).status, 0)
        XCTAssertEqual(try ToolRunner.run(["build", "--format", "json", document, "-o", output]).status, 64)
    }

    func testABadDocumentWritesNothing() throws {
        let output = folder.appendingPathComponent("kept.data")
        try Data("kept".utf8).write(to: output)
        let document = try document("Fixtures/validate/clean.data") { $0 = $0.replacingOccurrences(of: "\"kViewControllerViewWasLoadedKey\": true", with: "\"kViewControllerViewWasLoadedKey\": tru") }
        let run = try ToolRunner.run(["build", document, "-o", output.path])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.hasPrefix("restoration-tool: \(document): error: expected a value, found 't' (at line "), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1)
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "kept")
        XCTAssertEqual(entries, ["document.json", "kept.data"])
    }

    func testFindingsAreNotesAndStrictRefuses() throws {
        let document = try document("Fixtures/validate/clean.data") {
            $0 = $0.replacingOccurrences(of: "\"kTabBarSelectedViewControllerKey\": {\n          \"$ref\": \"TabController/:[1]:/NavigationController\"",
                                         with: "\"kTabBarSelectedViewControllerKey\": {\n          \"$ref\": \"Gone\"")
        }
        let output = folder.appendingPathComponent("crafted.data").path
        let strict = try ToolRunner.run(["build", "--strict", document, "-o", output])
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.stderr.contains("note: validate finds an error [dangling-reference] in TabController"), strict.stderr)
        XCTAssertTrue(strict.stderr.hasSuffix("restoration-tool: \(output): error: not written: validate finds 1 error (--strict)\n"), strict.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
        let run = try ToolRunner.run(["build", document, "-o", output])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertEqual(try ToolRunner.run(["validate", output]).status, 1)
    }

    func testOutputsItRefuses() throws {
        let document = try document("Fixtures/ios7-plain.data")
        let same = try ToolRunner.run(["build", document, "-o", document])
        XCTAssertEqual(same.status, 64)
        XCTAssertTrue(same.stderr.contains("-o names the document being read"), same.stderr)
        let target = folder.appendingPathComponent("target.data").path
        let link = folder.appendingPathComponent("link.data").path
        try Data("target".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let linked = try ToolRunner.run(["build", document, "-o", link])
        XCTAssertEqual(linked.status, 74)
        XCTAssertEqual(linked.stderr, "restoration-tool: \(link): error: cannot write the archive: it is a symbolic link: name the file it points to\n")
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "target")
        let full = try ToolRunner.run(["build", document, "-o", "/dev/full"])
        XCTAssertEqual(full.status, 74)
        XCTAssertEqual(full.stderr, "restoration-tool: /dev/full: error: cannot write the archive: No space left on device\n")
        let missing = try ToolRunner.run(["build", document, "-o", folder.path + "/no/such/folder/x.data"])
        XCTAssertEqual(missing.status, 74)
        XCTAssertTrue(missing.stderr.hasSuffix(": error: cannot write the archive: No such file or directory\n"), missing.stderr)
        let none = try ToolRunner.run(["build", document])
        XCTAssertEqual(none.status, 64)
    }

    func testRepeatedKeysAreWarnedAboutAFewTimes() throws {
        let keys = (0..<100).map { _ in "\"k\": 1" }.joined(separator: ", ")
        let path = folder.appendingPathComponent("repeats.json").path
        try "{\"kind\": \"keyedArchive\", \"appState\": {\"d\": {\(keys)}}}".write(toFile: path, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run(["build", path, "-o", folder.appendingPathComponent("r.data").path])
        XCTAssertEqual(run.status, 0)
        let lines = run.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 21)
        XCTAssertEqual(lines.first, "restoration-tool: \(path): warning: .appState.d.k: the key \"k\" is repeated; every one is written")
        XCTAssertEqual(lines.last, "restoration-tool: \(path): warning: and 79 more repeated keys")
    }
}
