/// A property list seen as a table of objects that refer to one another by index, the way the
/// binary format stores it.
///
/// The keyed-archive decoder walks a table instead of a tree of `PropertyListValue`s, so that a
/// binary archive is decoded straight from its bytes: an archive holds tens of thousands of
/// nested property lists, and building a tree of each first cost more than decoding it.
/// `BinaryPropertyList` reads objects from the bytes when asked; `FlatPropertyList` holds an XML
/// document (or a tree) in the same shape.
protocol PropertyListObjectTable {
    var objectCount: Int { get }
    /// The root object's index.
    var topObject: Int { get }
    /// Object `index` (`0..<objectCount`): a scalar, or a container whose members `member` reads.
    func object(_ index: Int) throws(PropertyListError) -> PropertyListObject
    /// Object `index` for the keyed-archive decoder (see `PropertyListItem`); a string that is
    /// not in the input as UTF-8 is appended to `text`.
    func item(_ index: Int, text: inout [UInt8]) throws(PropertyListError) -> PropertyListItem
    /// `count` bytes at `start` of the table's buffer, for an `inputString` or `inputData` item;
    /// valid while the table is.
    func inputBytes(_ start: Int, _ count: Int) -> UnsafeRawBufferPointer
    /// The index of member `position` of `container`: an array's elements are `0..<count`; a
    /// dictionary's keys are `0..<count` and its values `count..<2 * count`.
    func member(_ position: Int, of container: PropertyListContainer) throws(PropertyListError) -> Int
    /// Where object `index` starts in the input, for messages; nil where that is not known (XML).
    func byteOffset(of index: Int) -> Int?
    /// The bytes of object `index` when it is a string stored as ASCII in the input, its bounds
    /// sound; nil otherwise (`item` then reads it, or reports what is wrong). The short way to a
    /// class description's names, which every nested archive repeats.
    func asciiBytes(_ index: Int) -> UnsafeRawBufferPointer?
    /// The level of a file's decoding that decodes an archive in this table.
    static func level(_ decoder: ArchiveGraphDecoder<Self>, nested: NestedFailure?, keeping copy: CopiedBytes?) -> ArchiveLevel
}

/// One object of a table as the keyed-archive decoder reads it: strings and data are left in the
/// input where they can be, and never made into a `String` or an array.
enum PropertyListItem {
    /// A string stored as UTF-8 in the input: `count` bytes at `start` of the table's buffer;
    /// `plain` when every byte is written as it is (see `TextEscaping.isPlain`).
    case inputString(start: Int, count: Int, plain: Bool)
    /// A string converted to UTF-8 (from UTF-16, Latin-1 or a tree) and appended to the text
    /// the decoder passed, at `offset`.
    case textString(offset: Int, count: Int)
    /// Data in the input: `count` bytes at `start` of the table's buffer.
    case inputData(start: Int, count: Int)
    /// Data of a table read from a tree: `object(index)` holds its bytes.
    case treeData(index: Int)
    /// Any other value but an array or a dictionary.
    case scalar(PropertyListScalar)
    case array(PropertyListContainer)
    case dictionary(PropertyListContainer)
}

/// A value that is neither a string, data nor a container: an item holds no reference, so the
/// decoder copies items without reference counting.
enum PropertyListScalar {
    case integer(Int128)
    case real(Double)
    case float(Float)
    case boolean(Bool)
    case date(Double)
    case uid(UInt64)

    init?(_ value: PropertyListValue) {
        switch value {
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .float(let float): self = .float(float)
        case .boolean(let boolean): self = .boolean(boolean)
        case .date(let date): self = .date(date)
        case .uid(let uid): self = .uid(uid)
        case .string, .data, .array, .dictionary: return nil
        }
    }
}

/// One object of a `PropertyListObjectTable`.
enum PropertyListObject {
    /// Any value but an array or a dictionary.
    case scalar(PropertyListValue)
    case array(PropertyListContainer)
    case dictionary(PropertyListContainer)
}

/// An array or dictionary of a table: its index, its entry count, and where its member
/// references start (the table's own business).
struct PropertyListContainer {
    var index: Int
    var count: Int
    var references: Int
}

