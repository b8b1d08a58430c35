import Foundation
import XCTest
@testable import RestorationKit

/// Names in an archive are the sender's: none may end a label, add a statement (Mermaid's
/// `click … href`), or reach Graphviz's escapes (`\N`, `\G`).
final class TreeGraphFormatterTests: XCTestCase {
    private let hostile = "A\"] --> B\nclick n1 href \"javascript:alert(1)\"\n%% <b>&amp;</b> #35; \\N \u{1B}[31m ✗"

    private func tree() -> RestorationTree {
        let child = RestorationTree.Line(
            identifierPath: IdentifierPath("Root/" + hostile), label: hostile, restorationClass: hostile,
            presented: true, stateProblem: hostile, dangling: [(key: hostile, target: IdentifierPath(hostile))])
        let root = RestorationTree.Line(identifierPath: IdentifierPath("Root"), label: "Root")
        return RestorationTree(depthFirst: [(root, 0), (child, 1)], appDangling: [(key: hostile, target: IdentifierPath(hostile))])
    }

    func testLongNamesAreCut() {
        var line = tree().lines[0]
        line.label = String(repeating: "a/", count: 50_000)
        for language in [TreeGraphFormatter.Language.dot, .mermaid] {
            let text = TreeGraphFormatter(language: language).format([(file: "f", tree: RestorationTree(depthFirst: [(line, 0)]))])
            XCTAssertTrue(text.split(separator: "\n").allSatisfy { $0.count < 16_384 }, "\(language)")
            XCTAssertTrue(text.contains(String(repeating: "a/", count: 99) + (language == .dot ? "a…\"" : "a#8230;\"")), "\(language)")
        }
    }

    func testMermaidLabelsHoldNoSyntax() {
        let text = TreeGraphFormatter(language: .mermaid, demangle: false).format([(file: hostile, tree: tree()), (file: "f", tree: tree())])
        let statement = #"^(flowchart TD|  subgraph f[12] \["[^"]*"\]|  end|    f[12]_[nd][0-9]+\["[^"<>]*(<br/>[^"<>]*)*"\](:::(dangling|nostate))?|    f[12]_n[0-9]+ (-->|-\.->) f[12]_[nd][0-9]+|    %% [0-9a-z ,]+|  classDef [a-z]+ [a-z0-9:#,. -]+)$"#
        for line in text.split(separator: "\n") {
            XCTAssertNotNil(line.range(of: statement, options: .regularExpression), "not one of the statements written: \(line)")
            XCTAssertFalse(line.contains("\u{1B}"))
        }
        XCTAssertTrue(text.contains("[\"A#34;] --#62; B#92;nclick n1 href #34;javascript:alert(1)#34;#92;n#37;#37; #60;b#62;#38;amp#59;#60;/b#62; #35;35#59; #92;#92;N #92;u#123;1b#125;[31m #10007;<br/>"), text)
        XCTAssertEqual(text.split(separator: "\n").count, 21, text)
    }

    func testDotLabelsAreQuotedStrings() throws {
        let text = TreeGraphFormatter(language: .dot, demangle: false).format([(file: "f", tree: tree())])
        XCTAssertTrue(text.contains("label=\"A\\\"] --> B\\\\nclick n1 href \\\"javascript:alert(1)\\\"\\\\n%% <b>&amp;amp;</b> #35; \\\\\\\\N \\\\u{1b}[31m ✗\\n"), text)
        XCTAssertFalse(text.contains("\u{1B}"))
        XCTAssertEqual(text.split(separator: "\n").count, 12, text)
        // Graphviz reads it as four boxes (CI installs it).
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dot") else { return }
        let (status, plain) = try OtherTools.run("dot", ["-Tplain"], input: Data(text.utf8))
        XCTAssertEqual(status, 0)
        XCTAssertEqual(plain.split(separator: "\n").filter { $0.hasPrefix("node ") }.count, 4, plain)
        XCTAssertTrue(plain.contains("<b>&amp;</b>"), "the name as it is, entity and all: \(plain)")
        XCTAssertEqual(plain.split(separator: "\n").filter { $0.hasPrefix("edge ") }.count, 2, plain)
    }
}
