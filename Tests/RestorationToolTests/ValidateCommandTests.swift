import Foundation
import XCTest

final class ValidateCommandTests: XCTestCase {
    /// Fixture → the rule it breaks. Each must raise that rule and no other error.
    static let ruleFixtures: [String: String] = [
        "dangling-reference.data": "dangling-reference",
        "missing-object.data": "missing-object",
        "unlisted-object.data": "unlisted-object",
        "duplicate-path.data": "duplicate-path",
        "malformed-path.data": "malformed-path",
        "orphan-path.data": "orphan-path",
        "duplicate-sibling-identifier.data": "duplicate-sibling-identifier",
        "class-map-unknown-path.data": "class-map-unknown-path",
        "unsupported-version.data": "unsupported-version",
        "malformed-metadata.data": "malformed-metadata",
        "undecodable-state.data": "undecodable-state",
        "selected-tab-not-child.data": "selected-tab-not-child",
        "selected-tab-not-child-by-path.data": "selected-tab-not-child",
        "proxy-without-path.data": "proxy-without-path",
        "first-responder-unknown-path.data": "first-responder-unknown-path",
        "pending-discard.savedState": "pending-discard",
        "interrupted-restore.savedState": "interrupted-restore",
        "unreadable-sidecar.savedState": "unreadable-sidecar",
        "repeated-top-key.data": "repeated-top-key",
        "undecodable-user-info.savedState": "undecodable-user-info",
        "wrong-key.savedState": "wrong-key",
        "torn-record.savedState": "torn-record",
        "repeated-state-key.data": "repeated-state-key",
    ]

    /// The one rule with no fixture of its own: it compares `clean.data` with `--bundle-version`.
    static let ruleWithoutFixture = "bundle-version-mismatch"

    /// The JSON document for one archive (a `.savedState` directory gives an array of one).
    private func document(_ arguments: [String]) throws -> (ToolRun, [String: Any]) {
        let run = try ToolRunner.run(["validate", "--json"] + arguments)
        let parsed = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        let object = try XCTUnwrap(parsed as? [String: Any] ?? (parsed as? [[String: Any]])?.first, run.stderr)
        return (run, object)
    }

    func testEveryRuleHasAFixture() throws {
        let rules = try ToolRunner.run(["validate", "--list-rules"]).stdout.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        XCTAssertEqual(Set(rules), Set(Self.ruleFixtures.values).union([Self.ruleWithoutFixture]))
    }

    private func diagnostics(_ document: [String: Any]) -> [[String: Any]] {
        document["diagnostics"] as? [[String: Any]] ?? []
    }

    func testEachRuleFixtureRaisesItsRuleAndNoOtherError() throws {
        for (name, rule) in Self.ruleFixtures.sorted(by: { $0.key < $1.key }) {
            let (run, document) = try self.document(["Fixtures/validate/" + name])
            let found = diagnostics(document)
            XCTAssertTrue(found.contains { $0["rule"] as? String == rule }, "\(name) does not raise \(rule): \(found)")
            let otherErrors = found.filter { $0["severity"] as? String == "error" && $0["rule"] as? String != rule }
            XCTAssertEqual(otherErrors.count, 0, "\(name) raises other errors: \(otherErrors)")
            let hasErrors = found.contains { $0["severity"] as? String == "error" }
            XCTAssertEqual(run.status, hasErrors ? 1 : 0, name)
            XCTAssertEqual(document["valid"] as? Bool, !hasErrors, name)
        }
    }

    func testCleanFixturesHaveNoErrors() throws {
        for name in ["validate/clean.data", "ios8-tabbar.data", "ios8-tabbar.xml", "ios7-plain.data", "values.data",
                     "evidence/statedemo-ios8.data", "evidence/statedemo-ios8.xml"] {
            let (run, document) = try self.document(["Fixtures/" + name])
            XCTAssertEqual(run.status, 0, name)
            XCTAssertEqual(document["errors"] as? Int, 0, "\(name): \(diagnostics(document))")
        }
        let (_, clean) = try document(["Fixtures/validate/clean.data"])
        XCTAssertEqual(clean["warnings"] as? Int, 0)
    }