extension PropertyListObjectTable {
    /// A table read from a tree has no input bytes: its items are all `textString` or `scalar`.
    func inputBytes(_ start: Int, _ count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: nil, count: 0)
    }

    func item(_ index: Int, text: inout [UInt8]) throws(PropertyListError) -> PropertyListItem {
        switch try object(index) {
        case .scalar(.string(let string)):
            let offset = text.count
            text.append(contentsOf: string.utf8)
            return .textString(offset: offset, count: text.count - offset)
        case .scalar(.data): return .treeData(index: index)
        case .scalar(let value):
            guard let scalar = PropertyListScalar(value) else { preconditionFailure("a table returned a container as a scalar") }
            return .scalar(scalar)
        case .array(let container): return .array(container)
        case .dictionary(let container): return .dictionary(container)
        }
    }

    /// The string stored at `index`, or nil if it is another kind of object.
    func string(_ index: Int) throws(PropertyListError) -> String? {
        if case .scalar(.string(let string)) = try object(index) { return string }
        return nil
    }

    /// The property list as a tree of values: each object decoded once and shared after that, a
    /// reference cycle refused, and depth and expansion bounded by `limits`.
    func tree(limits: DecodingLimits) throws(PropertyListError) -> PropertyListValue {
        try read(limits: limits, building: true)
    }

    /// See `PropertyListReader.topLevelScalars`.
    func topLevelScalars(limits: DecodingLimits) throws(PropertyListError) -> PropertyListDictionary? {
        try check(limits: limits)
        guard case .dictionary(let dictionary) = try object(topObject) else { return nil }
        var members: [(String, PropertyListValue)] = []
        for position in 0..<dictionary.count {
            guard let key = try string(try member(position, of: dictionary)) else { continue }
            if case .scalar(let value) = try object(try member(dictionary.count + position, of: dictionary)) {
                members.append((key, value))
            }
        }
        return PropertyListDictionary(members)
    }

    /// Fails as `tree` would, without making the tree (a deep one would be freed by recursion).
    func check(limits: DecodingLimits) throws(PropertyListError) {
        _ = try read(limits: limits, building: false)
    }

    private func read(limits: DecodingLimits, building: Bool) throws(PropertyListError) -> PropertyListValue {
        // One slot per object is allocated up front: bound the count by the values the list may
        // expand to, or a small file of tiny objects could ask for gigabytes.
        guard objectCount <= limits.maxNodes else {
            throw PropertyListError(limits.exceeded(.nodes), at: byteOffset(of: topObject), exceedsLimit: true)
        }
        var builder = PropertyListTreeBuilder(table: self, limits: limits, building: building)
        return try builder.value(topObject, depth: 0)
    }
}

/// Builds the `PropertyListValue` tree of a table (see `PropertyListObjectTable.tree`).
private struct PropertyListTreeBuilder<Table: PropertyListObjectTable> {
    let table: Table
    let limits: DecodingLimits
    /// Whether containers are made: without, each stands for itself as `true`, and only the
    /// checks are made.
    let building: Bool
    /// Decoded objects, so that a shared object is decoded once.
    var decoded: [PropertyListValue?]
    /// How many values each decoded object expands to; a shared object counts once per use.
    var expandedSize: [Int]
    /// Objects whose decoding is under way: meeting one again is a cycle.
    var inProgress: [Bool]

    init(table: Table, limits: DecodingLimits, building: Bool) {
        self.table = table
        self.limits = limits
        self.building = building
        // A table's object count is bounded by its input's size, so these allocations are too.
        decoded = Array(repeating: nil, count: table.objectCount)
        expandedSize = Array(repeating: 0, count: table.objectCount)
        inProgress = Array(repeating: false, count: table.objectCount)
    }

