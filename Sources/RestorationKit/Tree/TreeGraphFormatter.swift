/// Draws `RestorationTree`s as a graph: Graphviz DOT (`dot -Tsvg`) or a Mermaid flowchart (which
/// GitHub renders in a ```` ```mermaid ```` block). Each object is a box holding what its line of
/// the text tree holds: its label, class and marks; a reference to a path that was not saved is
/// a red dashed box `✗ path`. Several files are one graph with a cluster (subgraph) per file.
///
/// Text from the archive is escaped as in the text tree, then for the graph language: DOT's
/// quoted strings take `\\`, `\"` and `&amp;` (Graphviz reads entities in labels); Mermaid
/// labels take every character but letters, digits and plain punctuation as an entity code
/// (`#35;`), so that no name can close a label or add a statement (a `click` with a link, say).
/// Each line of a box is cut at `maximumLineLength` characters, marked `…`: Graphviz refuses
/// quoted strings past 16 384 bytes, and a box wider than a screen shows nothing more (the text
/// and JSON forms have every name in full).
package struct TreeGraphFormatter: Sendable {
    public enum Language: Sendable {
        case dot, mermaid
    }

    public var language: Language
    public var demangle: Bool
    public static let maximumLineLength = 200

    public init(language: Language, demangle: Bool = true) {
        self.language = language
        self.demangle = demangle
    }

    /// The graph of the trees, each with its file's name. With `clustered` (several files were
    /// asked for, whether or not all could be read) each tree is a cluster titled by its file.
    public func format(_ trees: [(file: String, tree: RestorationTree)], clustered: Bool? = nil) -> String {
        format(trees, clustered: clustered, outputLimit: .max)!
    }

    /// The graph, or nil once it is longer than `outputLimit` bytes: it is not drawn further,
    /// so refusing costs no more than the limit (labels escaped for the graph language can
    /// take five times the bytes of the names they show).
    public func format(_ trees: [(file: String, tree: RestorationTree)], clustered: Bool? = nil, outputLimit: Int) -> String? {
        let clustered = clustered ?? (trees.count > 1)
        var output = Output(language: language, limit: outputLimit)
        output.line(language == .dot ? "digraph \"restoration-tree\" {" : "flowchart TD", indent: 0)
        if language == .dot {
            output.line("node [shape=box, fontname=\"Helvetica\"];")
            output.line("graph [fontname=\"Helvetica\"];")
            output.line("edge [arrowsize=0.7];")
        }
        for (index, entry) in trees.enumerated() {
            let prefix = clustered ? "f\(index + 1)_" : ""
            if clustered {
                switch language {
                case .dot:
                    output.line("subgraph \"cluster_\(index + 1)\" {")
                    output.line("label=" + output.quoted([entry.file]) + ";", indent: 2)
                case .mermaid:
                    output.line("subgraph f\(index + 1) [" + output.quoted([entry.file]) + "]")
                }
            }
            draw(entry.tree, prefix: prefix, into: &output, indent: clustered ? 2 : 1)
            if clustered { output.line(language == .dot ? "}" : "end") }
            if output.isFull { return nil }
        }
        if language == .mermaid {
            output.line("classDef dangling stroke:#c00,color:#c00,stroke-dasharray:4 3")
            output.line("classDef nostate stroke:#c00")
        }
        if language == .dot { output.line("}", indent: 0) }
        return output.isFull ? nil : output.text
    }

    private func draw(_ tree: RestorationTree, prefix: String, into output: inout Output, indent: Int) {
        var objects = 0, views = 0, danglingCount = 0
        // The ids of the open nodes, each a parent of the next; a node's dangling references
        // come after its children, as in the text tree.
        var ids: [String] = []
        tree.walk { step in
            switch step {
            case .enter(let index, _, _):
                let node = tree.lines[index]
                objects += 1
                views += node.views.count
                let id = prefix + "n\(objects)"
                var lines = [TextEscaping.escape(node.label)]
                if let restorationClass = node.restorationClass {
                    lines.append(TreeTextFormatter.classMark(restorationClass, demangle: demangle))
                }
                var marks = TextOutput(capacity: 64)
                TreeTextFormatter.writeMarks(of: node, after: "", into: &marks)
                if marks.count > 0 { lines.append(marks.string) }
                if let problem = node.stateProblem { lines.append("[no state: " + TextEscaping.escape(problem) + "]") }
                output.node(id, lines, style: node.stateProblem == nil ? .plain : .noState, indent: indent)
                if let parent = ids.last { output.edge(from: parent, to: id, dangling: false, indent: indent) }
                ids.append(id)
            case .leave(let index):
                let owner = ids.removeLast()
                for reference in tree.lines[index].dangling where !output.isFull {
                    danglingCount += 1
                    let leaf = prefix + "d\(danglingCount)"
                    output.node(leaf, ["✗ " + TextEscaping.escape(reference.target.rawValue), "(" + TextEscaping.escape(reference.key) + ": not saved)"], style: .dangling, indent: indent)
                    output.edge(from: owner, to: leaf, dangling: true, indent: indent)
                }
            }
            return !output.isFull
        }
        for reference in tree.appDangling {
            danglingCount += 1
            output.node(prefix + "d\(danglingCount)", ["✗ " + TextEscaping.escape(reference.target.rawValue), "(app state " + TextEscaping.escape(reference.key) + ": not saved)"], style: .dangling, indent: indent)
        }
        output.line((language == .dot ? "// " : "%% ") + TreeTextFormatter.summary(objects: objects, views: views, dangling: danglingCount), indent: indent)
    }

    /// The text being written, and how each language spells nodes, edges and labels.
    private struct Output {
        enum Style { case plain, noState, dangling }

        let language: Language
        /// The most bytes the text may take; past it, lines are dropped and `isFull` is true.
        let limit: Int
        var text = ""
        private(set) var isFull = false

        init(language: Language, limit: Int = .max) {
            self.language = language
            self.limit = limit
        }

        mutating func line(_ content: String, indent: Int = 1) {
            guard !isFull else { return }
            text += String(repeating: "  ", count: indent) + content + "\n"
            if text.utf8.count > limit { isFull = true }
        }

        mutating func node(_ id: String, _ lines: [String], style: Style, indent: Int) {
            switch language {
            case .dot:
                let attributes = switch style {
                case .plain: ""
                case .noState: ", color=\"#cc0000\""
                case .dangling: ", color=\"#cc0000\", fontcolor=\"#cc0000\", style=dashed"
                }
                line(id + " [label=" + quoted(lines) + attributes + "];", indent: indent)
            case .mermaid:
                let suffix = switch style {
                case .plain: ""
                case .noState: ":::nostate"
                case .dangling: ":::dangling"
                }
                line(id + "[" + quoted(lines) + "]" + suffix, indent: indent)
            }
        }

        mutating func edge(from parent: String, to child: String, dangling: Bool, indent: Int) {
            switch language {
            case .dot: line(parent + " -> " + child + (dangling ? " [color=\"#cc0000\", style=dashed];" : ";"), indent: indent)
            case .mermaid: line(parent + (dangling ? " -.-> " : " --> ") + child, indent: indent)
            }
        }

        /// Lines of already escaped text as one quoted label of the language.
        func quoted(_ lines: [String]) -> String {
            switch language {
            case .dot:
                return "\"" + lines.map { Self.dotEscaped($0.shortened(to: TreeGraphFormatter.maximumLineLength)) }.joined(separator: "\\n") + "\""
            case .mermaid:
                return "\"" + lines.map { Self.mermaidEscaped($0.shortened(to: TreeGraphFormatter.maximumLineLength)) }.joined(separator: "<br/>") + "\""
            }
        }

        /// `\\`, `\"` and `&amp;`; every other byte as it is (the three are ASCII, never part of
        /// another character's UTF-8).
        private static func dotEscaped(_ text: String) -> String {
            guard text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "&") }) else { return text }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count + 16)
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
                case UInt8(ascii: "&"): bytes += Array("&amp;".utf8)
                default: bytes.append(byte)
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Letters, digits and plain punctuation as they are; every other character as its code,
        /// `#123;`. Written as bytes: a label is escaped character by character.
        private static func mermaidEscaped(_ text: String) -> String {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count * 2)
            for scalar in text.unicodeScalars {
                let value = scalar.value
                if value < 0x80, plainMermaid[Int(value)] {
                    bytes.append(UInt8(value))
                } else {
                    bytes.append(UInt8(ascii: "#"))
                    bytes.append(contentsOf: String(value).utf8)
                    bytes.append(UInt8(ascii: ";"))
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// By ASCII code: whether Mermaid takes the character in a label as it is.
        private static let plainMermaid: [Bool] = (0..<128).map { code in
            let scalar = Unicode.Scalar(UInt8(code))
            return scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || " .,:/_-()[]'*+=?!@".unicodeScalars.contains(scalar)
        }
    }
}
