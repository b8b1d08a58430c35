import XCTest
@testable import RestorationKit

final class RestorationTreeTests: XCTestCase {
    /// A restoration archive built in code: each path listed and saved with its state.
    private func archive(_ objects: [(String, ArchiveFields)], appState: [(String, ArchiveValue)] = []) -> RestorationArchive {
        var top: [(String, ArchiveValue)] = [
            (RestorationKeys.majorVersion, .integer(2)),
            (RestorationKeys.minorVersion, .integer(1)),
            (RestorationKeys.identifierPaths, .array(objects.map { .string($0.0) })),
        ]
        top += objects.map { ($0.0, .archive(KeyedArchive(top: $0.1))) }
        return RestorationArchive(archive: KeyedArchive(top: ArchiveFields(top + appState)))
    }

    func testMarksComeFromTheParentOnly() {
        let tree = RestorationTree(archive([
            ("Nav", ArchiveFields([(RestorationKeys.presentedViewController, .reference("Nav/Sheet"))])),
            ("Nav/Sheet", ArchiveFields([])),
            // A sibling that names another object: not its parent, so no mark.
            ("Nav/Other", ArchiveFields([(RestorationKeys.presentedViewController, .reference("Nav/Sheet/Deep"))])),
            ("Nav/Sheet/Deep", ArchiveFields([])),
        ]))
        let nav = tree.roots[0]
        XCTAssertEqual(nav.children.map(\.label), ["Sheet", "Other"])
        XCTAssertTrue(nav.children[0].presented)
        XCTAssertFalse(nav.children[0].children[0].presented, "Nav/Other presents it, but Nav/Sheet is its parent")
    }

    func testAppLevelDanglingReferencesAreKept() {
        let tree = RestorationTree(archive(
            [("Root", ArchiveFields([]))],
            appState: [("AppHistory", .array([.reference("Gone")]))]))
        XCTAssertEqual(tree.appDangling.map(\.target), ["Gone"])
        XCTAssertEqual(tree.appDangling.map(\.key), ["AppHistory"])
        let text = TreeTextFormatter().format(tree)
        XCTAssertEqual(text, "Root\n✗ Gone  (app state AppHistory: not saved)\n1 object, 0 views, 1 dangling reference\n")
    }
}
