/// A value of a decoded archive: a thin, copyable view of one node of the tape the decoder
/// wrote (see docs/design/tape.md), which it keeps alive.
///
/// Foundation's classes read as natural values (arrays, dictionaries, dates, URLs …); every
/// other class is an object that keeps its class chain and all its fields. Members are views
/// too, made when read: reading a value costs nothing below what is read.
///
/// Values are built with the static functions named after their kinds (`.string("x")`,
/// `.array([…])`), which write them to a tape of their own as the decoder would have.
public struct ArchiveValue: Sendable {
    public typealias Kind = TapeKind

    let tape: ArchiveTape
    let node: TapeNode

    init(_ node: TapeNode, on tape: ArchiveTape) {
        self.tape = tape
        self.node = node
    }

    public var kind: Kind { node.kind }

    /// A scalar's value (null, boolean, integer, real, float, date, cycle).
    private var scalar: TapeScalar? {
        node.scalar { tape.wideIntegers[$0] }
    }

    /// The bytes of a string, data, UUID or reference.
    private var bytes: [UInt8]? {
        node.kind.layout == .bytes ? tape.withBytes(of: node) { Array($0) } : nil
    }

    private func member(_ position: Int) -> ArchiveValue {
        ArchiveValue(tape.nodes[node.first + position], on: tape)
    }

    public var isNull: Bool { node.kind == .null }

    public var stringValue: String? {
        node.kind == .string ? tape.string(node) : nil
    }

