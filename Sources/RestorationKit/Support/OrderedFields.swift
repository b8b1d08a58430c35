/// String-keyed values in the order the file stores them: a property-list dictionary, a keyed
/// archive's `$top`, an archived object's fields.
///
/// The order is kept so that output follows the file, but equality ignores it: two
/// dictionaries with the same pairs are the same dictionary whatever order they were written in.
/// Duplicate keys (possible in a damaged file) are all kept; lookups find the first. Keys are
/// compared byte for byte, as Foundation compares them (see `ExactText`).
public struct OrderedFields<Value: Hashable & Sendable>: Sendable {
    public private(set) var keys: [String]
    public private(set) var values: [Value]
    /// Built only for larger dictionaries: an outer restoration archive's `$top` has one key per
    /// saved object, where a linear search per lookup would make decoding quadratic. Below the
    /// threshold a linear search is cheaper than hashing every key of every object's state.
    private var index: KeyIndex?

    /// Each key's (first) position.
    typealias KeyIndex = [ExactText: Int]

    private static var indexThreshold: Int { 64 }

    public init(keys: [String], values: [Value]) {
        self.init(keys: keys, values: values, index: Self.index(of: keys))
    }

    /// The fields, with `index` made by `index(of: keys)` (on another thread while the values
    /// were made, say).
    init(keys: [String], values: [Value], index: KeyIndex?) {
        precondition(keys.count == values.count, "keys and values differ in count")
        self.keys = keys
        self.values = values
        self.index = index
    }

    /// The index of fields with these keys: nil for few keys.
    static func index(of keys: [String]) -> KeyIndex? {
        guard keys.count > indexThreshold else { return nil }
        var index = KeyIndex(minimumCapacity: keys.count)
        // The first of duplicate keys wins, as it does for a linear search (one hash per key: a
        // repeated key, rare, puts the first position back).
        for (position, key) in keys.enumerated() {
            let key = ExactText(key)
            if let first = index.updateValue(position, forKey: key) { index[key] = first }
        }
        return index
    }

    public init(_ pairs: [(String, Value)]) {
        self.init(keys: pairs.map(\.0), values: pairs.map(\.1))
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    public subscript(key: String) -> Value? {
        position(of: key).map { values[$0] }
    }

    public static var empty: Self { Self(keys: [], values: []) }

    /// The position of the (first) entry under `key`.
    func position(of key: String) -> Int? {
        if let index {
            return index[ExactText(key)]
        }
        var key = key
        return key.withUTF8 { key in keys.firstIndex { $0.hasBytes(key) } }
    }

    /// Whether a key is repeated (possible in a damaged file).
    var hasRepeatedKeys: Bool {
        if let index {
            return index.count < keys.count
        }
        return Set(keys.lazy.map(ExactText.init)).count < keys.count
    }

    /// Without every entry under `key`: one pass, no hashing (it runs once per saved object).
    public func removing(_ key: String) -> Self {
        var keptKeys: [String] = []
        var keptValues: [Value] = []
        keptKeys.reserveCapacity(keys.count)
        keptValues.reserveCapacity(keys.count)
        var key = key
        key.withUTF8 { key in
            for position in keys.indices where !keys[position].hasBytes(key) {
                keptKeys.append(keys[position])
                keptValues.append(values[position])
            }
        }
        return Self(keys: keptKeys, values: keptValues)
    }

    /// The same fields without those whose key is in `removed`.
    public func removing(_ removed: Set<String>) -> Self {
        let removed = Set(removed.lazy.map(ExactText.init))
        var keptKeys: [String] = []
        var keptValues: [Value] = []
        for position in keys.indices where !removed.contains(ExactText(keys[position])) {
            keptKeys.append(keys[position])
            keptValues.append(values[position])
        }
        return Self(keys: keptKeys, values: keptValues)
    }

    /// Key/value pairs in file order, a repeated key as often as it is written.
    public var entries: Entries { Entries(keys: keys, values: values) }

    /// The key/value pairs of `OrderedFields`, in file order.
    public struct Entries: RandomAccessCollection, Sendable {
        let keys: [String]
        let values: [Value]

        public var startIndex: Int { 0 }
        public var endIndex: Int { keys.count }

        public subscript(position: Int) -> (key: String, value: Value) {
            (keys[position], values[position])
        }
    }
}

extension OrderedFields: Hashable {
    private struct Pair: Hashable {
        let key: ExactText
        let value: Value
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.keys.isExactly(rhs.keys), lhs.values == rhs.values { return true }
        // Otherwise the pairs as multisets, so repeated keys in a damaged file still leave every
        // value equal to itself, in any order (as `ArchiveValue ==` compares them: see
        // `TapePair`), whether or not the names come in the same order.
        var remaining = [Pair: Int]()
        for (key, value) in lhs.entries { remaining[Pair(key: ExactText(key), value: value), default: 0] += 1 }
        for (key, value) in rhs.entries {
            let pair = Pair(key: ExactText(key), value: value)
            guard let count = remaining[pair], count > 0 else { return false }
            remaining[pair] = count - 1
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, to agree with ==.
        hasher.combine(count)
        var combined = 0
        for (key, value) in entries {
            combined ^= Pair(key: ExactText(key), value: value).hashValue
        }
        hasher.combine(combined)
    }
}
