/// A property list seen as a table of objects that refer to one another by index, the way the
/// binary format stores it.
///
/// There is no tree of values: the keyed-archive decoder walks the table, so that a binary
/// archive is decoded straight from its bytes (an archive holds tens of thousands of nested
/// property lists, and building a tree of each first cost more than decoding it), and every
/// other reader checks or picks from it. `BinaryPropertyList` reads objects from the bytes when
/// asked; `XMLPropertyList` holds an XML document, read in one pass, in the same shape.
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
    /// A string converted to UTF-8 (from UTF-16, Latin-1 or XML text) and appended to the text
    /// the decoder passed, at `offset`.
    case textString(offset: Int, count: Int)
    /// Data in the input: `count` bytes at `start` of the table's buffer.
    case inputData(start: Int, count: Int)
    /// Data the table holds itself (decoded from XML's base64): `object(index)` holds its bytes.
    case tableData(index: Int)
    /// Any other value but an array or a dictionary.
    case scalar(PropertyListScalar)
    case array(PropertyListContainer)
    case dictionary(PropertyListContainer)
}

/// A value that is neither a string, data nor a container, exactly as stored: an item holds no
/// reference, so the decoder copies items without reference counting.
///
/// Integers are `Int128` because the binary format stores unsigned values up to 2^64−1 in
/// 16-byte signed integers next to negative 8-byte ones: no narrower type holds both.
enum PropertyListScalar: Hashable, Sendable {
    case integer(Int128)
    case real(Double)
    /// A 4-byte real (what `encodeFloat:forKey:` writes), kept at its own precision.
    case float(Float)
    case boolean(Bool)
    /// Seconds since 2001-01-01T00:00:00Z (Core Foundation's reference date).
    case date(Double)
    /// A keyed-archiver object reference (`CF$UID`).
    case uid(UInt64)

    /// The name of the value's type as the property-list format calls it, for messages.
    var typeName: String {
        switch self {
        case .integer: "integer"
        case .real, .float: "real"
        case .boolean: "boolean"
        case .date: "date"
        case .uid: "UID"
        }
    }
}

/// One object of a `PropertyListObjectTable`.
enum PropertyListObject {
    case string(String)
    /// Data, a slice of the bytes it was read from (for a binary list, the file's: its
    /// `startIndex` is the offset of the bytes in the file).
    case data(ArraySlice<UInt8>)
    case scalar(PropertyListScalar)
    case array(PropertyListContainer)
    case dictionary(PropertyListContainer)

    /// The name of the object's type as the property-list format calls it, for messages.
    var typeName: String {
        switch self {
        case .string: "string"
        case .data: "data"
        case .scalar(let scalar): scalar.typeName
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }
}

/// An array or dictionary of a table: its index, its entry count, and where its member
/// references start (the table's own business).
struct PropertyListContainer {
    var index: Int
    var count: Int
    var references: Int
}

extension PropertyListObjectTable {
    /// A table that holds its values itself has no input bytes: its items are all
    /// `textString`, `tableData` or `scalar`.
    func inputBytes(_ start: Int, _ count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: nil, count: 0)
    }

    func item(_ index: Int, text: inout [UInt8]) throws(PropertyListError) -> PropertyListItem {
        switch try object(index) {
        case .string(let string):
            let offset = text.count
            text.append(contentsOf: string.utf8)
            return .textString(offset: offset, count: text.count - offset)
        case .data: return .tableData(index: index)
        case .scalar(let scalar): return .scalar(scalar)
        case .array(let container): return .array(container)
        case .dictionary(let container): return .dictionary(container)
        }
    }

    /// The string stored at `index`, or nil if it is another kind of object.
    func string(_ index: Int) throws(PropertyListError) -> String? {
        if case .string(let string) = try object(index) { return string }
        return nil
    }

    /// The members of the root dictionary whose values are neither strings, data nor
    /// containers, in order, once the whole list is checked (`check`); nil when the root is no
    /// dictionary.
    func topLevelScalars(limits: DecodingLimits) throws(PropertyListError) -> OrderedFields<PropertyListScalar>? {
        try check(limits: limits)
        guard case .dictionary(let dictionary) = try object(topObject) else { return nil }
        var members: [(String, PropertyListScalar)] = []
        for position in 0..<dictionary.count {
            guard let key = try string(try member(position, of: dictionary)) else { continue }
            if case .scalar(let value) = try object(try member(dictionary.count + position, of: dictionary)) {
                members.append((key, value))
            }
        }
        return OrderedFields(members)
    }

