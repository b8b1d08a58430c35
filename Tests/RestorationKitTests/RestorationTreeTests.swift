import Foundation
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

    /// A tree whose dangling references, targets and keys, pass the limit is not made.
    func testDanglingReferencesPastTheOutputLimitMakeNoTree() {
        let children = ArchiveFields([(RestorationKeys.children, .array((0..<50).map { .string("Gone/:[\($0)]:/X") }))])
        let broken = archive((0..<40).map { ("Nav\($0)", children) })
        let tree = RestorationTree(broken)
        let drawn = tree.roots.reduce(0) { total, root in root.dangling.reduce(total) { $0 + $1.key.utf8.count + $1.target.rawValue.utf8.count } }
        XCTAssertEqual(drawn, 40 * 50 * (RestorationKeys.children.utf8.count + "Gone/:[0]:/X".utf8.count) + 40 * 40)
        XCTAssertNotNil(RestorationTree(broken, outputLimit: drawn))
        XCTAssertNil(RestorationTree(broken, outputLimit: drawn - 1))
    }

    /// One children list holds the validator's dangling references, among repeats and proxies
    /// the tree does not draw; the limit holds within the list too.
    func testOneLongChildrenListDrawsTheValidatorsDanglingReferences() {
        let targets: [ArchiveValue] = (0..<3000).map { .string($0 % 3 == 0 ? "Nav/:[\($0 % 7)]:/X" : "Gone/:[\($0)]:/X") }
        // Every third child repeats one of seven saved children.
        let saved = (0..<7).map { ("Nav/:[\($0)]:/X", ArchiveFields([])) }
        let broken = archive([("Nav", ArchiveFields([(RestorationKeys.children, .array(targets))]))] + saved)
        let tree = RestorationTree(broken)
        let found = ArchiveValidator().validate(broken).filter { $0.rule == .danglingReference }
        XCTAssertEqual(found.count, 2000)
        XCTAssertEqual(tree.roots.first?.dangling.map(\.target), found.compactMap(\.target))
        XCTAssertEqual(Set(tree.roots.first?.dangling.map(\.key) ?? []), [RestorationKeys.children])
        let drawn = found.reduce(0) { $0 + RestorationKeys.children.utf8.count + ($1.target?.rawValue.utf8.count ?? 0) }
        XCTAssertNotNil(RestorationTree(broken, outputLimit: drawn))
        XCTAssertNil(RestorationTree(broken, outputLimit: drawn - 1))
        XCTAssertNil(RestorationTree(broken, outputLimit: 100))
        // Past its limit the list is not read further: a few references are kept, not 2 000.
        let context = ValidationContext(broken)
        broken.forEachObjectOnTape(0..<1) { object, onTape, view in
            var (scan, references) = (ReferenceScan(saved: context.saved), DanglingReferences(limit: 100))
            ReferenceRules.check(object, onTape, in: view, context, scan: &scan, into: &references)
            XCTAssertEqual(references.references.count, 3)
            XCTAssertGreaterThan(references.bytes, 100)
        }
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

    /// A large tree's labels are made in parts on several threads: each node still gets its own.
    func testLabelsOfALargeTree() {
        var objects: [(String, ArchiveFields)] = [("Tabs", ArchiveFields([]))]
        for tab in 0..<20 {
            objects.append(("Tabs/:[\(tab)]:/Navigation", ArchiveFields([])))
            for row in 0..<30 { objects.append(("Tabs/:[\(tab)]:/Navigation/:[\(row)]:/Controller\(row)", ArchiveFields([]))) }
        }
        // A path whose parent was not saved is a root, labelled with its whole path.
        objects.append(("Gone/:[0]:/Orphan", ArchiveFields([])))
        let tree = RestorationTree(archive(objects))
        XCTAssertGreaterThan(Parallel.parts(of: objects.count).count, 8)
        XCTAssertEqual(tree.roots.map(\.label), ["Tabs", "Gone/:[0]:/Orphan"])
        XCTAssertEqual(tree.roots[0].children.map(\.label), (0..<20).map { "[\($0)] Navigation" })
        for (tab, navigation) in tree.roots[0].children.enumerated() {
            XCTAssertEqual(navigation.children.map(\.label), (0..<30).map { "[\($0)] Controller\($0)" }, "tab \(tab)")
        }
    }

    /// A label is the path below its parent, cut at the byte after the parent: index components
    /// as `[n]` (leading zeros dropped), malformed ones and empty components as written.
    func testLabelsAreThePathBelowTheParent() {
        let cases: [(path: String, parent: String, label: String)] = [
            ("Tabs/:[1]:/Navigation", "Tabs", "[1] Navigation"),
            ("A/:[007]:/B", "A", "[7] B"),
            ("A/:[x]:/B", "A", ":[x]: B"),
            ("A/:[1234567890]:/B", "A", ":[1234567890]: B"),
            ("A/:[3]", "A", ":[3]"),
            ("A/", "A", ""),
            ("A//B", "A", " B"),
            ("A/B/C", "A", "B C"),
            ("Ä/:[2]:/Ü", "Ä", "[2] Ü"),
            ("Ä/:[02]:/x/:[q]:", "Ä", "[2] x :[q]:"),
            // A combining mark after the slash belongs to the child's component, as the path
            // is split (a Character-wise cut took it with the slash and lost it).
            ("A/\u{301}B", "A", "\u{301}B"),
            ("A/:[1]:/\u{301}", "A", "[1] \u{301}"),
        ]
        for (path, parent, label) in cases {
            XCTAssertEqual(Array(RestorationTree.label(path, belowParentOfLength: parent.utf8.count).unicodeScalars), Array(label.unicodeScalars), path)
        }
    }

    /// The ASCII road and the general one (components) name every node alike.
    func testASCIILabelsAsTheComponentsGiveThem() {
        let pieces = ["Nav", ":[0]:", ":[12]:", ":[0009]:", ":[]:", ":[1", "1]:", ":[a]:", "", "x y", ":[123456789]:", ":[1234567890]:"]
        for first in pieces {
            for second in pieces {
                let below = first + "/" + second
                let expected = IdentifierPath(below).components.map { component -> String in
                    switch component {
                    case .identifier(let name): name
                    case .index(let index): "[\(index)]"
                    case .malformedIndex(let text): text
                    }
                }.joined(separator: " ")
                XCTAssertEqual(RestorationTree.label("Root/" + below, belowParentOfLength: 4), expected, below)
            }
        }
    }

    /// A node's marks, in the text and in the graphs: those that apply, in this order, between
    /// parentheses, views by their last identifier (escaped), or the whole path without one.
    func testMarksInTextAndGraphs() {
        func line(_ label: String, presented: Bool, selected: Bool, views: [String]) -> RestorationTree.Line {
            RestorationTree.Line(identifierPath: IdentifierPath("Root/" + label), label: label,
                                 views: views.map { IdentifierPath($0) }, presented: presented, selected: selected)
        }
        let tree = RestorationTree(depthFirst: [
            (RestorationTree.Line(identifierPath: IdentifierPath("Root"), label: "Root"), 0),
            (line("All", presented: true, selected: true, views: ["Root/All/Table", "Root/All/:[1]:/Odd\u{7}"]), 1),
            (line("Selected", presented: false, selected: true, views: ["Root/Selected/Map"]), 1),
            (line("Views", presented: false, selected: false, views: [":[2]:"]), 1),
            (line("Plain", presented: false, selected: false, views: []), 1),
        ])
        XCTAssertEqual(TreeTextFormatter().format(tree), """
            Root
            ├── All  (presented; selected; views: Table, Odd\\u{7})
            ├── Selected  (selected; views: Map)
            ├── Views  (views: :[2]:)
            └── Plain
            5 objects, 4 views, 0 dangling references

            """)
        let graph = TreeGraphFormatter(language: .dot).format([(file: "f", tree: tree)])
        XCTAssertTrue(graph.contains("(presented; selected; views: Table, Odd\\\\u{7})"), graph)
        XCTAssertTrue(graph.contains("(selected; views: Map)"), graph)
        XCTAssertTrue(graph.contains("(views: :[2]:)"), graph)
        XCTAssertEqual(graph.components(separatedBy: "(").count, 4, graph)
    }

    /// A tree is built, walked, drawn and freed without recursing, so a tree as deep as its
    /// paths needs no large stack: here 100 000 levels on a 256 KiB thread (drawn as a graph:
    /// the text tree's branches grow with the depth), and 2 000 drawn as text.
    func testDeepTreesNeedNoLargeStack() throws {
        let result = try onSmallStack {
            func chain(_ levels: Int) -> RestorationTree {
                RestorationTree(depthFirst: (0..<levels).map { (RestorationTree.Line(identifierPath: IdentifierPath("p\($0)"), label: "p\($0)"), $0) })
            }
            let deep = chain(100_000)
            var depth = 0
            var node = deep.roots.first
            while let current = node {
                depth += 1
                node = current.children.first
            }
            return (depth: depth, graphLines: TreeGraphFormatter(language: .dot).format([(file: "f", tree: deep)]).split(separator: "\n").count,
                    textLines: TreeTextFormatter().format(chain(2_000)).split(separator: "\n"))
        }
        XCTAssertEqual(result.depth, 100_000)
        XCTAssertEqual(result.graphLines, 4 + 2 * 100_000 - 1 + 2)
        XCTAssertEqual(result.textLines.count, 2_001)
        XCTAssertEqual(result.textLines[2], "    └── p2")
        XCTAssertEqual(result.textLines[1_999], Substring(String(repeating: "    ", count: 1_998) + "└── p1999"))
    }
}
