/// `diff --json` (schema version 1): values in the `dump --json` encoding.
package struct DiffDocument: Encodable {
    public static let schemaVersion = 1
    /// Fewer bytes than the document of `changes` takes: each change writes `"change"`,
    /// `"identifierPath"` and `"path"` (64 bytes with their indentation at least), and each
    /// path component on a line of its own (ten bytes besides the component). A document
    /// bound to be longer than the output limit need not be built to find out.
    public static func minimumSize(of changes: [ArchiveChange]) -> Int {
        changes.reduce(0) { total, change in
            change.path.reduce(total + 64) { size, component in
                switch component {
                case .key(let key): size + 10 + key.utf8.count
                case .index: size + 11
                }
            }
        }
    }

    public let a: String
    public let b: String
    public let changes: [ArchiveChange]

    public init(a: String, b: String, changes: [ArchiveChange]) {
        self.a = a
        self.b = b
        self.changes = changes
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        try container.encode(Self.schemaVersion, forKey: "schemaVersion")
        try container.encode(a, forKey: "a")
        try container.encode(b, forKey: "b")
        try container.encode(changes.isEmpty, forKey: "identical")
        try container.encode(changes.map(ChangeDocument.init), forKey: "changes")
    }

    private struct ChangeDocument: Encodable {
        let change: ArchiveChange

        init(_ change: ArchiveChange) {
            self.change = change
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(change.kind.rawValue, forKey: "change")
            try container.encode(change.identifierPath, forKey: "identifierPath")
            try container.encode(change.path.map(PathComponentDocument.init), forKey: "path")
            try container.encodeIfPresent(change.old.map(DiffValueDocument.init), forKey: "old")
            try container.encodeIfPresent(change.new.map(DiffValueDocument.init), forKey: "new")
            try container.encodeIfPresent(change.summary, forKey: "description")
        }
    }

    /// Keys as strings, array indices as numbers, as jq paths are written.
    private struct PathComponentDocument: Encodable {
        let component: ArchiveChange.PathComponent

        init(_ component: ArchiveChange.PathComponent) {
            self.component = component
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch component {
            case .key(let key): try container.encode(key)
            case .index(let index): try container.encode(index)
            }
        }
    }

    private struct DiffValueDocument: Encodable {
        let value: DiffValue

        init(_ value: DiffValue) {
            self.value = value
        }

        func encode(to encoder: any Encoder) throws {
            switch value {
            case .value(let archived):
                var container = encoder.singleValueContainer()
                try container.encode(JSONArchiveValue(archived))
            case .timestamp(let seconds):
                var container = encoder.singleValueContainer()
                if let iso = ReferenceDate.iso8601(seconds) {
                    try container.encode(iso)
                } else {
                    try container.encode(JSONArchiveValue(.date(seconds)))
                }
            case .idiom(let idiom):
                var container = encoder.container(keyedBy: JSONKey.self)
                try container.encode(JSONArchiveValue(.integer(idiom.rawValue)), forKey: "raw")
                try container.encode(idiom.name, forKey: "name")
            case .paths(let paths):
                var container = encoder.singleValueContainer()
                try container.encode(paths)
            }
        }
    }
}
