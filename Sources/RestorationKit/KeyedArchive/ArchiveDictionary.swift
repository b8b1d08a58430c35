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

    /// The entries as a multiset: each entry of one side matched by an equal entry of the
    /// other, as the dictionary value compares them, without building either on a tape.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.entries.count == rhs.entries.count else { return false }
        var unmatched: [Entry: Int] = [:]
        for entry in lhs.entries { unmatched[entry, default: 0] += 1 }
        for entry in rhs.entries {
            guard let count = unmatched[entry], count > 0 else { return false }
            unmatched[entry] = count - 1
        }
        return true
    }

    /// The entries' hashes, combined in an order-free way (summed), and their count.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries.count)
        hasher.combine(entries.reduce(0) { $0 &+ $1.hashValue })
    }
}
