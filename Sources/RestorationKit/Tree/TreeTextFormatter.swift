/// Draws a `RestorationTree` as tree(1) does, one object a line, with its marks.
package struct TreeTextFormatter: Sendable {
    public var style: TextStyle
    public var demangle: Bool

    public init(style: TextStyle = .plain, demangle: Bool = true) {
        self.style = style
        self.demangle = demangle
    }

    public func format(_ tree: RestorationTree) -> String {
        withFormattedText(tree) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the drawing as UTF-8, valid during the call: what `tree` writes,
    /// without making a `String` of it first.
    package func withFormattedText<Result>(_ tree: RestorationTree, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        // Room taken at once, about two lines' worth per object (up to 64 MiB, the default
        // output limit): a buffer grown by doubling copies the text at each step; room never
        // written costs no memory.
        var out = TextOutput(capacity: min(tree.lines.count * 128, 1 << 26) + (1 << 12))
        // The drawing of the levels above the next line, and where it ended before each open
        // node's children added theirs.
        var prefix: [UInt8] = []
        var marks: [Int] = []
        var counts = (objects: 0, views: 0, dangling: 0)
        tree.lines.withUnsafeBufferPointer { lines in
            tree.walk { step in
                switch step {
                case .enter(let index, let parent, let isLast):
                    counts.objects += 1
                    counts.views += lines[index].views.count
                    counts.dangling += lines[index].dangling.count
                    out.append(bytes: prefix)
                    if parent != nil { out.append(Self.connector(last: isLast)) }
                    writeLine(of: lines[index], into: &out)
                    marks.append(prefix.count)
                    if parent != nil { prefix.append(contentsOf: (isLast ? "    " : "│   ").utf8) }
                case .leave(let index):
                    // Dangling references are drawn as leaves after the children.
                    let dangling = lines[index].dangling
                    for (position, reference) in dangling.enumerated() {
                        out.append(bytes: prefix)
                        out.append(Self.connector(last: position == dangling.count - 1))
                        writeDanglingLeaf(reference, owner: nil, into: &out)
                        out.append("\n")
                    }
                    prefix.removeSubrange(marks.removeLast()...)
                }
                return true
            }
        }
        // References from app-level keys belong to no object: drawn as roots of their own.
        for reference in tree.appDangling {
            counts.dangling += 1
            writeDanglingLeaf(reference, owner: "app state", into: &out)
            out.append("\n")
        }
        out.append(Self.summary(objects: counts.objects, views: counts.views, dangling: counts.dangling))
        out.append("\n")
        return body(out.bytes)
    }

    /// The branch before a child: `├── ` or, for the last child, `└── `.
    private static func connector(last: Bool) -> StaticString {
        last ? "└── " : "├── "
    }

    /// A node's line after its branch: label, class, marks and problem.
    private func writeLine(of line: borrowing RestorationTree.Line, into out: inout TextOutput) {
        out.paint(style, .bold) { $0.appendEscaped(line.label) }
        if let restorationClass = line.restorationClass {
            out.append("  ")
            out.paint(style, .cyan) { $0.append(Self.classMark(restorationClass, demangle: demangle)) }
        }
        Self.writeMarks(of: line, after: "  ", into: &out)
        if let problem = line.stateProblem {
            out.append("  ")
            out.paint(style, .red) { out in
                out.append("[no state: ")
                out.appendEscaped(problem)
                out.append("]")
            }
        }
        out.append("\n")
    }

    /// `3 objects, 1 view, 0 dangling references`.
    static func summary(objects: Int, views: Int, dangling: Int) -> String {
        "\(objects) object\(objects == 1 ? "" : "s"), \(views) view\(views == 1 ? "" : "s"), "
            + "\(dangling) dangling reference\(dangling == 1 ? "" : "s")"
    }

    /// `class NAME`, escaped, demangled when asked and possible.
    static func classMark(_ restorationClass: String, demangle: Bool) -> String {
        let shown = demangle ? (SwiftDemangler.demangle(restorationClass) ?? restorationClass) : restorationClass
        return "class " + TextEscaping.escape(shown)
    }

    /// What the drawing says of a node besides its label and class, escaped, after `lead` and
    /// between parentheses: `presented`, `selected`, `views: …`, separated by `; `. Nothing when
    /// there is nothing to say. Written in place: a large tree has tens of thousands of nodes.
    static func writeMarks(of node: borrowing RestorationTree.Line, after lead: StaticString, into out: inout TextOutput) {
        guard node.presented || node.selected || !node.views.isEmpty else { return }
        out.append(lead)
        out.append("(")
        var separated = false
        if node.presented {
            out.append("presented")
            separated = true
        }
        if node.selected {
            if separated { out.append("; ") }
            out.append("selected")
            separated = true
        }
        if !node.views.isEmpty {
            if separated { out.append("; ") }
            out.append("views: ")
            for index in node.views.indices {
                if index > 0 { out.append(", ") }
                out.appendEscaped(node.views[index].lastIdentifier ?? node.views[index].rawValue)
            }
        }
        out.append(")")
    }

    private func writeDanglingLeaf(_ reference: (key: String, target: IdentifierPath), owner: String?, into out: inout TextOutput) {
        out.paint(style, .red) { out in
            out.append("✗ ")
            out.appendEscaped(reference.target.rawValue)
            out.append("  (")
            if let owner {
                out.append(owner)
                out.append(" ")
            }
            out.appendEscaped(reference.key)
            out.append(": not saved)")
        }
    }
}
