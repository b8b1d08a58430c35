/// A decoded NSKeyedArchiver archive: its `$top` keys with their values.
public struct KeyedArchive: Hashable, Sendable {
    public var top: ArchiveFields
    /// `$version`: NSKeyedArchiver writes 100000, the only version Foundation and this decoder
    /// read.
    public var version: Int128
    /// The root dictionary's fixed keys (`$archiver`, `$top`, `$objects`, `$version`) that it
    /// holds more than once, with how many times: the first of each is read. NSKeyedArchiver
    /// never writes one twice.
    public var repeatedRootKeys: [String: Int] = [:]

    /// `repeatedRootKeys` in the order the root's keys are written.
    var rootKeyRepeats: [(key: String, count: Int)] {
        ["$archiver", "$top", "$objects", "$version"].compactMap { key in repeatedRootKeys[key].map { (key, $0) } }
    }

    /// The `$version` NSKeyedArchiver writes, the only one Foundation's unarchiver reads.
    public static let archiverVersion: Int128 = 100_000

    public init(top: ArchiveFields, version: Int128 = KeyedArchive.archiverVersion) {
        self.top = top
        self.version = version
    }
}