    /// Checks the whole property list as a reader of its values would meet it: every object read
    /// (and so checked) once, dictionary keys strings, a reference cycle refused, depth and
    /// expansion (a shared object counts once per use) bounded by `limits`.
    func check(limits: DecodingLimits) throws(PropertyListError) {
        // One slot per object is allocated up front: bound the count by the values the list may
        // expand to, or a small file of tiny objects could ask for gigabytes.
        guard objectCount <= limits.maxNodes else {
            throw PropertyListError(limits.exceeded(.nodes), at: byteOffset(of: topObject), exceedsLimit: true)
        }
        var checker = PropertyListChecker(table: self, limits: limits)
        try checker.check(topObject)
    }
}


/// Checks a table (see `PropertyListObjectTable.check`) with a stack of its own, in the order a
/// recursive descent would read it, so the same errors come out whatever the depth.
private struct PropertyListChecker<Table: PropertyListObjectTable> {
    let table: Table
    let limits: DecodingLimits
    /// Each object's state: not met, being checked (meeting it again is a cycle), or checked.
    var states: [ObjectState]
    /// How many values each checked object expands to; a shared object counts once per use.
    var expandedSize: [Int]

    enum ObjectState: UInt8 {
        case unseen, inProgress, checked, checkedString
    }

    init(table: Table, limits: DecodingLimits) {
        self.table = table
        self.limits = limits
        // A table's object count is bounded by its input's size, so these allocations are too.
        states = Array(repeating: .unseen, count: table.objectCount)
        expandedSize = Array(repeating: 0, count: table.objectCount)
    }

    mutating func check(_ root: Int) throws(PropertyListError) {
        var open: [OpenContainer] = []
        var (next, depth) = (root, 0)
        while true {
            // Object `next`, at `depth`: checked already, a scalar, or a container opened.
            var finished: Int? = next
            switch states[next] {
            case .checked, .checkedString: break
            case .inProgress:
                throw PropertyListError("reference cycle: object \(next) contains itself", at: table.byteOffset(of: next))
            case .unseen:
                let offset = table.byteOffset(of: next)
                guard depth <= limits.maxDepth else {
                    throw PropertyListError(DecodingLimit.depth.exceeded(limits.maxDepth), at: offset, exceedsLimit: true)
                }
                states[next] = .inProgress
                switch try table.object(next) {
                case .string: done(next, .checkedString, size: 1)
                case .data, .scalar: done(next, .checked, size: 1)
                case .array(let array):
                    open.append(OpenContainer(offset: offset, container: array, keyed: false, depth: depth))
                    finished = nil
                case .dictionary(let dictionary):
                    open.append(OpenContainer(offset: offset, container: dictionary, keyed: true, depth: depth))
                    finished = nil
                }
            }
            // Containers that end after it, then the next object to check.
            while true {
                guard var container = open.popLast() else { return }
                if let member = finished {
                    finished = nil
                    if let key = container.keyIndex {
                        // A dictionary's key, then its value.
                        guard container.valueIndex == nil else {
                            container.size = try add(container.size, expandedSize[member] + 1, at: container.offset)
                            (container.keyIndex, container.valueIndex) = (nil, nil)
                            container.position += 1
                            open.append(container)
                            continue
                        }
                        guard states[member] == .checkedString else {
                            throw PropertyListError("dictionary key (object \(key)) is not a string", at: container.offset)
                        }
                        let valueIndex = try table.member(container.container.count + container.position, of: container.container)
                        container.valueIndex = valueIndex
                        open.append(container)
                        (next, depth) = (valueIndex, container.depth + 1)
                        break
                    }
                    container.size = try add(container.size, expandedSize[member], at: container.offset)
                    container.position += 1
                }
                if container.position < container.container.count {
                    let member = try table.member(container.position, of: container.container)
                    if container.keyed { container.keyIndex = member }
                    open.append(container)
                    (next, depth) = (member, container.depth + 1)
                    break
                }
                done(container.container.index, .checked, size: container.size)
                finished = container.container.index
            }
        }
    }

    /// A container whose members are being checked (see `check`).
    private struct OpenContainer {
        let offset: Int?
        let container: PropertyListContainer
        let keyed: Bool
        let depth: Int
        var position = 0
        var size = 1
        /// The dictionary key being checked, or checked with its value under way.
        var keyIndex: Int?
        var valueIndex: Int?
    }

    private mutating func done(_ index: Int, _ state: ObjectState, size: Int) {
        states[index] = state
        expandedSize[index] = size
    }

    private func add(_ size: Int, _ more: Int, at offset: Int?) throws(PropertyListError) -> Int {
        let (total, overflow) = size.addingReportingOverflow(more)
        guard !overflow, total <= limits.maxNodes else {
            throw PropertyListError(limits.exceeded(.nodes), at: offset, exceedsLimit: true)
        }
        return total
    }
}
