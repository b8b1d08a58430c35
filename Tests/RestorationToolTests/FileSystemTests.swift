import Foundation
import XCTest

/// Directory trees come from devices and backups: nothing in one may hang the tool, be followed
/// through a symbolic link, or be left out without a word.
final class FileSystemTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tree-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func folder(_ path: String) throws -> URL {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func copyClean(to url: URL) throws {
        try FileManager.default.copyItem(atPath: ToolRunner.fixture("validate/clean.data"), toPath: url.path)
    }

    func testScanReportsWhatItCannotReadAndFollowsNoLink() throws {
        XCTAssertEqual(mkfifo(try folder("fifo.savedState").appendingPathComponent("data.data").path, 0o600), 0)
        try FileManager.default.createSymbolicLink(atPath: try folder("link.savedState").appendingPathComponent("data.data").path,
                                                   withDestinationPath: ToolRunner.fixture("validate/clean.data"))
        try FileManager.default.createDirectory(at: try folder("directory.savedState").appendingPathComponent("data.data"), withIntermediateDirectories: true)
        let sidecars = try folder("sidecars.savedState")
        try copyClean(to: sidecars.appendingPathComponent("data.data"))
        try FileManager.default.createSymbolicLink(atPath: sidecars.appendingPathComponent("inprogress.data").path,
                                                   withDestinationPath: ToolRunner.fixture("validate/pending-discard.savedState/inprogress.data"))
        // A sparse 1 GiB side file beside scenes: refused before it is read, once per folder.
        let scenes = try folder("scenes.savedState")
        let large = scenes.appendingPathComponent("inprogress.data").path
        XCTAssertTrue(FileManager.default.createFile(atPath: large, contents: nil))
        XCTAssertEqual(truncate(large, 1 << 30), 0)
        for scene in 0..<3 { try copyClean(to: try folder("scenes.savedState/scene\(scene)").appendingPathComponent("data.data")) }
        try FileManager.default.createSymbolicLink(atPath: scenes.appendingPathComponent("linked").path, withDestinationPath: ToolRunner.fixture("validate/pending-discard.savedState"))

        let run = try ToolRunner.run(["scan", root.path])
        XCTAssertEqual(run.status, 2, run.stdout + run.stderr)
        XCTAssertLessThan(run.seconds, 5)
        for (name, reason) in [("fifo", "is a FIFO, not a regular file"), ("link", "is a symbolic link, which is not followed"), ("directory", "is a directory, not an archive file")] {
            let path = root.appendingPathComponent("\(name).savedState/data.data").path
            XCTAssertTrue(run.stdout.contains("unreadable: \(reason)"), run.stdout)
            XCTAssertTrue(run.stderr.contains("restoration-tool: \(path): error: \(reason)\n"), run.stderr)
        }
        XCTAssertTrue(run.stderr.contains("inprogress.data cannot be read: is a symbolic link, which is not followed"), run.stderr)
        XCTAssertEqual(run.stderr.components(separatedBy: "it is larger than 64k, more than UIKit writes in this file").count - 1, 3, "once per scene row, read once")
        // A linked scene folder is not followed: it is listed, with why.
        let linked = root.appendingPathComponent("scenes.savedState/linked").path
        XCTAssertTrue(run.stderr.contains("restoration-tool: \(linked): error: is a symbolic link, which is not followed\n"), run.stderr)
        XCTAssertEqual(run.stdout.split(separator: "\n").count, 1 + 8, run.stdout)
    }

    func testValidateOfADirectoryFollowsNoLink() throws {
        let state = try folder("app.savedState")
        try FileManager.default.createSymbolicLink(atPath: state.appendingPathComponent("data.data").path, withDestinationPath: ToolRunner.fixture("validate/clean.data"))
        let run = try ToolRunner.run(["validate", state.path])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "restoration-tool: \(state.path)/data.data: error: is a symbolic link, which is not followed\n")
        // Named on the command line, a link is followed, as by any tool.
        XCTAssertEqual(try ToolRunner.run(["validate", state.appendingPathComponent("data.data").path]).status, 0)
    }

    /// A FIFO argument without a writer blocked forever; then it read as empty; now it is
    /// refused at once, on the opened descriptor: only regular files are read by name.
    func testAFIFOArgumentNeverBlocks() throws {
        let fifo = root.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for command in [["dump"], ["validate"], ["tree"], ["dump", "--json"]] {
            let run = try ToolRunner.run(command + [fifo])
            XCTAssertEqual(run.status, 2, "\(command)")
            XCTAssertEqual(run.stderr, "restoration-tool: \(fifo): error: is a FIFO, not a regular file (- reads standard input)\n", "\(command)")
        }
    }

    /// Names that are not UTF-8 could not be opened (arguments were decoded with replacement
    /// characters) and were left out of scan. Foundation's `Process` takes arguments as Strings,
    /// so the names are made and passed by the shell.
    func testNamesThatAreNotUTF8() throws {
        let script = """
            set -e
            cd "$1"
            cp "$2/Fixtures/ios7-plain.data" "$(printf 'caf\\351.data')"
            mkdir "$(printf 'app\\377.savedState')"
            cp "$2/Fixtures/validate/clean.data" "$(printf 'app\\377.savedState')/data.data"
            touch -d @1700000000.25 "$(printf 'app\\377.savedState')/data.data"
            "$3" dump "$(printf 'caf\\351.data')" | head -n 1
            "$3" validate "$(printf 'caf\\351.data')"
            "$3" scan . | tail -n 1
            "$3" scan --format csv . | tail -n 1
            sha256sum < "$2/Fixtures/validate/clean.data" | cut -c 1-64
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, "sh", root.path, ToolRunner.packageRoot, ToolRunner.executable.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        // The digest of the copied file, by coreutils' sha256sum.
        let sha = text.utf8.split(separator: UInt8(ascii: "\n")).last.map { String(decoding: $0, as: UTF8.self) } ?? ""
        XCTAssertEqual(sha.count, 64, text)
        XCTAssertEqual(text, """
            File: caf\\xe9.data
            caf\\xe9.data: valid (0 errors, 0 warnings)
            2024-06-03T09:41:00Z  app\\xff    -      17.5    6        valid   ./app\\xff.savedState/data.data
            2024-06-03T09:41:00Z,2023-11-14T22:13:20.25Z,app\\xff,,42,17.5,6,valid,0,0,,,4199,\(sha),./app\\xff.savedState/data.data\r
            \(sha)

            """)
    }
}
