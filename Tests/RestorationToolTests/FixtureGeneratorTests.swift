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
