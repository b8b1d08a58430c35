/// One difference between two restoration archives.
public struct ArchiveChange: Hashable, Sendable {
    public enum Kind: String, Sendable {
        case added
        case removed
        case changed
    }

    /// A step into a value: a key of a dictionary, object or archive, or an array index.
    public enum PathComponent: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    public var kind: Kind
    /// The object the change is in; nil for the archive level.
    public var identifierPath: IdentifierPath?
    /// Where in the object (or archive): `["state", "preferences", "theme"]`, `["views", path, key]`,
    /// `["timestamp"]`; empty for a whole object added or removed.
    public var path: [PathComponent]
    /// The change in words when a value comparison alone would hide it ("children reordered").
    public var summary: String?
    /// The value before and after, as given or as `diff` found them on the archives' tapes
    /// (which a change keeps, as a `RestorationObject` keeps its archive's).
    var oldSide: ChangeSide?
    var newSide: ChangeSide?

    public var old: DiffValue? {
        get { oldSide?.diffValue }
        set { oldSide = newValue.map(ChangeSide.given) }
    }

    public var new: DiffValue? {
        get { newSide?.diffValue }
        set { newSide = newValue.map(ChangeSide.given) }
    }

    public init(_ kind: Kind, identifierPath: IdentifierPath?, path: [PathComponent], old: DiffValue? = nil, new: DiffValue? = nil, summary: String? = nil) {
        self.init(kind, identifierPath: identifierPath, path: path, oldSide: old.map(ChangeSide.given), newSide: new.map(ChangeSide.given), summary: summary)
    }

    init(_ kind: Kind, identifierPath: IdentifierPath?, path: [PathComponent], oldSide: ChangeSide?, newSide: ChangeSide? = nil, summary: String? = nil) {
        self.kind = kind
        self.identifierPath = identifierPath
        self.path = path
        self.oldSide = oldSide
        self.newSide = newSide
        self.summary = summary
    }
}

/// A value on one side of a change: given, or a value of an archive's tape, which the text and
/// JSON write from the tape and a library user reads as a `DiffValue` made when asked.
enum ChangeSide: Hashable, Sendable {
    case given(DiffValue)
    case onTape(TapeValueReference)

    var diffValue: DiffValue {
        switch self {
        case .given(let value): value
        case .onTape(let reference): .value(reference.tape.value(reference.value))
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.diffValue == rhs.diffValue
    }

    func hash(into hasher: inout Hasher) {
        diffValue.hash(into: &hasher)
    }

    /// See `ArchiveChange.minimumSize`.
    var minimumSize: Int {
        switch self {
        case .given(let value): value.minimumSize
        case .onTape(let reference):
            if case .node(let node) = reference.value, node.kind == .string || node.kind == .reference { 2 + min(node.memberCount, 40) } else { 1 }
        }
    }
}

extension ArchiveChange {
    /// Fewer bytes than the change takes in `diff`'s text and in its JSON: each change writes
    /// its path (in JSON `"change"`, `"identifierPath"` and `"path"`, 64 bytes with their
    /// indentation at least, and each component on a line of its own, ten bytes besides the
    /// component), and its values (a string at least its first 40 bytes, which the text shows
    /// before it cuts one).
    var minimumSize: Int {
        let path = self.path.reduce(64) { size, component in
            switch component {
            case .key(let key): size + 10 + key.utf8.count
            case .index: size + 11
            }
        }
        return path + (oldSide?.minimumSize ?? 0) + (newSide?.minimumSize ?? 0)
    }
}

extension DiffValue {
    var minimumSize: Int {
        guard case .value(let value) = self, value.kind == .string || value.kind == .reference else { return 1 }
        return 2 + min(value.node.memberCount, 40)
    }
}

/// A value on one side of a change.
public enum DiffValue: Hashable, Sendable {
    case value(ArchiveValue)
    /// Archive metadata that `dump --json` writes in a form of its own.
    case timestamp(Double)
    case idiom(UserInterfaceIdiom)
    case paths([String])

    /// Timestamps are the same when their bits are, as every real value is: a NaN timestamp
    /// equals itself, and -0.0 is not 0.0.
    public static func == (a: Self, b: Self) -> Bool {
        switch (a, b) {
        case (.value(let x), .value(let y)): x == y
        case (.timestamp(let x), .timestamp(let y)): x.bitPattern == y.bitPattern
        case (.idiom(let x), .idiom(let y)): x == y
        case (.paths(let x), .paths(let y)): x == y
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .value(let value): hasher.combine(value)
        case .timestamp(let seconds): hasher.combine(seconds.bitPattern)
        case .idiom(let idiom): hasher.combine(idiom)
        case .paths(let paths): hasher.combine(paths)
        }
    }
}
