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

    /// Lays out `root` depth first, each container before its members (a dictionary's keys,
    /// then its values), with a stack of its own: a tree as deep as the limits allow is laid
    /// out on an ordinary stack.
    init(_ root: PropertyListValue) {
        var open: [OpenContainer] = []
        // The indices of the members the open containers have so far, one after another.
        var members: [Int] = []
        var next: PropertyListValue? = root
        while true {
            if let value = next {
                let index = entries.count
                switch value {
                case .array(let elements):
                    entries.append(.array(start: 0, count: 0))
                    open.append(OpenContainer(index: index, isDictionary: false, keys: [], values: elements, mark: members.count))
                case .dictionary(let dictionary):
                    entries.append(.dictionary(start: 0, count: 0))
                    open.append(OpenContainer(index: index, isDictionary: true, keys: dictionary.keys, values: dictionary.values, mark: members.count))
                default:
                    entries.append(.scalar(value))
                    members.append(index)
                }
            }
            guard let container = open.last else { return }
            if let member = container.member(container.next) {
                open[open.count - 1].next += 1
                next = member
                continue
            }
            next = nil
            open.removeLast()
            let start = references.count
            references += members[container.mark...]
            members.removeSubrange(container.mark...)
            entries[container.index] = container.isDictionary
                ? .dictionary(start: start, count: container.keys.count)
                : .array(start: start, count: container.values.count)
            members.append(container.index)
        }
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

    /// An array or dictionary being laid out, and its next member.
    private struct OpenContainer {
        let index: Int
        let isDictionary: Bool
        /// A dictionary's keys, which are laid out before its values.
        let keys: [String]
        let values: [PropertyListValue]
        /// Where the container's members begin in the list of members laid out.
        let mark: Int
        var next = 0

        /// The member at `position`, nil past the last.
        func member(_ position: Int) -> PropertyListValue? {
            position < keys.count ? .string(keys[position]) : position - keys.count < values.count ? values[position - keys.count] : nil
        }
    }
}