    /// Every rule fixture's text and JSON report, golden.
    func testGoldenOutput() throws {
        for fixture in Self.ruleFixtures.keys.sorted() {
            let name = "validate-" + fixture.split(separator: ".")[0]
            let text = try ToolRunner.run(["validate", "Fixtures/validate/" + fixture])
            try GoldenFiles.assertMatches(text.stdout, name + ".txt")
            let json = try ToolRunner.run(["validate", "--json", "Fixtures/validate/" + fixture])
            try GoldenFiles.assertMatches(json.stdout, name + ".json")
        }
    }

    func testStrictFailsOnWarnings() throws {
        let lenient = try ToolRunner.run(["validate", "Fixtures/validate/orphan-path.data"])
        XCTAssertEqual(lenient.status, 0)
        let strict = try ToolRunner.run(["validate", "--strict", "Fixtures/validate/orphan-path.data"])
        XCTAssertEqual(strict.status, 1)
    }

    func testBundleVersion() throws {
        let same = try ToolRunner.run(["validate", "--strict", "--bundle-version", "42", "Fixtures/validate/clean.data"])
        XCTAssertEqual(same.status, 0, same.stdout)
        let other = try ToolRunner.run(["validate", "--bundle-version", "43", "Fixtures/validate/clean.data"])
        XCTAssertEqual(other.status, 0)
        XCTAssertTrue(other.stdout.contains("warning[bundle-version-mismatch]: (archive): the archive was saved with bundle version \"42\", not \"43\""), other.stdout)
        // The bundle version is optional: an archive without one is not reported.
        let none = try ToolRunner.run(["validate", "--strict", "--bundle-version", "43", "Fixtures/ios7-plain.data"])
        XCTAssertEqual(none.status, 0, none.stdout)
        XCTAssertFalse(none.stdout.contains("bundle-version-mismatch"), none.stdout)
        // An empty version (an unset variable in a CI script) is a usage error, not a finding.
        let empty = try ToolRunner.run(["validate", "--strict", "--bundle-version", "", "Fixtures/validate/clean.data"])
        XCTAssertEqual(empty.status, 64)
        XCTAssertEqual(empty.stdout, "")
        XCTAssertTrue(empty.stderr.hasPrefix("restoration-tool: error: --bundle-version needs a version; it was given an empty one\n"), empty.stderr)
    }

    func testSavedStateDirectories() throws {
        let (run, documents) = try ToolRunner.run(["validate", "--json", "Fixtures/validate/pending-discard.savedState"]).withJSONArray()
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(documents.count, 1)
        XCTAssertEqual(documents.first?["file"] as? String, "Fixtures/validate/pending-discard.savedState/data.data")
        let rules = diagnostics(documents[0]).map { $0["rule"] as? String }
        XCTAssertEqual(rules, ["pending-discard"])

        let last = try ToolRunner.run(["validate", "Fixtures/validate/last-try.savedState"])
        XCTAssertTrue(last.stdout.contains("warning[pending-discard]"), last.stdout)
        XCTAssertTrue(last.stdout.contains("1 attempt is left"), last.stdout)
        XCTAssertEqual(try ToolRunner.run(["validate", "--strict", "Fixtures/validate/last-try.savedState"]).status, 1)
    }

