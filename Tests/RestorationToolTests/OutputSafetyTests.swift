import Foundation
import XCTest

/// What the tool writes: every write to standard output is checked, and nothing from the input
/// reaches standard error unescaped.
final class OutputSafetyTests: XCTestCase {
    /// JSON writes bidirectional controls and invisible characters as `\uXXXX`, always: a
    /// title holding U+202E is the same string to every JSON reader, and a terminal shows the
    /// escape instead of turning the line around.
    func testJSONEscapesBidiControlsAndInvisibleCharacters() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bidi-\(UUID().uuidString).plist")
        defer { try? FileManager.default.removeItem(at: file) }
        let title = "ab\u{202E}cd\u{2066}e\u{200B}f\u{FEFF}g\u{E0041}h é 한"
        let data = try PropertyListSerialization.data(fromPropertyList: ["title\u{202E}": title], format: .binary, options: 0)
        try data.write(to: file)
        let run = try ToolRunner.run(["dump", "--json", file.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains(#""title\u202e": "ab\u202ecd\u2066e\u200bf\ufeffg\udb40\udc41h é 한""#), run.stdout)
        // Every JSON reader reads the string back as it was.
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let appState = try XCTUnwrap(document["appState"] as? [String: Any])
        XCTAssertEqual(appState["title\u{202E}"] as? String, title)
    }

    /// Every command's results, written to a full device: one error line and status 74, never 0.
    func testAFullDiskIsAnError() throws {
        let commands: [[String]] = [
            ["dump", "Fixtures/ios8-tabbar.data"], ["dump", "--json", "Fixtures/many-objects.data"],
            ["dump", "--json", "Fixtures/ios8-tabbar.data"], ["validate", "Fixtures/validate/clean.data"],
            ["validate", "--json", "Fixtures/validate/clean.data"], ["tree", "Fixtures/ios8-tabbar.data"],
            ["tree", "--json", "Fixtures/ios8-tabbar.data"], ["diff", "Fixtures/diff/state-a.data", "Fixtures/diff/state-b.data"],
            ["diff", "--json", "Fixtures/diff/state-a.data", "Fixtures/diff/state-b.data"], ["scan", "Fixtures"],
            ["scan", "--json", "Fixtures"], ["--help"], ["validate", "--list-rules"],
        ]
        for command in commands {
            let run = try runWithStandardOutput(command, to: "/dev/full")
            XCTAssertEqual(run.status, 74, "\(command)")
            XCTAssertEqual(run.stderr, "restoration-tool: (standard output): error: cannot write the results: No space left on device\n", "\(command)")
        }
    }

    /// A reader that has gone ends the tool quietly, even when its parent ignored SIGPIPE
    /// (Foundation's `Process` starts children with SIGPIPE ignored).
    func testAClosedPipeEndsQuietly() throws {
        let process = Process()
        process.executableURL = ToolRunner.executable
        process.arguments = ["dump", "--json", "Fixtures/many-objects.data"]
        process.currentDirectoryURL = URL(fileURLWithPath: ToolRunner.packageRoot)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        _ = output.fileHandleForReading.readData(ofLength: 10)
        try output.fileHandleForReading.close()
        process.waitUntilExit()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, SIGPIPE)
        XCTAssertEqual(stderr.count, 0, String(decoding: stderr, as: UTF8.self))
    }

    /// `$archiver` and the version bytes came through raw: an escape sequence cleared the screen
    /// and a newline forged a second error line.
    func testInputInErrorMessagesIsEscaped() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("escapes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let forged = "\u{1B}[2J\nrestoration-tool: other.data: error: forged\u{202E}"
        let archiver = directory.appendingPathComponent("archiver.data")
        try PropertyListSerialization.data(fromPropertyList: ["$archiver": forged, "$version": 100_000, "$top": [String: Any](), "$objects": ["$null"]], format: .binary, options: 0)
            .write(to: archiver)
        let version = directory.appendingPathComponent("version.data")
        try Data("bplist0\u{1B}".utf8 + [0x0A] + Array("restoration-tool: forged".utf8)).write(to: version)
        let escapeName = directory.appendingPathComponent("name\u{1B}[31m.data").path
        for arguments in [["dump", archiver.path], ["validate", archiver.path], ["dump", version.path], ["tree", escapeName], ["dump", "--\u{1B}[31mred"]] {
            let run = try ToolRunner.run(arguments)
            XCTAssertNotEqual(run.status, 0, "\(arguments)")
            XCTAssertFalse(run.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" }, "\(arguments): \(run.stderr)")
            if !arguments[1].hasPrefix("--") {
                XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, "\(arguments): one line: \(run.stderr)")
                XCTAssertTrue(run.stderr.hasPrefix("restoration-tool: "), run.stderr)
            }
        }
        let run = try ToolRunner.run(["dump", archiver.path])
        XCTAssertTrue(run.stderr.contains("$archiver is '\\u{1b}[2J\\nrestoration-tool: other.data: error: forged\\u{202e}', not 'NSKeyedArchiver'"), run.stderr)
    }

    private func runWithStandardOutput(_ arguments: [String], to path: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = ToolRunner.executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: ToolRunner.packageRoot)
        process.standardOutput = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }
}
