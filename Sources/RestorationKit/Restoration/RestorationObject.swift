/// One saved object (usually a view controller): its own archive's keys and its views.
public struct RestorationObject: Hashable, Sendable {
    public var identifierPath: IdentifierPath
    /// From `kViewControllerRestorationClassMapKey`, when the object set a `restorationClass`.
    public var restorationClass: String?
    /// `restorationClass` as Swift writes it (`StateRestorationDemo.CityViewController`), or as
    /// stored when it is no mangled Swift name.
    public var restorationClassName: String? {
        restorationClass.map { SwiftDemangler.demangle($0) ?? $0 }
    }
    /// The `$top` keys of the object's own archive, without the views read into `views`.
    /// Nil when the outer archive has no decodable entry for the path (see `stateProblem`).
    public var state: ArchiveFields?
    /// The views saved under `kViewRestorationDataKey`, in archive order.
    public var views: [RestorationView]
    /// Why `state` is nil, in words.
    public var stateProblem: String?
    /// The entry as found when it is not a keyed archive, so that it is still shown.
    public var undecodedEntry: ArchiveValue?

    public init(
        identifierPath: IdentifierPath, restorationClass: String? = nil, state: ArchiveFields?,
        views: [RestorationView] = [], stateProblem: String? = nil, undecodedEntry: ArchiveValue? = nil
    ) {
        self.identifierPath = identifierPath
        self.restorationClass = restorationClass
        self.state = state
        self.views = views
        self.stateProblem = stateProblem
        self.undecodedEntry = undecodedEntry
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
