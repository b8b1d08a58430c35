/// A decoded NSKeyedArchiver archive: its `$top` keys with their values.
public struct KeyedArchive: Hashable, Sendable {
    public var top: ArchiveFields
    /// `$version` as written (NSKeyedArchiver writes 100000).
    public var version: PropertyListValue?

    /// The `$version` NSKeyedArchiver writes, the only one Foundation's unarchiver reads.
    public static let archiverVersion: Int128 = 100_000

    public init(top: ArchiveFields, version: PropertyListValue? = nil) {
        self.top = top
        self.version = version
    }
}
