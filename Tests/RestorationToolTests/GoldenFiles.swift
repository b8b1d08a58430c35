import Foundation
import XCTest

/// Compares output with a committed golden file. `UPDATE_GOLDEN=1 swift test` rewrites the
/// files instead; review the diff before committing them.
enum GoldenFiles {
    static let directory = ToolRunner.packageRoot + "/Tests/RestorationToolTests/Golden/"

    static func assertMatches(_ actual: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = directory + name
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            return XCTFail("missing golden file \(name): run UPDATE_GOLDEN=1 swift test", file: file, line: line)
        }
        if actual != expected {
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let firstDifference = Array(zip(actualLines, expectedLines)).firstIndex { $0 != $1 } ?? min(actualLines.count, expectedLines.count)
            let shown = { (lines: [Substring]) in firstDifference < lines.count ? String(lines[firstDifference]) : "(end)" }
            XCTFail("""
                output differs from \(name) at line \(firstDifference + 1):
                  expected: \(shown(expectedLines))
                  actual:   \(shown(actualLines))
                """, file: file, line: line)
        }
    }
}
