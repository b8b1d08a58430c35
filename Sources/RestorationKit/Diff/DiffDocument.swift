/// `diff --json` (schema version 1): values in the `dump --json` encoding.
package struct DiffDocument: JSONRepresentable {
    public static let schemaVersion = 1
    /// Fewer bytes than the document of `changes` takes (see `ArchiveChange.minimumSize`): a
    /// document bound to be longer than the output limit need not be built to find out.
    public static func minimumSize(of changes: [ArchiveChange]) -> Int {
        changes.reduce(0) { $0 + $1.minimumSize }
    }

    public let a: String
    public let b: String
    public let changes: [ArchiveChange]
    /// For two directories compared, a file that is only in `a` ("a") or only in `b` ("b").
    public let only: String?

    public init(a: String, b: String, changes: [ArchiveChange], only: String? = nil) {
        self.a = a
        self.b = b
        self.changes = changes
        self.only = only
    }

    package var jsonNode: JSONNode {
        var members: [(key: String, value: JSONNode)] = [
            ("schemaVersion", Self.schemaVersion.jsonNode), ("a", .string(a)), ("b", .string(b)),
            ("identical", .bool(changes.isEmpty && only == nil)), ("changes", .array(changes.map(Self.node))),
        ]
        if let only { members.append(("only", .string(only))) }
        return .object(members)
    }

    private static func node(_ change: ArchiveChange) -> JSONNode {
        var members: [(key: String, value: JSONNode)] = [
            ("change", .string(change.kind.rawValue)),
            ("identifierPath", change.identifierPath?.rawValue.jsonNode ?? .null),
            // Keys as strings, array indices as numbers, as jq paths are written.
            ("path", .array(change.path.map { component in
                switch component {
                case .key(let key): .string(key)
                case .index(let index): index.jsonNode
                }
            })),
        ]
        if let old = change.oldSide { members.append(("old", node(old))) }
        if let new = change.newSide { members.append(("new", node(new))) }
        if let summary = change.summary { members.append(("description", .string(summary))) }
        return .object(members)
    }

    private static func node(_ side: ChangeSide) -> JSONNode {
        guard case .given(let value) = side else {
            guard case .onTape(let reference) = side else { preconditionFailure("a side is given or on a tape") }
            return .deferred(.onTape(reference))
        }
        return switch value {
        case .value(let archived): archived.jsonNode
        case .timestamp(let seconds): .timestamp(seconds)
        case .idiom(let idiom): .idiom(idiom)
        case .paths(let paths): paths.jsonNode
        }
    }
}
