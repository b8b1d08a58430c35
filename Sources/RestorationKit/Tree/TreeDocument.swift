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
            "appDangling": tree.appDangling.map { ["key": $0.key, "target": $0.target] },
        ])
    }

    private static func node(_ node: RestorationTree.Node) -> JSONNode {
        .members([
            "identifierPath": node.identifierPath.rawValue,
            "label": node.label,
            "restorationClass": node.restorationClass,
            "restorationClassDemangled": node.restorationClass.flatMap(SwiftDemangler.demangle),
            "presented": node.presented,
            "selected": node.selected,
            "views": node.views.map(\.rawValue),
            "stateProblem": node.stateProblem,
            "dangling": node.dangling.map { ["key": $0.key, "target": $0.target] },
            "children": node.children.map(Self.node),
        ])
    }
}
