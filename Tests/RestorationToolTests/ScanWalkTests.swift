import Foundation
import XCTest

/// What scan says of the directory tree it walks: nested `.savedState` folders, the depth limit.
final class ScanWalkTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("scan-walk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func archive(at relative: String) throws {
        let folder = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: ToolRunner.fixture("validate/clean.data"), toPath: folder.appendingPathComponent("data.data").path)
    }

    func testASavedStateInsideAnotherIsListed() throws {
        try archive(at: "app.savedState")
        try archive(at: "app.savedState/inner.savedState")
        let run = try ToolRunner.run(["scan", "--format", "jsonl", root.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let paths = run.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["path"] as? String
        }
        XCTAssertEqual(Set(paths), [root.path + "/app.savedState/data.data", root.path + "/app.savedState/inner.savedState/data.data"])
        // Named itself, the outer folder is searched the same way.
        let alone = try ToolRunner.run(["scan", "--format", "jsonl", root.path + "/app.savedState"])
        XCTAssertEqual(alone.stdout.split(separator: "\n").count, 2, alone.stdout)
    }

    func testTheDepthLimitSaysWhatItLeftOut() throws {
        try archive(at: "a/b/c/app.savedState")
        let run = try ToolRunner.run(["scan", "--max-directory-depth", "2", root.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "restoration-tool: \(root.path): warning: 1 directory 2 levels down, \(root.path)/a/b the first, not searched (--max-directory-depth)\n"
                       + "restoration-tool: \(root.path): note: no saved state found (no <bundle-id>.savedState folder holds an archive)\n")
        XCTAssertEqual(try ToolRunner.run(["scan", "--max-directory-depth", "4", root.path]).stderr, "")
    }

    /// A scene-session folder that cannot be read is an error with its reason, in scan and
    /// validate alike (root reads any folder: run as `nobody` when the tests run as root).
    func testAnUnreadableSceneFolderIsReported() throws {
        try archive(at: "app.savedState")
        try archive(at: "app.savedState/SCENE")
        let scene = root.appendingPathComponent("app.savedState/SCENE")
        XCTAssertEqual(chmod(scene.path, 0), 0)
        defer { chmod(scene.path, 0o755) }
        guard ToolRunner.canRunUnprivileged else { throw XCTSkip("running as root without setpriv") }
        for command in [["scan"], ["validate"]] {
            let run = try ToolRunner.run(command + [root.path + "/app.savedState"], asUnprivilegedUser: true)
            XCTAssertEqual(run.status, 2, "\(command)")
            XCTAssertTrue(run.stderr.contains(scene.path + ": error: cannot read this"), run.stderr)
            XCTAssertTrue(run.stderr.contains("Permission denied"), run.stderr)
        }
    }
}

/// Issue 34's row 7: a repeated children list is checked as the first is, in every command.
final class RepeatedStateKeyTests: XCTestCase {
    func testEveryValueOfARepeatedChildrenKeyIsChecked() throws {
        let fixture = "Fixtures/validate/repeated-children.data"
        let validate = try ToolRunner.run(["validate", fixture])
        XCTAssertEqual(validate.status, 1)
        XCTAssertTrue(validate.stdout.contains("error[dangling-reference]: TabController/:[0]:/NavigationController: can't find child view controller at index 0 with identifier TabController/:[0]:/NavigationController/:[1]:/GoneViewController"), validate.stdout)
        XCTAssertTrue(validate.stdout.contains("warning[repeated-state-key]: TabController/:[0]:/NavigationController: its state holds kUIViewControllerChildrenKey 2 times"), validate.stdout)
        let tree = try ToolRunner.run(["tree", fixture])
        XCTAssertTrue(tree.stdout.hasSuffix(", 1 dangling reference\n"), tree.stdout)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repeated-\(UUID().uuidString).savedState")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: ToolRunner.fixture("validate/repeated-children.data"), toPath: folder.appendingPathComponent("data.data").path)
        let scan = try ToolRunner.run(["scan", "--format", "csv", folder.path])
        let row = try XCTUnwrap(scan.stdout.split(separator: "\r\n").dropFirst().first)
        XCTAssertTrue(row.contains("dangling-reference repeated-state-key"), String(row))
    }
}

/// Issue 34's row 10: data compares by its bytes, not by where it lay in the file.
final class DataEqualityTests: XCTestCase {
    func testTheSameDamagedBytesAtAnotherOffsetAreEqual() throws {
        let run = try ToolRunner.run(["diff", "Fixtures/validate/undecodable-state.data", "Fixtures/diff/undecodable-state-twin.xml"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(run.stdout, "")
        // The reason says where in the data the damage is.
        let dump = try ToolRunner.run(["dump", "Fixtures/validate/undecodable-state.data"])
        XCTAssertTrue(dump.stdout.contains("it must be 1 to 8 (at byte 22 of the data)"), dump.stdout)
    }
}

/// Issue 34's row 6: a root dictionary that holds `$top` twice, binary or XML, is reported as a
/// repeated `$top` key is, not read silently.
final class RepeatedRootKeyTests: XCTestCase {
    func testARepeatedTopInTheRootIsReported() throws {
        for file in ["Fixtures/validate/repeated-root-key.data", "Fixtures/validate/repeated-root-key.xml"] {
            let dump = try ToolRunner.run(["dump", file])
            XCTAssertTrue(dump.stdout.contains("Note: the root dictionary holds $top 2 times: the first is read, the others are not\n"), file)
            let json = try ToolRunner.run(["dump", "--json", file])
            XCTAssertTrue(json.stdout.contains("\"the root dictionary holds $top 2 times: the first is read, the others are not\""), file)
            let validate = try ToolRunner.run(["validate", file])
            XCTAssertEqual(validate.status, 0)
            XCTAssertTrue(validate.stdout.contains("warning[repeated-top-key]: (archive): the root dictionary holds $top 2 times"), validate.stdout)
        }
    }
}
