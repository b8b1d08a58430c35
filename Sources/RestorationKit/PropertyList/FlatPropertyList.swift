/// A tree of `PropertyListValue`s laid out as an object table, so that a property list read from
/// XML (or handed over already read) is decoded by the same keyed-archive decoder as a binary
/// one. Every value, dictionary keys included, becomes an object of its own; nothing is shared.
struct FlatPropertyList: PropertyListObjectTable {
    private enum Entry {
        case scalar(PropertyListValue)
        /// Members are `references[start..<start + count]` (dictionaries: keys, then values).
        case array(start: Int, count: Int)
        case dictionary(start: Int, count: Int)
    }

    private var entries: [Entry] = []
    private var references: [Int] = []

    /// Lays out `root`. The tree was bounded in depth and size when it was read; the layout
    /// recurses once per level, so it runs on the caller's deep stack like the reading did.
    init(_ root: PropertyListValue) {
        _ = add(root)
    }

    var objectCount: Int { entries.count }
    var topObject: Int { 0 }

    func byteOffset(of index: Int) -> Int? { nil }

    func asciiBytes(_ index: Int) -> UnsafeRawBufferPointer? { nil }

    func object(_ index: Int) throws(PropertyListError) -> PropertyListObject {
        switch entries[index] {
        case .scalar(let value): .scalar(value)
        case .array(let start, let count): .array(PropertyListContainer(index: index, count: count, references: start))
        case .dictionary(let start, let count): .dictionary(PropertyListContainer(index: index, count: count, references: start))
        }
    }

    func member(_ position: Int, of container: PropertyListContainer) throws(PropertyListError) -> Int {
        references[container.references + position]
    }

    /// Adds `value` and what it holds; returns its index.
    private mutating func add(_ value: PropertyListValue) -> Int {
        let index = entries.count
        switch value {
        case .array(let elements):
            entries.append(.array(start: 0, count: elements.count))
            let members = elements.map { add($0) }
            entries[index] = .array(start: references.count, count: members.count)
            references += members
        case .dictionary(let dictionary):
            entries.append(.dictionary(start: 0, count: dictionary.count))
            let keys = dictionary.keys.map { add(.string($0)) }
            let values = dictionary.values.map { add($0) }
            entries[index] = .dictionary(start: references.count, count: keys.count)
            references += keys
            references += values
        default:
            entries.append(.scalar(value))
        }
        return index
    }
}