    func testSceneSessionsWithTopLevelSidecars() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("app-\(UUID().uuidString).savedState")
        let fileManager = FileManager.default
        defer { try? fileManager.removeItem(at: root) }
        let session = root.appendingPathComponent("8C2F7D1E-0A2B-4C3D-9E8F-1A2B3C4D5E6F")
        let activity = root.appendingPathComponent("0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")
        for folder in [session, activity, root.appendingPathComponent("KnownSceneSessions")] {
            try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try fileManager.copyItem(atPath: ToolRunner.fixture("validate/clean.data"), toPath: session.appendingPathComponent("data.data").path)
        try fileManager.copyItem(atPath: ToolRunner.fixture("plain.plist"), toPath: activity.appendingPathComponent("data.data").path)
        try fileManager.copyItem(atPath: ToolRunner.fixture("validate/pending-discard.savedState/inprogress.data"), toPath: root.appendingPathComponent("inprogress.data").path)

        let run = try ToolRunner.run(["validate", root.path + "/"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains(session.path + "/data.data: warning[pending-discard]"), run.stdout)
        XCTAssertTrue(run.stderr.contains(activity.path + "/data.data: note: skipped: a plain property list, which has nothing to validate"), run.stderr)
        XCTAssertFalse(run.stdout.contains("//"), "a trailing slash does not double the separator")
    }

    func testUnreadableAndNotRestoration() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nothing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: ToolRunner.fixture("plain.plist"), toPath: folder.appendingPathComponent("Info.plist").path)
        let run = try ToolRunner.run(["validate", "Fixtures/not-restoration.data", "Fixtures/validate/clean.data", folder.path])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stdout.contains("Fixtures/validate/clean.data: valid (0 errors, 0 warnings)"))
        XCTAssertTrue(run.stderr.contains("restoration-tool: Fixtures/not-restoration.data: error: not a UIKit state-restoration archive"), run.stderr)
        XCTAssertTrue(run.stderr.contains("restoration-tool: \(folder.path): error: no saved state to validate in this directory or its subfolders"), run.stderr)
    }

    func testSeveralFilesGiveAnArray() throws {
        let (run, documents) = try ToolRunner.run(["validate", "--json", "Fixtures/validate/clean.data", "Fixtures/validate/duplicate-path.data"]).withJSONArray()
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(documents.map { $0["valid"] as? Bool }, [true, false])
    }

    func testListRules() throws {
        let run = try ToolRunner.run(["validate", "--list-rules"])
        XCTAssertEqual(run.status, 0)
        for rule in Set(Self.ruleFixtures.values).union(["bundle-version-mismatch", "pending-discard", "interrupted-restore", "unreadable-sidecar"]) {
            XCTAssertTrue(run.stdout.contains(rule + " "), rule)
        }
    }

    func testListRulesAsJSON() throws {
        let run = try ToolRunner.run(["validate", "--list-rules", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["schemaVersion"] as? Int, 1)
        let rules = try XCTUnwrap(document["rules"] as? [[String: Any]])
        let text = try ToolRunner.run(["validate", "--list-rules"]).stdout.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        XCTAssertEqual(rules.map { $0["rule"] as? String }, text)
        XCTAssertEqual(rules.first { $0["rule"] as? String == "class-map-unknown-path" }?["severities"] as? [String], ["error", "warning"])
        XCTAssertEqual(rules.first { $0["rule"] as? String == "orphan-path" }?["severities"] as? [String], ["warning"])
        XCTAssertTrue(rules.allSatisfy { ($0["summary"] as? String)?.isEmpty == false })
        XCTAssertTrue(rules.allSatisfy { ($0["reads"] as? [String])?.isEmpty == false && ($0["predicts"] as? String)?.isEmpty == false })
    }

    /// The manual says, per rule, which keys it reads and what UIKit does: the same words as
    /// `--list-rules --json`, inside that rule's entry.
    func testManualPageSaysWhatEachRuleReadsAndPredicts() throws {
        let manual = try String(contentsOfFile: ToolRunner.packageRoot + "/man/restoration-tool.1", encoding: .utf8)
        let run = try ToolRunner.run(["validate", "--list-rules", "--json"])
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        for rule in try XCTUnwrap(document["rules"] as? [[String: Any]]) {
            let name = try XCTUnwrap(rule["rule"] as? String)
            let start = try XCTUnwrap(manual.range(of: ".It Sy \(name) Pq"), name)
            let end = manual.range(of: ".It Sy ", range: start.upperBound..<manual.endIndex)?.lowerBound ?? manual.endIndex
            let entry = manual[start.lowerBound..<end]
            let reads = try XCTUnwrap(rule["reads"] as? [String]).joined(separator: ", ")
            XCTAssertTrue(entry.contains("Reads: \(reads)."), "\(name): the manual's entry does not say it reads \(reads)")
            let predicts = try XCTUnwrap(rule["predicts"] as? String)
            XCTAssertTrue(entry.contains("Predicts: \(predicts)."), "\(name): the manual's entry does not say it predicts \(predicts)")
        }
    }

    func testEveryRuleIsDocumentedInTheManualPage() throws {
        let manual = try String(contentsOfFile: ToolRunner.packageRoot + "/man/restoration-tool.1", encoding: .utf8)
        let rules = try ToolRunner.run(["validate", "--list-rules"]).stdout.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        XCTAssertGreaterThan(rules.count, 15)
        for rule in rules {
            XCTAssertTrue(manual.contains("Sy \(rule)") || manual.contains("It Sy \(rule)") || manual.contains(".It \(rule)") || manual.contains("Cm \(rule)"),
                "man page does not document rule \(rule)")
        }
    }
}

extension ToolRun {
    func withJSONArray() throws -> (ToolRun, [[String: Any]]) {
        let array = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]], stderr)
        return (self, array)
    }
}