    /// The value of object `root` at `depth`, made with a stack of its own: containers whose
    /// members are being made, and one list of the members (and keys) made and not yet taken by
    /// their container. Objects are read and checked in the order a recursive descent would read
    /// them, so the same errors come out.
    mutating func value(_ root: Int, depth rootDepth: Int) throws(PropertyListError) -> PropertyListValue {
        var open: [OpenContainer] = []
        var members: [PropertyListValue] = []
        var keys: [String] = []
        var (next, depth) = (root, rootDepth)
        while true {
            // Object `next`, at `depth`: made already, a scalar, or a container opened.
            var finished = decoded[next]
            var finishedIndex = next
            if finished == nil {
                let offset = table.byteOffset(of: next)
                guard !inProgress[next] else {
                    throw PropertyListError("reference cycle: object \(next) contains itself", at: offset)
                }
                guard depth <= limits.maxDepth else {
                    throw PropertyListError(DecodingLimit.depth.exceeded(limits.maxDepth), at: offset, exceedsLimit: true)
                }
                inProgress[next] = true
                switch try table.object(next) {
                case .scalar(let scalar):
                    finished = done(next, scalar, size: 1)
                case .array(let array):
                    open.append(OpenContainer(index: next, offset: offset, container: array, keyed: false, depth: depth, membersStart: members.count, keysStart: keys.count))
                case .dictionary(let dictionary):
                    open.append(OpenContainer(index: next, offset: offset, container: dictionary, keyed: true, depth: depth, membersStart: members.count, keysStart: keys.count))
                }
            }
            // Containers that end after it, then the next object to make.
            while true {
                guard var container = open.popLast() else { return finished! }
                if let value = finished {
                    finished = nil
                    if let key = container.keyIndex {
                        // A dictionary's key, then its value.
                        guard container.valueIndex == nil else {
                            if building { members.append(value) }
                            container.size = try add(container.size, expandedSize[finishedIndex] + 1, at: container.offset)
                            (container.keyIndex, container.valueIndex) = (nil, nil)
                            container.position += 1
                            open.append(container)
                            continue
                        }
                        guard case .string(let name) = value else {
                            throw PropertyListError("dictionary key (object \(key)) is not a string", at: container.offset)
                        }
                        let valueIndex = try table.member(container.container.count + container.position, of: container.container)
                        if building { keys.append(name) }
                        container.valueIndex = valueIndex
                        open.append(container)
                        (next, depth) = (valueIndex, container.depth + 1)
                        break
                    }
                    if building { members.append(value) }
                    container.size = try add(container.size, expandedSize[finishedIndex], at: container.offset)
                    container.position += 1
                }
                if container.position < container.container.count {
                    let member = try table.member(container.position, of: container.container)
                    if container.keyed { container.keyIndex = member }
                    open.append(container)
                    (next, depth) = (member, container.depth + 1)
                    break
                }
                let value: PropertyListValue = !building ? .boolean(true) : container.keyed
                    ? .dictionary(PropertyListDictionary(keys: Array(keys[container.keysStart...]), values: Array(members[container.membersStart...])))
                    : .array(Array(members[container.membersStart...]))
                members.removeSubrange(container.membersStart...)
                keys.removeSubrange(container.keysStart...)
                finished = done(container.index, value, size: container.size)
                finishedIndex = container.index
                continue
            }
        }
    }

    /// A container whose members are being made (see `value(_:depth:)`).
    private struct OpenContainer {
        let index: Int
        let offset: Int?
        let container: PropertyListContainer
        let keyed: Bool
        let depth: Int
        /// Where its members (and keys) start in the lists of those made.
        let membersStart: Int
        let keysStart: Int
        var position = 0
        var size = 1
        /// The dictionary key being made, or made with its value under way.
        var keyIndex: Int?
        var valueIndex: Int?
    }

    /// `value`, made for object `index`: kept for the object's other uses.
    private mutating func done(_ index: Int, _ value: PropertyListValue, size: Int) -> PropertyListValue {
        inProgress[index] = false
        decoded[index] = value
        expandedSize[index] = size
        return value
    }

    private func add(_ size: Int, _ more: Int, at offset: Int?) throws(PropertyListError) -> Int {
        let (total, overflow) = size.addingReportingOverflow(more)
        guard !overflow, total <= limits.maxNodes else {
            throw PropertyListError(limits.exceeded(.nodes), at: offset, exceedsLimit: true)
        }
        return total
    }
}
