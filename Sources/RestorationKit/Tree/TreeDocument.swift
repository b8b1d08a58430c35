/// `tree --json` (schema version 1): the nested form of `RestorationTree`.
package struct TreeDocument: JSONRepresentable {
    public static let schemaVersion = 1
    public let file: String
    public let tree: RestorationTree

    public init(file: String, tree: RestorationTree) {
        self.file = file
        self.tree = tree
    }

    package var jsonNode: JSONNode {
        .members([
            "schemaVersion": Self.schemaVersion,
            "file": file,
            "roots": tree.roots.map(Self.node),
            "appDangling": tree.appDangling.map { ["key": $0.key, "target": $0.target.rawValue] },
        ])
    }

    private static func node(_ node: RestorationTree.Node) -> JSONNode {
        // The line read once, not a key path per field: a tree may have tens of thousands.
        let line = node.line
        return .members([
            "identifierPath": line.identifierPath.rawValue,
            "label": line.label,
            "restorationClass": line.restorationClass,
            "restorationClassDemangled": line.restorationClass.flatMap(SwiftDemangler.demangle),
            "presented": line.presented,
            "selected": line.selected,
            "views": line.views.map { $0.rawValue },
            "stateProblem": line.stateProblem,
            "dangling": line.dangling.map { ["key": $0.key, "target": $0.target.rawValue] },
            "children": node.children.map(Self.node),
        ])
    }
}
