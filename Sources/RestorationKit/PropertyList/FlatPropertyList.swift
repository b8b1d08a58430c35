/// A property list laid out as an object table, so that one read from XML (see `Builder`), or
/// handed over as a tree of `PropertyListValue`s, is decoded by the same keyed-archive decoder as
/// a binary one. Every value, dictionary keys included, becomes an object of its own; nothing is
/// shared.
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

    /// Lays out values in the order a reader meets them (see `XMLValueSink`): a container's
    /// object is made when it opens, its member references written when it closes.
    struct Builder: XMLValueSink {
        private(set) var table = FlatPropertyList()
        /// The members of the open containers, one after another (a dictionary's as key, value…).
        private var members: [Int] = []
        /// Each open container's object and where its members start in `members`.
        private var open: [(index: Int, mark: Int)] = []

        mutating func value(_ value: PropertyListValue) {
            let index = table.entries.count
            switch value {
            case .array(let elements) where elements.isEmpty:
                table.entries.append(.array(start: 0, count: 0))
            case .dictionary(let dictionary) where dictionary.keys.isEmpty:
                table.entries.append(.dictionary(start: 0, count: 0))
            case .array, .dictionary:
                preconditionFailure("a reader hands over containers member by member")
            default:
                table.entries.append(.scalar(value))
            }
            if !open.isEmpty { members.append(index) }
        }

        mutating func open(dictionary: Bool) {
            let index = table.entries.count
            if !open.isEmpty { members.append(index) }
            table.entries.append(dictionary ? .dictionary(start: 0, count: 0) : .array(start: 0, count: 0))
            open.append((index, members.count))
        }

        mutating func key(_ key: String) {
            value(.string(key))
        }

        mutating func close() {
            let (index, mark) = open.removeLast()
            defer { members.removeSubrange(mark...) }
            guard case .dictionary = table.entries[index] else {
                table.entries[index] = .array(start: table.references.count, count: members.count - mark)
                table.references += members[mark...]
                return
            }
            let count = (members.count - mark) / 2
            // {CF$UID: n} is a UID: its key and value, the last two objects, go.
            if count == 1, case .scalar(let key) = table.entries[members[mark]], case .scalar(let value) = table.entries[members[mark + 1]],
               let uid = Self.uid(key: key.stringValue, value: value) {
                table.entries.removeSubrange((index + 1)...)
                table.entries[index] = .scalar(.uid(uid))
                return
            }
            // Keys, then values, as the binary format lays a dictionary out.
            table.entries[index] = .dictionary(start: table.references.count, count: count)
            table.references += stride(from: mark, to: members.count, by: 2).map { members[$0] }
            table.references += stride(from: mark + 1, to: members.count, by: 2).map { members[$0] }
        }
    }

    private init() {}

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
