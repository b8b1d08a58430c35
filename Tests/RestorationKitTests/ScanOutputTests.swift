import XCTest
@testable import RestorationKit

final class ScanOutputTests: XCTestCase {
    /// Columns are as wide as their widest cell: one 100 KB system version among 3 000 archives
    /// made 300 MB of spaces. Cells are cut at 60 characters.
    func testALongCellDoesNotWidenItsColumn() {
        var rows = (0..<3000).map { index in
            var row = ScanRow(path: "/d/app\(index).savedState/data.data", bundleIdentifier: "app\(index)", sceneSession: nil)
            row.systemVersion = "17.5"
            row.errors = 0
            return row
        }
        rows[7].systemVersion = String(repeating: "9", count: 100_000)
        rows[8].bundleIdentifier = String(repeating: "b", count: 100_000)
        let text = ScanTextFormatter.format(rows)
        XCTAssertLessThan(text.utf8.count, 3000 * 200)
        let lines = text.split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.contains(String(repeating: "9", count: 59) + "…") })
        XCTAssertTrue(lines.allSatisfy { $0.count < 260 }, "a line of \(lines.map(\.count).max() ?? 0) characters")
    }
}
