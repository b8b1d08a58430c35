/// Draws a `RestorationTree` as tree(1) does, one object a line, with its marks.
package struct TreeTextFormatter: Sendable {
    public var style: TextStyle
    public var demangle: Bool

    public init(style: TextStyle = .plain, demangle: Bool = true) {
        self.style = style
        self.demangle = demangle
    }

    public func format(_ tree: RestorationTree) -> String {
        DeepStack.run(stackSize: DeepStack.stackSize(for: .default)) {
            var text = ""
            var counts = (objects: 0, views: 0, dangling: 0)
            for root in tree.roots {
                write(root, prefix: "", connector: "", into: &text, counts: &counts)
            }
            // References from app-level keys belong to no object: drawn as roots of their own.
            for reference in tree.appDangling {
                counts.dangling += 1
                text += danglingLeaf(reference, owner: "app state") + "\n"
            }
            text += Self.summary(objects: counts.objects, views: counts.views, dangling: counts.dangling) + "\n"
            return text
        }
    }

    private func write(_ node: RestorationTree.Node, prefix: String, connector: String, into text: inout String, counts: inout (objects: Int, views: Int, dangling: Int)) {
        counts.objects += 1
        counts.views += node.views.count
        counts.dangling += node.dangling.count
        var line = prefix + connector + style.paint(TextEscaping.escape(node.label), .bold)
        if let restorationClass = node.restorationClass {
            line += "  " + style.paint(Self.classMark(restorationClass, demangle: demangle), .cyan)
        }
        let marks = Self.marks(of: node)
        if !marks.isEmpty { line += "  (" + marks.joined(separator: "; ") + ")" }
        if let problem = node.stateProblem { line += "  " + style.paint("[no state: " + TextEscaping.escape(problem) + "]", .red) }
        text += line + "\n"

        // Children continue the drawing; dangling references are drawn as leaves after them.
        let childPrefix = prefix + (connector.isEmpty ? "" : (connector == "└── " ? "    " : "│   "))
        let leaves = node.dangling.map { danglingLeaf($0, owner: nil) }
        let total = node.children.count + leaves.count
        for (position, child) in node.children.enumerated() {
            write(child, prefix: childPrefix, connector: position == total - 1 ? "└── " : "├── ", into: &text, counts: &counts)
        }
        for (position, leaf) in leaves.enumerated() {
            text += childPrefix + (node.children.count + position == total - 1 ? "└── " : "├── ") + leaf + "\n"
        }
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

    /// What the drawing says of a node besides its label and class, escaped: `presented`,
    /// `selected`, `views: …`.
    static func marks(of node: RestorationTree.Node) -> [String] {
        var marks: [String] = []
        if node.presented { marks.append("presented") }
        if node.selected { marks.append("selected") }
        if !node.views.isEmpty {
            let names = node.views.map { TextEscaping.escape($0.lastIdentifier ?? $0.rawValue) }
            marks.append("views: " + names.joined(separator: ", "))
        }
        return marks
    }

    private func danglingLeaf(_ reference: (key: String, target: String), owner: String?) -> String {
        let place = owner.map { $0 + " " } ?? ""
        return style.paint("✗ " + TextEscaping.escape(reference.target) + "  (\(place)\(TextEscaping.escape(reference.key)): not saved)", .red)
    }
}