    public var integerValue: Int128? {
        if case .integer(let value) = scalar { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .boolean(let value) = scalar { return value }
        return nil
    }

    /// A real number, 8-byte or 4-byte (`encodeFloat:`) alike.
    public var doubleValue: Double? {
        switch scalar {
        case .real(let value): value
        case .float(let value): Double(value)
        default: nil
        }
    }

    /// A 4-byte real (`encodeFloat:forKey:`) at its own precision.
    public var floatValue: Float? {
        if case .float(let value) = scalar { return value }
        return nil
    }

    /// A date, in seconds since 2001-01-01T00:00:00Z.
    public var dateValue: Double? {
        if case .date(let value) = scalar { return value }
        return nil
    }

    /// The UID in `$objects` of an object that refers back to one still being decoded.
    public var cycleValue: UInt64? {
        if case .cycle(let value) = scalar { return value }
        return nil
    }

    public var dataValue: ArraySlice<UInt8>? {
        node.kind == .data ? bytes?[...] : nil
    }

    /// Data: its bytes and, when they announced a property list that could not be read as a
    /// keyed archive, why.
    public var archiveData: ArchiveData? {
        guard node.kind == .data else { return nil }
        return ArchiveData(bytes: bytes![...], archiveError: node.flags.contains(.archiveError) ? tape.dataErrors[TapeBytes.Location(node)] : nil)
    }

    /// A UUID's 16 bytes.
    public var uuidValue: [UInt8]? {
        node.kind == .uuid ? bytes : nil
    }

    public var urlValue: ArchiveURL? {
        guard node.kind == .url else { return nil }
        return ArchiveURL(base: member(1), relative: tape.string(tape.nodes[node.first]))
    }

    /// The identifier path an object-identifier proxy refers to.
    public var referenceValue: IdentifierPath? {
        node.kind == .reference ? IdentifierPath(tape.string(node)) : nil
    }

    /// The elements of an array, a set or an ordered set, in the archive's order.
    public var elements: Elements? {
        node.kind.layout == .elements ? Elements(value: self) : nil
    }

    /// A dictionary's entries in the archive's order; keys may be any value.
    public var dictionaryValue: ArchiveDictionary? {
        guard node.kind == .dictionary else { return nil }
        return ArchiveDictionary(entries: (0..<node.memberCount).map { .init(key: member($0), value: member(node.memberCount + $0)) })
    }

    /// An object: its class and fields. An NSValue that holds a Foundation structure (`special`)
    /// is the object it was archived as.
    public var objectValue: ArchiveObject? {
        guard node.kind.layout == .object else { return nil }
        let objectClass = tape.classes[node.classIndex]
        return ArchiveObject(className: objectClass.name, classChain: objectClass.chain, classHints: objectClass.hints, fields: namedMembers)
    }

    /// A nested keyed archive's `$top`.
    public var archiveValue: KeyedArchive? {
        node.kind == .archive ? KeyedArchive(top: namedMembers, version: KeyedArchive.archiverVersion) : nil
    }

    /// An object's fields, a nested archive's `$top`, or a dictionary whose keys are all
    /// strings, in order (a repeated key kept).
    public var fields: ArchiveFields? {
        switch node.kind.layout {
        case .object, .fields: return namedMembers
        case .entries:
            let keys = (0..<node.memberCount).map { tape.nodes[node.first + $0] }
            guard keys.allSatisfy({ $0.kind == .string }) else { return nil }
            return namedMembers
        default: return nil
        }
    }

    /// Whether this is a dictionary whose keys are all strings (one `fields` reads), found
    /// without making the keys strings.
    var hasStringKeys: Bool {
        node.kind == .dictionary && (0..<node.memberCount).allSatisfy { tape.nodes[node.first + $0].kind == .string }
    }

    /// The first field named `key` (see `fields`).
    public subscript(key: String) -> ArchiveValue? {
        guard [.object, .fields, .entries].contains(node.kind.layout) else { return nil }
        var key = key
        let position = key.withUTF8 { key in
            (0..<node.memberCount).first { position in
                let name = tape.nodes[node.first + position]
                return name.kind == .string && tape.withBytes(of: name) { $0.hasSameBytes(as: UnsafeRawBufferPointer(key)) }
            }
        }
        return position.map { member(node.memberCount + $0) }
    }

    /// The class of an object: `$classname`.
    public var className: String? {
        node.kind.layout == .object ? tape.classes[node.classIndex].name : nil
    }

    private var namedMembers: ArchiveFields {
        let count = node.memberCount
        return ArchiveFields(keys: (0..<count).map { tape.string(tape.nodes[node.first + $0]) }, values: (0..<count).map { member(count + $0) })
    }

    /// The value one level deep, to switch on: its members stay views.
    public enum Content: Sendable {
        case null
        case string(String)
        case integer(Int128)
        case real(Double)
        case float(Float)
        case boolean(Bool)
        case date(Double)
        case data(ArchiveData)
        case array(Elements)
        case set(Elements)
        case orderedSet(Elements)
        case dictionary(ArchiveDictionary)
        case uuid([UInt8])
        case url(ArchiveURL)
        case object(ArchiveObject)
        /// An NSValue holding one of Foundation's structures (`objectValue` is the NSValue).
        case structure(NSValueStructure)
        case reference(String)
        case archive(KeyedArchive)
        case cycle(UInt64)
    }

    public var content: Content {
        switch node.kind {
        case .null: .null
        case .boolean: .boolean(node.payload != 0)
        case .integer: .integer(integerValue!)
        case .real: .real(Double(bitPattern: node.payload))
        case .float: .float(Float(bitPattern: UInt32(truncatingIfNeeded: node.payload)))
        case .date: .date(Double(bitPattern: node.payload))
        case .cycle: .cycle(node.payload)
        case .string: .string(tape.string(node))
        case .reference: .reference(tape.string(node))
        case .data: .data(archiveData!)
        case .uuid: .uuid(uuidValue!)
        case .array: .array(Elements(value: self))
        case .set: .set(Elements(value: self))
        case .orderedSet: .orderedSet(Elements(value: self))
        case .dictionary: .dictionary(dictionaryValue!)
        case .url: .url(urlValue!)
        case .archive: .archive(archiveValue!)
        case .object: .object(objectValue!)
        case .special: .structure(structureValue!)
        }
    }

    /// What an NSValue holding one of Foundation's structures holds.
    public var structureValue: NSValueStructure? {
        node.kind == .special ? tape.withView { NSValueStructure(node, in: $0) } : nil
    }

    /// A short name of the value's kind, for messages ("a string", "an object of class C").
    public var kindDescription: String {
        node.kind.valueDescription(className: className ?? "")
    }

    /// The elements of an array, a set or an ordered set: views, made when read.
    public struct Elements: RandomAccessCollection, Sendable {
        let value: ArchiveValue

        public var startIndex: Int { 0 }
        public var endIndex: Int { value.node.memberCount }

        public subscript(position: Int) -> ArchiveValue {
            precondition(indices.contains(position), "index out of range")
            return value.member(position)
        }
    }
}

extension ArchiveValue: Hashable {
    /// Exact equality: reals and dates are equal when their bits are, so a NaN equals itself (an
    /// archive never differs from itself) and -0.0 differs from 0.0 (a value kept exactly is
    /// compared exactly), and strings are equal when their bytes are (see `ExactText`).
    /// Dictionaries, an object's fields and an archive's keys compare in any order (see `TapePair`).
    ///
    /// Runs on the calling thread: the comparison keeps a stack of its own, so values nested as
    /// deeply as the limits allow compare on any thread.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.tape.withView { old in rhs.tape.withView { new in TapePair(old: old, new: new).equal(lhs.node, rhs.node) } }
    }

    /// Two levels deep (see `TapePair.hash`): hashing costs one pass over a container's own
    /// members, never its whole subtree.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(tape.withView { TapePair.hash(node, in: $0) })
    }
}

extension ArchiveValue: CustomStringConvertible {
    /// The value on one line, as `diff` writes it: each value spelled as `dump` spells it, a
    /// container's first members, cut past 4 096 bytes.
    public var description: String {
        tape.withView { TextDumpValues(formatter: TextDumpFormatter(), view: $0).compact(node, limit: 4096) }
    }
}

public typealias ArchiveFields = OrderedFields<ArchiveValue>
