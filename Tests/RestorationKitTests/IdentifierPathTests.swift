import XCTest
@testable import RestorationKit

final class IdentifierPathTests: XCTestCase {
    func testComponentsWithIndexes() {
        let path = IdentifierPath("TabController/:[1]:/NavigationController/:[0]:/_TtC20StateRestorationDemo20SecondViewController")
        XCTAssertEqual(path.components, [
            .identifier("TabController"), .index(1), .identifier("NavigationController"), .index(0),
            .identifier("_TtC20StateRestorationDemo20SecondViewController"),
        ])
        XCTAssertEqual(path.index, 0)
        XCTAssertEqual(path.identifiers, ["TabController", "NavigationController", "_TtC20StateRestorationDemo20SecondViewController"])
        XCTAssertEqual(path.parent, IdentifierPath("TabController/:[1]:/NavigationController"))
        XCTAssertEqual(path.parent?.parent, IdentifierPath("TabController"))
        XCTAssertNil(IdentifierPath("TabController").parent)
    }

    func testPlainPaths() {
        let path = IdentifierPath("UINavigationController/BNRDetailViewController")
        XCTAssertNil(path.index)
        XCTAssertEqual(path.parent, IdentifierPath("UINavigationController"))
        XCTAssertEqual(path.lastIdentifier, "BNRDetailViewController")
    }

    /// An ASCII path's last identifier is found from its bytes: the same as the components'.
    func testLastIdentifierMatchesTheComponents() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["A", "b", ":", "[", "]", "0", "/", ":[", "]:", ":[3]:", ":[1234567890]:", "\r\n"]
        var differences: [String] = []
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let path = IdentifierPath(text)
            if path.lastIdentifier != path.identifiers.last { differences.append(text) }
        }
        XCTAssertEqual(Array(differences.prefix(5)), [], "\(differences.count) paths differ")
        XCTAssertEqual(IdentifierPath("A/:[0]:").lastIdentifier, "A")
        XCTAssertNil(IdentifierPath(":[0]:").lastIdentifier)
        XCTAssertEqual(IdentifierPath("A/").lastIdentifier, "")
        XCTAssertEqual(IdentifierPath("Caf\u{E9}/:[1]:").lastIdentifier, "Caf\u{E9}")
    }

    func testMalformedComponents() {
        XCTAssertEqual(IdentifierPath.parse(":[x]:"), .malformedIndex(":[x]:"))
        XCTAssertEqual(IdentifierPath.parse(":[1]"), .malformedIndex(":[1]"))
        XCTAssertEqual(IdentifierPath.parse(":[]:"), .malformedIndex(":[]:"))
        XCTAssertEqual(IdentifierPath.parse("[1]:"), .malformedIndex("[1]:"))
        XCTAssertEqual(IdentifierPath.parse(":[12]:"), .index(12))
        XCTAssertEqual(IdentifierPath.parse(":[9999999999]:"), .malformedIndex(":[9999999999]:"))
        XCTAssertEqual(IdentifierPath("A//B").rawComponents, ["A", "", "B"])
        XCTAssertEqual(IdentifierPath("").rawComponents, [""])
        XCTAssertEqual(IdentifierPath("/A/").rawComponents, ["", "A", ""])
    }

    /// UIKit splits code units: a "/" that a combining mark follows is still a separator,
    /// although together they make one Character.
    func testSplitsOnEverySlashByte() {
        XCTAssertEqual(IdentifierPath("Caf\u{E9}/\u{301}x/:[2]:/\u{1F600}").rawComponents, ["Caf\u{E9}", "\u{301}x", ":[2]:", "\u{1F600}"])
        XCTAssertEqual(IdentifierPath("A/\u{301}B").parent, IdentifierPath("A"))
    }

    func testPrefix() {
        XCTAssertTrue(IdentifierPath("A/B").hasPrefix(IdentifierPath("A")))
        XCTAssertTrue(IdentifierPath("A").hasPrefix(IdentifierPath("A")))
        XCTAssertFalse(IdentifierPath("AB").hasPrefix(IdentifierPath("A")))
    }

    /// `parent` reads the bytes; it agrees with its definition on components (drop the last,
    /// then an index before it) for edge cases and for random paths of identifiers, well-formed
    /// and malformed indexes, empty components and non-ASCII names.
    func testParentAgreesWithItsDefinitionOnComponents() {
        func definition(_ path: IdentifierPath) -> IdentifierPath? {
            var parts = path.rawComponents
            guard parts.count > 1 else { return nil }
            parts.removeLast()
            if let last = parts.last, case .index = IdentifierPath.parse(last) { parts.removeLast() }
            return parts.isEmpty ? nil : IdentifierPath(parts.joined(separator: "/"))
        }
        let pieces = ["A", "Nav", ":[0]:", ":[12]:", ":[x]:", ":[1]", "", "é", "a\u{301}", ":[]:"]
        for fixed in ["A", "A/B", ":[0]:/B", "A/:[0]:/B", "/B", "A/", "A//:[1]:/B", "", "/", "//", ":[3]:"] {
            XCTAssertEqual(IdentifierPath(fixed).parent, definition(IdentifierPath(fixed)), fixed)
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let path = (0..<Int.random(in: 1...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: "/")
            XCTAssertEqual(IdentifierPath(path).parent, definition(IdentifierPath(path)), path)
        }
    }
}
