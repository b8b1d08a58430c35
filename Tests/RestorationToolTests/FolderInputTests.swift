import Foundation
import XCTest

/// A folder is the unit a run reads: every command walks it the same way, to any depth, opens
/// what it finds one way, and spends one budget over all its files.
final class FolderInputTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("folders-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        // rm(1) removes a tree deeper than one path may be long.
        let remove = try Process.run(URL(fileURLWithPath: "/bin/rm"), arguments: ["-rf", root.path])
        remove.waitUntilExit()
    }

    private func copy(_ fixture: String, to path: String) throws -> String {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: ToolRunner.fixture(fixture), toPath: url.path)
        return url.path
    }

    private let budgetMessage = "the files of this run together expand to more than their budget"

    /// Twelve scene sessions of 919 bytes, each within one file's limits (about three million
    /// values): every file used to be granted the limits afresh. The run's budget stops the
    /// files after the first, each with an error that names the option to raise it.
    func testManySmallFilesShareOneBudget() throws {
        for session in 0..<12 {
            _ = try copy("amplification/shared-user-info.data", to: "app.savedState/S\(session)/data.data")
        }
        let folder = root.appendingPathComponent("app.savedState").path
        for command in [["dump", "--json"], ["validate"], ["scan", "--format", "csv"]] {
            let run = try ToolRunner.run(command + [folder])
            XCTAssertEqual(run.status, 2, "\(command)")
            let refused = run.stderr.components(separatedBy: budgetMessage).count - 1
            XCTAssertEqual(refused, 11, "\(command): \(run.stderr.prefix(600))")
            XCTAssertTrue(run.stderr.contains("(--max-expansion)"), "\(command)")
        }
        // Raised, the budget lets another file through.
        XCTAssertEqual(try ToolRunner.run(["validate", "--max-expansion", "4096", folder + "/S0/data.data", folder + "/S1/data.data"]).status, 0)
    }

    /// The two sides of a diff are decoded at the same time: each gets half of what is left,
    /// so that together they stay within one budget.
    func testDiffCountsBothSides() throws {
        let a = try copy("amplification/shared-user-info.data", to: "a/app.savedState/S/data.data")
        let b = try copy("amplification/shared-user-info.data", to: "b/app.savedState/S/data.data")
        for arguments in [[a, b], [root.appendingPathComponent("a").path, root.appendingPathComponent("b").path]] {
            let run = try ToolRunner.run(["diff"] + arguments)
            XCTAssertEqual(run.status, 2, run.stderr)
            XCTAssertTrue(run.stderr.contains(budgetMessage), run.stderr)
        }
        XCTAssertEqual(try ToolRunner.run(["diff", "--max-expansion", "8192", a, b]).status, 0)
    }

    /// `.savedState` folders two levels down: every command finds them, and diff compares them
    /// as diff -r does.
    func testEveryCommandWalksEveryLevel() throws {
        _ = try copy("diff/state-a.data", to: "one/Library/Saved Application State/app.savedState/data.data")
        _ = try copy("diff/state-b.data", to: "two/Library/Saved Application State/app.savedState/data.data")
        let (one, two) = (root.appendingPathComponent("one").path, root.appendingPathComponent("two").path)
        let diff = try ToolRunner.run(["diff", one, two])
        XCTAssertEqual(diff.status, 1, diff.stderr)
        XCTAssertTrue(diff.stdout.contains("Library/Saved Application State/app.savedState/data.data"), diff.stdout)
        for command in [["dump"], ["tree"], ["validate"]] {
            let run = try ToolRunner.run(command + [one])
            XCTAssertEqual(run.status, 0, "\(command): \(run.stderr)")
            XCTAssertFalse(run.stderr.contains("no files"), run.stderr)
            XCTAssertFalse(run.stdout.isEmpty, "\(command)")
        }
    }

    /// `diff FILE DIR` compares FILE with the file of its name in DIR, as diff(1) does.
    func testDiffOfAFileAndAFolder() throws {
        let file = try copy("diff/state-a.data", to: "data.data")
        _ = try copy("diff/state-b.data", to: "app.savedState/data.data")
        let folder = root.appendingPathComponent("app.savedState").path
        let forward = try ToolRunner.run(["diff", file, folder])
        XCTAssertEqual(forward.status, 1, forward.stderr)
        XCTAssertTrue(forward.stdout.contains("app.savedState/data.data"), forward.stdout)
        XCTAssertEqual(try ToolRunner.run(["diff", folder, folder + "/data.data"]).status, 0)
    }

    /// A long scan counts on a terminal's standard error, erased at the end; never when piped,
    /// never with --quiet. (`script` gives the tool a terminal.)
    func testALongScanShowsProgressOnATerminalOnly() throws {
        for session in 0..<4 {
            _ = try copy("amplification/shared-user-info.data", to: "app.savedState/S\(session)/data.data")
        }
        let piped = try ToolRunner.run(["scan", "--format", "csv", root.path])
        XCTAssertFalse(piped.stderr.contains("scanning:") || piped.stderr.contains("\r"), piped.stderr)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no script(1)") }
        for quiet in [false, true] {
            let command = "'\(ToolRunner.executable.path)' scan \(quiet ? "--quiet " : "")--format csv '\(root.path)' > /dev/null"
            let run = try ToolRunner.run(["-qec", command, "/dev/null"], executable: "/usr/bin/script")
            if quiet || run.seconds < 1.2 {
                XCTAssertFalse(run.stdout.contains("scanning:"), run.stdout)
            } else {
                XCTAssertTrue(run.stdout.contains("\rscanning: 6 folders walked, "), run.stdout)
                XCTAssertTrue(run.stdout.contains("\r\u{1B}[Krestoration-tool: "), "erased before the errors: \(run.stdout)")
            }
        }
    }

    /// Two generic keyed archives are compared as any two files of one kind are.
    func testDiffOfGenericKeyedArchives() throws {
        let plain = ToolRunner.fixture("not-restoration.data")
        XCTAssertEqual(try ToolRunner.run(["diff", plain, plain]).status, 0)
        let other = try ToolRunner.run(["diff", plain, ToolRunner.fixture("validate/clean.data")])
        XCTAssertEqual(other.status, 2)
        XCTAssertTrue(other.stderr.contains("nothing to compare"), other.stderr)
    }

    /// A symbolic link to an endless device is refused on the opened descriptor, at once, by
    /// every command: only regular files are read.
    func testOnlyRegularFilesAreRead() throws {
        let link = root.appendingPathComponent("data.data").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/zero")
        for command in [["dump"], ["dump", "--json"], ["tree"], ["validate"], ["diff", ToolRunner.fixture("validate/clean.data")]] {
            let run = try ToolRunner.run(command + [link])
            XCTAssertEqual(run.status, 2, "\(command)")
            XCTAssertLessThan(run.seconds, 2, "\(command)")
            XCTAssertTrue(run.stderr.contains("error: is a character device, not a regular file (- reads standard input)"), "\(command): \(run.stderr)")
        }
    }

    /// A `windows.plist` that exists but cannot be read leaves every record without its key:
    /// nothing in `data.data` could be checked, so it is never called valid, and the reason is
    /// the one dump gives.
    func testAWindowListThatCannotBeReadIsAReason() throws {
        let terminal = "macos/a/com.apple.Terminal.savedState/"
        let records = try copy(terminal + "data.data", to: "fifo.savedState/data.data")
        XCTAssertEqual(mkfifo(root.appendingPathComponent("fifo.savedState/windows.plist").path, 0o600), 0)
        let reason = "windows.plist beside this file cannot be read (is a FIFO, not a regular file)"
        let validate = try ToolRunner.run(["validate", records])
        XCTAssertEqual(validate.status, 2)
        XCTAssertEqual(validate.stdout, "")
        XCTAssertTrue(validate.stderr.hasPrefix("restoration-tool: \(records): error: nothing checked: \(reason)"), validate.stderr)
        let scan = try ToolRunner.run(["scan", "--format", "csv", root.path])
        XCTAssertEqual(scan.status, 2)
        XCTAssertTrue(scan.stdout.contains(reason), scan.stdout)
        XCTAssertTrue(try ToolRunner.run(["dump", records]).stdout.contains(reason))
        // None beside it at all: the same.
        let alone = try copy(terminal + "data.data", to: "alone/data.data")
        let nothing = try ToolRunner.run(["validate", alone])
        XCTAssertEqual(nothing.status, 2)
        XCTAssertTrue(nothing.stderr.contains("error: nothing checked: no windows.plist beside this file"), nothing.stderr)
    }

    /// A FIFO where a scene's `userInfo.data` or `KnownSceneSessions/data.data` would be is
    /// listed by scan, with why it was not read.
    func testScanListsWhatItDidNotRead() throws {
        _ = try copy("validate/clean.data", to: "app.savedState/data.data")
        let scene = root.appendingPathComponent("app.savedState/SCENE")
        try FileManager.default.createDirectory(at: scene, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(scene.appendingPathComponent("userInfo.data").path, 0o600), 0)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("app.savedState/KnownSceneSessions"), withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(root.appendingPathComponent("app.savedState/KnownSceneSessions/data.data").path, 0o600), 0)
        let run = try ToolRunner.run(["scan", "--format", "csv", root.path])
        XCTAssertEqual(run.status, 2, run.stderr)
        for path in ["app.savedState/SCENE/userInfo.data", "app.savedState/KnownSceneSessions/data.data"] {
            let full = root.appendingPathComponent(path).path
            XCTAssertTrue(run.stderr.contains("restoration-tool: \(full): error: is a FIFO, not a regular file\n"), run.stderr)
            XCTAssertTrue(run.stdout.contains(",unreadable,") && run.stdout.contains(full), run.stdout)
        }
    }

    /// A plain property list named to validate is no restoration archive: exit 2, so that a
    /// check pointed at the wrong file fails; found in a folder, it is a note.
    func testValidateRefusesANamedFileWithNothingToValidate() throws {
        let plain = ToolRunner.fixture("plain.plist")
        let run = try ToolRunner.run(["validate", "--strict", plain])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "restoration-tool: \(plain): error: not a restoration archive: a plain property list, which has nothing to validate\n")
        let json = try ToolRunner.run(["validate", "--json", plain])
        XCTAssertEqual(json.status, 2)
        _ = try copy("plain.plist", to: "app.savedState/Info.plist")
        _ = try copy("validate/clean.data", to: "app.savedState/data.data")
        let folder = try ToolRunner.run(["validate", root.appendingPathComponent("app.savedState").path])
        XCTAssertEqual(folder.status, 0, folder.stderr)
        XCTAssertTrue(folder.stderr.contains("note: skipped: a plain property list"), folder.stderr)
    }

    /// A tree deeper than one path may be long: the walk and the reads open it a folder at a
    /// time, and the path shown is the whole one.
    func testPathsLongerThanTheSystemTakes() throws {
        let name = String(repeating: "d", count: 200)
        let top = root.appendingPathComponent("deep").path
        let archive = top + "/" + Array(repeating: name, count: 25).joined(separator: "/") + "/app.savedState/data.data"
        XCTAssertGreaterThan(archive.utf8.count, 5000)
        // Made a folder at a time: no one call takes the whole path.
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/bin/bash")  // dash cannot cd past PATH_MAX
        make.arguments = ["-c", "set -e; mkdir \"$1\"; cd \"$1\"; for i in $(seq 25); do mkdir \"$2\"; cd \"$2\"; done; mkdir app.savedState; cp \"$3\" app.savedState/data.data",
                          "sh", top, name, ToolRunner.fixture("validate/clean.data")]
        try make.run()
        make.waitUntilExit()
        XCTAssertEqual(make.terminationStatus, 0)
        for command in [["validate"], ["dump"], ["scan"]] {
            let run = try ToolRunner.run(command + [top])
            XCTAssertEqual(run.status, 0, "\(command): \(run.stderr.prefix(300))")
            XCTAssertTrue((run.stdout + run.stderr).contains(archive) || command == ["dump"], "\(command)")
        }
        XCTAssertTrue(try ToolRunner.run(["validate", archive]).stdout.hasPrefix(archive + ": valid"))
    }
}
