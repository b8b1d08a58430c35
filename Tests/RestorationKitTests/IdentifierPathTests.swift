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
}
