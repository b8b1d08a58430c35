import Foundation
import XCTest

/// The committed fixtures are exactly what the committed generator writes.
final class FixtureGeneratorTests: XCTestCase {
    func testGeneratorReproducesTheCommittedFixtures() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", ToolRunner.fixture("generate.py"), output.path]
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus == 127 { throw XCTSkip("python3 is not installed") }
        XCTAssertEqual(process.terminationStatus, 0)

        let root = URL(fileURLWithPath: ToolRunner.fixture(""))
        var compared = 0
        for relative in try files(under: output) {
            let committed = try Data(contentsOf: root.appendingPathComponent(relative))
            let generated = try Data(contentsOf: output.appendingPathComponent(relative))
            XCTAssertEqual(committed, generated, "\(relative) differs from what generate.py writes")
            compared += 1
        }
        XCTAssertGreaterThan(compared, 25)
    }

    /// `generate.py --help` once wrote a stray copy of the fixtures into a folder named `--help`:
    /// it prints its usage now, and an unknown option is an error.
    func testGeneratorTakesOptions() throws {
        for (arguments, status) in [(["--help"], Int32(0)), (["--no-such-option"], Int32(2))] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", ToolRunner.fixture("generate.py")] + arguments
            process.currentDirectoryURL = FileManager.default.temporaryDirectory
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus == 127 { throw XCTSkip("python3 is not installed") }
            XCTAssertEqual(process.terminationStatus, status, "\(arguments)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: FileManager.default.temporaryDirectory.appendingPathComponent("--help").path))
    }

    /// What the repository holds at its top level: nothing else (a stray `--help/` folder, build
    /// output) may be committed.
    func testRepositoryHoldsOnlyTheExpectedTopLevel() throws {
        let expected: Set<String> = [
            "Package.swift", "Package.resolved", "Sources", "Tests", "Fixtures", "man", "docs", "schemas", "README.md",
            "CHANGELOG.md", "CONTRIBUTING.md", "LICENSE", "Makefile", ".ci", ".gitignore",
        ]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", ToolRunner.packageRoot, "ls-files", "-z"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let listing = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCTSkip("not a git checkout") }
        let topLevel = Set(listing.split(separator: 0).map { String(decoding: $0, as: UTF8.self).split(separator: "/")[0] }.map(String.init))
        XCTAssertFalse(topLevel.isEmpty)
        XCTAssertEqual(topLevel.subtracting(expected), [], "unexpected top-level entries are committed")
    }

    private func files(under directory: URL) throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        var result: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path, isDirectory: &isDirectory)
            if exists, !isDirectory.boolValue { result.append(path) }
        }
        return result
    }
}
