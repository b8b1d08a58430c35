/// An archived dictionary. Keys may be any value (NSDictionary allows numbers, dates …).
///
/// Equality ignores the order of entries, as it does for the dictionary itself.
public struct ArchiveDictionary: Sendable {
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
            guard case .string(let key) = entry.key else { return nil }
            keys.append(key)
        }
        return ArchiveFields(keys: keys, values: entries.map(\.value))
    }

    public subscript(key: String) -> ArchiveValue? {
        entries.first { $0.key == .string(key) }?.value
    }
}

extension ArchiveDictionary: Hashable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.count == rhs.count else { return false }
        // The same order first: the usual case, linear, and free for the same storage.
        if lhs.entries == rhs.entries { return true }
        // Multiset comparison, so duplicate keys in damaged files compare sensibly too.
        var remaining = [Entry: Int]()
        for entry in lhs.entries { remaining[entry, default: 0] += 1 }
        for entry in rhs.entries {
            guard let count = remaining[entry], count > 0 else { return false }
            remaining[entry] = count - 1
        }
        return true
    }

    /// Order-independent, to agree with `==`; values hash shallowly (see `ArchiveValue.hash`).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        var combined = 0
        for entry in entries { combined ^= entry.hashValue }
        hasher.combine(combined)
    }
}
