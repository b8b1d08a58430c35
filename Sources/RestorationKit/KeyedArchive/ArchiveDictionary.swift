/// An archived dictionary's entries, in the archive's order. Keys may be any value (NSDictionary
/// allows numbers, dates …).
///
/// Equality ignores the order of entries, as it does for the dictionary value.
public struct ArchiveDictionary: Hashable, Sendable {
    public struct Entry: Hashable, Sendable {
        public var key: ArchiveValue
        public var value: ArchiveValue

        public init(key: ArchiveValue, value: ArchiveValue) {
            self.key = key
            self.value = value
        }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    public var count: Int { entries.count }

    /// The entries as string-keyed fields, or nil if any key is not a string.
    public var stringKeyed: ArchiveFields? {
        var keys: [String] = []
        keys.reserveCapacity(entries.count)
        for entry in entries {
            guard let key = entry.key.stringValue else { return nil }
            keys.append(key)
        }
        return ArchiveFields(keys: keys, values: entries.map(\.value))
    }

    /// The value of the first entry whose key is the string `key`.
    public subscript(key: String) -> ArchiveValue? {
        entries.first { $0.key.stringValue?.isExactly(key) == true }?.value
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        ArchiveValue.dictionary(lhs) == ArchiveValue.dictionary(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        ArchiveValue.dictionary(self).hash(into: &hasher)
    }
}
