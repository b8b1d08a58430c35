/// An XML property list laid out as an object table, so that the keyed-archive decoder and
/// `check` read it as they read a binary one. `XMLPropertyListReader.table` lays it out while it
/// parses (see `Builder`): every value, dictionary keys included, becomes an object of its own;
/// nothing is shared, and no tree is made on the way.
struct XMLPropertyList: PropertyListObjectTable {
    /// The objects; a container's `references` is where its members' indices start in
    /// `references` (a dictionary's keys, then its values, as the binary format has them).
    private var entries: [PropertyListObject] = []
    private var references: [Int] = []

    /// Lays out values in the order the parser meets them: a container's object is made when it
    /// opens, its member references written when it closes.
    struct Builder {
        private(set) var table = XMLPropertyList()
        /// The members of the open containers, one after another (a dictionary's as key, value…).
        private var members: [Int] = []
        /// Each open container's object and where its members start in `members`.
        private var open: [(index: Int, mark: Int)] = []

        /// A value read whole: a scalar, a string, data, or an empty container.
        mutating func value(_ value: PropertyListObject) {
            let index = table.entries.count
            switch value {
            case .array(let container):
                precondition(container.count == 0, "the parser hands over containers member by member")
                table.entries.append(.array(PropertyListContainer(index: index, count: 0, references: 0)))
            case .dictionary(let container):
                precondition(container.count == 0, "the parser hands over containers member by member")
                table.entries.append(.dictionary(PropertyListContainer(index: index, count: 0, references: 0)))
            case .string, .data, .scalar:
                table.entries.append(value)
            }
            if !open.isEmpty { members.append(index) }
        }

        mutating func open(dictionary: Bool) {
            let index = table.entries.count
            if !open.isEmpty { members.append(index) }
            let container = PropertyListContainer(index: index, count: 0, references: 0)
            table.entries.append(dictionary ? .dictionary(container) : .array(container))
            open.append((index, members.count))
        }

        mutating func key(_ key: String) {
            value(.string(key))
        }

        mutating func close() {
            let (index, mark) = open.removeLast()
            defer { members.removeSubrange(mark...) }
            guard case .dictionary = table.entries[index] else {
                table.entries[index] = .array(PropertyListContainer(index: index, count: members.count - mark, references: table.references.count))
                table.references += members[mark...]
                return
            }
            let count = (members.count - mark) / 2
            // {CF$UID: n} is a UID: its key and value, the last two objects, go.
            if count == 1, let uid = Self.uid(key: table.entries[members[mark]], value: table.entries[members[mark + 1]]) {
                table.entries.removeSubrange((index + 1)...)
                table.entries[index] = .scalar(.uid(uid))
                return
            }
            // Keys, then values, as the binary format lays a dictionary out.
            table.entries[index] = .dictionary(PropertyListContainer(index: index, count: count, references: table.references.count))
            table.references += stride(from: mark, to: members.count, by: 2).map { members[$0] }
            table.references += stride(from: mark + 1, to: members.count, by: 2).map { members[$0] }
        }

        /// The UID a dictionary of one entry, `key` and `value`, stands for: `CF$UID` with an
        /// integer. XML has no UID type: keyed archives write references as {CF$UID: n}, and
        /// Core Foundation reads that form as a reference.
        private static func uid(key: PropertyListObject, value: PropertyListObject) -> UInt64? {
            guard case .string("CF$UID") = key, case .scalar(.integer(let index)) = value,
                  index >= 0, index <= Int128(UInt64.max) else { return nil }
            return UInt64(index)
        }
    }

    private init() {}

    var objectCount: Int { entries.count }
    var topObject: Int { 0 }

    func byteOffset(of index: Int) -> Int? { nil }

    func asciiBytes(_ index: Int) -> UnsafeRawBufferPointer? { nil }

    func object(_ index: Int) throws(PropertyListError) -> PropertyListObject {
        entries[index]
    }

    func member(_ position: Int, of container: PropertyListContainer) throws(PropertyListError) -> Int {
        references[container.references + position]
    }
}
