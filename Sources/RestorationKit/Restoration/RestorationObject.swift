/// One saved object (usually a view controller): its own archive's keys and its views.
///
/// A view of the object's entry on its archive's tape: `state` and `views` are made from the
/// tape each time they are read, and an object keeps the tape (and the file's bytes, which
/// strings and data point into) alive.
public struct RestorationObject: Hashable, Sendable {
    public let identifierPath: IdentifierPath
    /// From `kViewControllerRestorationClassMapKey`, when the object set a `restorationClass`.
    public internal(set) var restorationClass: String?
    /// `restorationClass` as Swift writes it (`StateRestorationDemo.CityViewController`), or as
    /// stored when it is no mangled Swift name.
    public var restorationClassName: String? {
        restorationClass.map { SwiftDemangler.demangle($0) ?? $0 }
    }
    /// Why `state` is nil, in words.
    public let stateProblem: String?
    /// The entry as found when it is not a keyed archive, so that it is still shown.
    public let undecodedEntry: ArchiveValue?
    /// The object's entry in `$top`, on its archive's tape; nil when the archive has none.
    let entry: ArchiveValue?

    /// The `$top` keys of the object's own archive, without the views read into `views`.
    /// Nil when the outer archive has no decodable entry for the path (see `stateProblem`).
    public var state: ArchiveFields? {
        content?.state
    }

    /// The views saved under `kViewRestorationDataKey`, in archive order.
    public var views: [RestorationView] {
        content?.views ?? []
    }

    /// The object at `path` whose `$top` entry is `entry` (nil for none).
    init(identifierPath: IdentifierPath, entry: ArchiveValue?) {
        self.identifierPath = identifierPath
        self.entry = entry
        guard let entry else {
            (stateProblem, undecodedEntry) = ("the archive has no entry for this path", nil)
            return
        }
        switch entry.node.kind {
        case .archive:
            (stateProblem, undecodedEntry) = (nil, nil)
        case .data:
            let error = entry.node.flags.contains(.archiveError) ? entry.tape.dataErrors[TapeBytes.Location(entry.node)] : nil
            stateProblem = error.map { "its entry is data that failed to decode as a keyed archive: \($0)" }
                ?? "its entry is \(entry.node.memberCount) bytes of data that are not a keyed archive"
            undecodedEntry = entry
        default:
            (stateProblem, undecodedEntry) = ("its entry is \(entry.kindDescription), not a keyed archive", entry)
        }
    }

    /// The state and views; nil without state.
    private var content: (state: ArchiveFields, views: [RestorationView])? {
        guard let entry, entry.node.kind == .archive else { return nil }
        return entry.tape.objectContent(splitting: entry.node)
    }

    /// Whether this object's entry and `other`'s are identical on their tapes (see
    /// `ArchiveTape.isIdentical`): `diff` then has nothing to report of them. Equal entries
    /// may still differ there (a repeated key's values in another order).
    func hasIdenticalEntry(as other: Self) -> Bool {
        guard let entry, let otherEntry = other.entry else { return false }
        return entry.tape.isIdentical(entry.node, to: otherEntry.node, in: otherEntry.tape)
    }

    /// The same path, restoration class and entry: equal entries hold equal states and views
    /// (the views, an NSDictionary's entries, in any order).
    public static func == (a: Self, b: Self) -> Bool {
        a.identifierPath == b.identifierPath && a.restorationClass.isExactly(b.restorationClass) && a.entry == b.entry
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifierPath)
        hasher.combine(restorationClass)
        hasher.combine(stateProblem)
    }
}

/// One view's saved state (the third archive level).
public struct RestorationView: Hashable, Sendable {
    public var identifierPath: IdentifierPath
    public var state: ArchiveFields

    public init(identifierPath: IdentifierPath, state: ArchiveFields) {
        self.identifierPath = identifierPath
        self.state = state
    }
}
