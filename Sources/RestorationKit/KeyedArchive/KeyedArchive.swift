/// A decoded NSKeyedArchiver archive: its `$top` keys with their values.
public struct KeyedArchive: Hashable, Sendable {
    public var top: ArchiveFields
    /// `$version` as written (NSKeyedArchiver writes 100000).
    public var version: PropertyListValue?

    public init(top: ArchiveFields, version: PropertyListValue? = nil) {
        self.top = top
        self.version = version
    }
}
