/// `tree --json` (schema version 1): the nested form of `RestorationTree`.
package struct TreeDocument: Encodable {
    public static let schemaVersion = 1
    public let file: String
    public let tree: RestorationTree

    public init(file: String, tree: RestorationTree) {
        self.file = file
        self.tree = tree
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        try container.encode(Self.schemaVersion, forKey: "schemaVersion")
        try container.encode(file, forKey: "file")
        try container.encode(tree.roots.map(NodeDocument.init), forKey: "roots")
        try container.encode(tree.appDangling.map { ["key": $0.key, "target": $0.target] }, forKey: "appDangling")
    }

    private struct NodeDocument: Encodable {
        let node: RestorationTree.Node

        init(_ node: RestorationTree.Node) {
            self.node = node
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(node.identifierPath.rawValue, forKey: "identifierPath")
            try container.encode(node.label, forKey: "label")
            try container.encode(node.restorationClass, forKey: "restorationClass")
            try container.encode(node.restorationClass.flatMap(SwiftDemangler.demangle), forKey: "restorationClassDemangled")
            try container.encode(node.presented, forKey: "presented")
            try container.encode(node.selected, forKey: "selected")
            try container.encode(node.views.map(\.rawValue), forKey: "views")
            try container.encode(node.stateProblem, forKey: "stateProblem")
            try container.encode(node.dangling.map { ["key": $0.key, "target": $0.target] }, forKey: "dangling")
            try container.encode(node.children.map(NodeDocument.init), forKey: "children")
        }
    }
}
