import Foundation
import XCTest

/// Every command on the files of a `.savedState` folder other than UIKit's archive: scene
/// sessions and macOS window state (Fixtures/saved_state.py).
final class SavedStateCommandTests: XCTestCase {
    private let scenes = "Fixtures/scenes/com.example.notes.savedState"
    private let terminalA = "Fixtures/macos/a/com.apple.Terminal.savedState"
    private let terminalB = "Fixtures/macos/b/com.apple.Terminal.savedState"

    private func json(_ run: ToolRun) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    }

    func testDumpOfAFolderShowsEveryFile() throws {
        let run = try ToolRunner.run(["dump", "--json", scenes + "/"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let documents = try XCTUnwrap(try json(run) as? [[String: Any]])
        XCTAssertEqual(documents.map { $0["kind"] as? String }, ["sceneActivity", "propertyList", "sceneActivity", "sceneActivity", "propertyList", "knownSceneSessions"])
        let text = try ToolRunner.run(["dump", terminalA])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stdout.components(separatedBy: "\nFile: ").count, 3, "data.data, window_1.data, windows.plist")
        XCTAssertTrue(text.stdout.contains("Note: a macOS window snapshot (96 bytes)"))
        // A folder of one file is still an array.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("one-\(UUID().uuidString).savedState")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: ToolRunner.fixture("ios8-tabbar.data"), toPath: folder.appendingPathComponent("data.data").path)
        let one = try ToolRunner.run(["dump", "--json", folder.path])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertEqual((try json(one) as? [[String: Any]])?.count, 1, String(one.stdout.prefix(40)))
    }

    func testHistoryShowsOlderRecords() throws {
        let current = try ToolRunner.run(["dump", terminalA + "/data.data"])
        XCTAssertFalse(current.stdout.contains("older record at byte"))
        XCTAssertTrue(current.stdout.contains("(1 older one not shown: --history shows it)"))
        let history = try ToolRunner.run(["dump", "--history", terminalA + "/data.data"])
        XCTAssertTrue(history.stdout.contains("    window 1 (older record at byte 0)....Dictionary"), history.stdout)
        XCTAssertTrue(history.stdout.contains("\"zsh — 80×24\""))
    }

    func testWithoutWindowsPlistNothingIsDecrypted() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: ToolRunner.fixture("macos/a/com.apple.Terminal.savedState/data.data")))
        let run = try ToolRunner.run(["dump", "-"], input: bytes)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("Note: read from standard input: no windows.plist to take the keys from"))
        XCTAssertFalse(run.stdout.contains("rchv"))
    }

    /// A windows.plist that is a symbolic link is not followed: its keys are not taken.
    func testALinkedWindowsPlistIsNotFollowed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("linked-\(UUID().uuidString).savedState")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: ToolRunner.fixture("macos/a/com.apple.Terminal.savedState/data.data"), toPath: folder.appendingPathComponent("data.data").path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("windows.plist").path,
                                                   withDestinationPath: ToolRunner.fixture("macos/a/com.apple.Terminal.savedState/windows.plist"))
        let run = try ToolRunner.run(["dump", folder.appendingPathComponent("data.data").path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("windows.plist beside this file cannot be read (is a symbolic link, which is not followed)"), run.stdout)
    }

    /// A window's NSWindowFrame is shown as numbers beside its text.
    func testTheWindowFrameIsNumbers() throws {
        let run = try ToolRunner.run(["dump", "--json", terminalA + "/data.data"])
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let window = try XCTUnwrap((document["appState"] as? [String: Any])?["window 1"] as? [String: Any])
        let frame = try XCTUnwrap(window["windowFrame"] as? [String: [String: Int]])
        XCTAssertEqual(frame, ["window": ["x": 100, "y": 200, "width": 1000, "height": 700], "screen": ["x": 0, "y": 0, "width": 1440, "height": 875]])
    }

    /// Two entries with one NSWindowID are named where the keys are taken, not passed over.
    func testARepeatedWindowIDIsNoted() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("twice-\(UUID().uuidString).savedState")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: ToolRunner.fixture("macos/a/com.apple.Terminal.savedState/data.data"), toPath: folder.appendingPathComponent("data.data").path)
        let key = Data((0..<16).map { UInt8((1 * 17 + $0 * 7) % 256) })
        let entries: [[String: Any]] = [["NSWindowID": 1, "NSDataKey": Data(count: 16)], ["NSWindowID": 1, "NSDataKey": key]]
        try PropertyListSerialization.data(fromPropertyList: entries, format: .binary, options: 0).write(to: folder.appendingPathComponent("windows.plist"))
        let run = try ToolRunner.run(["dump", folder.appendingPathComponent("data.data").path])
        XCTAssertTrue(run.stdout.contains("NSWindowID 1 is in 2 entries of windows.plist (entry 0 and entry 1): the records of window 1 are decrypted with the last one's NSDataKey"), run.stdout)
        XCTAssertTrue(run.stdout.contains("zsh — 120×40"), "the last entry's key decrypts window 1")
    }

    /// The scan table lines up with titles whose characters take two cells on a terminal, or none.
    func testTheScanTableLinesUpWithWideCharacters() throws {
        let rows = [("app.savedState", "한국어 제목"), ("b.savedState", "plain"), ("c.savedState", "e\u{301}\u{301}x")]
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wide-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for (name, scene) in rows {
            let folder = root.appendingPathComponent(name).appendingPathComponent(scene)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: ToolRunner.fixture("validate/clean.data"), toPath: folder.appendingPathComponent("data.data").path)
        }
        let run = try ToolRunner.run(["scan", root.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        // The SYSTEM column starts in the same terminal cell on every line.
        let starts = run.stdout.split(separator: "\n").map { line -> Int in
            let before = line.range(of: line.hasPrefix("SAVED") ? "SYSTEM" : "17.5")!.lowerBound
            return line[..<before].unicodeScalars.reduce(0) { width, scalar in
                switch scalar.value {
                case 0x1100...0x115F, 0xAC00...0xD7A3: width + 2
                case 0x300...0x36F: width
                default: width + 1
                }
            }
        }
        XCTAssertEqual(Set(starts).count, 1, run.stdout)
    }

    func testValidateOfAFileAndOfItsFolderAgree() throws {
        let broken = scenes + "/9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D/data.data"
        let file = try ToolRunner.run(["validate", broken])
        let folder = try ToolRunner.run(["validate", scenes])
        XCTAssertEqual(file.status, 1)
        XCTAssertEqual(folder.status, 1)
        let fileLines = file.stdout.split(separator: "\n")
        XCTAssertFalse(fileLines.isEmpty)
        for line in fileLines { XCTAssertTrue(folder.stdout.contains(line), "\(line) missing from the folder's report") }
        XCTAssertEqual(try ToolRunner.run(["validate", terminalA]).status, 0)
        // A plain property list has nothing to validate: named alone it is an error (a check
        // pointed at the wrong file fails), in its folder a note.
        let userInfo = scenes + "/5E1F8C2A-3B4D-4E6F-8A9B-0C1D2E3F4A5B/userInfo.data"
        let plain = try ToolRunner.run(["validate", userInfo])
        XCTAssertEqual(plain.status, 2)
        XCTAssertEqual(plain.stderr, "restoration-tool: \(userInfo): error: not a restoration archive: a plain property list, which has nothing to validate\n")
        XCTAssertTrue(folder.stderr.contains(userInfo + ": note: skipped: a plain property list, which has nothing to validate"), folder.stderr)
    }

    func testTreeDrawsWindowsAndPassesOverPlainFilesOfAFolder() throws {
        let run = try ToolRunner.run(["tree", terminalA + "/data.data"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, """
            window 2 "Notes"
            window 7  [no state: no key: windows.plist has no entry with NSWindowID 7 (keys are replaced as windows close)]
            window 1 "zsh — 120×40" (1 older record)
            3 objects, 0 views, 0 dangling references

            """)
        let folder = try ToolRunner.run(["tree", scenes])
        XCTAssertEqual(folder.status, 0, folder.stderr)
        XCTAssertTrue(folder.stderr.contains("userInfo.data: note: skipped: a plain property list has no windows, scenes or objects to draw"), folder.stderr)
        XCTAssertTrue(folder.stdout.contains("activity com.example.notes.viewing \"Groceries\""))
        let alone = try ToolRunner.run(["tree", "Fixtures/plain.plist"])
        XCTAssertEqual(alone.status, 2)
    }

    func testDiffOfTwoFoldersAsDiffR() throws {
        let run = try ToolRunner.run(["diff", terminalA, terminalB])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stdout.contains("~ appState.\"window 2\".rchv.NSTitle: \"Notes\" → \"Notes — edited\""), run.stdout)
        XCTAssertTrue(run.stdout.contains("+++ \(terminalB)/windows.plist"))
        XCTAssertEqual(try ToolRunner.run(["diff", terminalA, terminalA]).stdout, "")
        XCTAssertEqual(try ToolRunner.run(["diff", terminalA, terminalA]).status, 0)
        let other = try ToolRunner.run(["diff", terminalA, scenes])
        XCTAssertEqual(other.status, 1)
        XCTAssertTrue(other.stdout.contains("Only in \(terminalA): windows.plist\n"), other.stdout)
        XCTAssertTrue(other.stdout.contains("Only in \(scenes): KnownSceneSessions/data.data\n"), other.stdout)
        let documents = try XCTUnwrap(try json(try ToolRunner.run(["diff", "--json", terminalA, scenes])) as? [[String: Any]])
        XCTAssertEqual(documents.filter { $0["only"] as? String == "a" }.count, 3)
        XCTAssertEqual(documents.filter { $0["only"] as? String == "b" }.count, 6)
        // Files of two kinds are not compared.
        let kinds = try ToolRunner.run(["diff", terminalA + "/windows.plist", terminalA + "/data.data"])
        XCTAssertEqual(kinds.status, 2)
        XCTAssertTrue(kinds.stderr.hasSuffix("nothing to compare\n"), kinds.stderr)
    }

    func testScanGivesARowPerWindowAndSessionAndNamesDaemonContainers() throws {
        let run = try ToolRunner.run(["scan", "--format", "json", "Fixtures/macos", scenes])
        XCTAssertEqual(run.status, 0, run.stderr)
        let document = try XCTUnwrap(try json(run) as? [String: Any])
        let rows = try XCTUnwrap(document["archives"] as? [[String: Any]])
        let windows = rows.filter { $0["kind"] as? String == "macWindowRecords" }
        XCTAssertEqual(windows.count, 9, "three windows in each of three folders")
        // macOS 15's folder is named by its UUID and mapped to the app.
        let daemon = windows.filter { ($0["path"] as? String)?.contains("Daemon Containers") == true }
        XCTAssertEqual(Set(daemon.compactMap { $0["bundleIdentifier"] as? String }), ["com.apple.Terminal"])
        // The record as dump names it, and apart from it the window's id, record and title.
        XCTAssertEqual(Set(windows.compactMap { $0["window"] as? String }), ["window 1", "window 2", "window 7"])
        XCTAssertEqual(Set(windows.compactMap { $0["title"] as? String }), ["zsh — 120×40", "Notes", "Notes — edited"])
        XCTAssertEqual(Set(windows.compactMap { $0["windowID"] as? Int }), [1, 2, 7])
        XCTAssertEqual(Set(windows.map { $0["record"] as? String }), ["_NSWindow", nil], "window 7's record has no key")
        let sessions = rows.filter { ($0["bundleIdentifier"] as? String) == "com.example.notes" }
        XCTAssertEqual(sessions.compactMap { $0["sceneSession"] as? String }.count, 5, "one row per scene session")
        XCTAssertEqual(sessions.filter { $0["status"] as? String == "invalid" }.count, 1)
        XCTAssertEqual(sessions.filter { $0["status"] as? String == "skipped" }.count, 2, "a session without activity, one listed without a folder")
    }
}
