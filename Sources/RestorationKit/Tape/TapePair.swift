/// Views of two tapes, to compare values of the first (`old`) with values of the second (`new`):
/// the one equality of values (`ArchiveValue ==`, `diff`), exhaustive over the layouts. Exact:
/// strings, data and class names byte for byte, numbers and dates by their bits (a NaN equals
/// itself, -0.0 differs from 0.0); a dictionary's entries, an archive's keys and an object's
/// fields in any order (as multisets, so that a repeated key still leaves every value equal to
/// itself); arrays, sets and ordered sets in their order.
///
/// Values are compared by their numbers (see `ValueNumbers`): two values are equal exactly when
/// they were given one number, which takes one walk of each, whatever is compared after.
///
/// Valid only where both views are (see `ArchiveTape.withView(_:)`), on one thread at a time.
struct TapePair {
    let old: TapeView
    let new: TapeView
    private let numbers: ValueNumbers

    init(old: TapeView, new: TapeView) {
        (self.old, self.new) = (old, new)
        numbers = ValueNumbers(old: old, new: new)
    }

    func equal(_ a: TapeValue, _ b: TapeValue) -> Bool {
        switch (a, b) {
        case (.node(let x), .node(let y)):
            return equal(x, y)
        case (.node(let x), .entries(let y, let positions)):
            return x.kind == .dictionary && numbers.entries(of: x, 0..<x.memberCount, on: .old) == numbers.entries(of: y, positions, on: .new)
        case (.entries(let x, let positions), .node(let y)):
            return y.kind == .dictionary && numbers.entries(of: x, positions, on: .old) == numbers.entries(of: y, 0..<y.memberCount, on: .new)
        case (.entries(let x, let xPositions), .entries(let y, let yPositions)):
            return numbers.entries(of: x, xPositions, on: .old) == numbers.entries(of: y, yPositions, on: .new)
        }
    }

    /// Leaves are compared as they are; containers by their numbers.
    func equal(_ a: TapeNode, _ b: TapeNode) -> Bool {
        guard a.kind == b.kind, a.count == b.count else { return false }
        switch a.kind.layout {
        case .scalar:
            guard a.flags.contains(.wide) || b.flags.contains(.wide) else { return a.payload == b.payload }
            return old.scalar(a) == new.scalar(b)
        case .bytes:
            return old.bytes(of: a).hasSameBytes(as: new.bytes(of: b)) && old.dataError(a).isExactly(new.dataError(b))
        case .elements, .url, .entries, .fields, .object:
            return numbers.number(a, on: .old) == numbers.number(b, on: .new)
        }
    }

    /// How many containers the comparisons so far have walked: at most one for each block of
    /// each tape, however many paths lead to it.
    var containersWalked: Int { numbers.containersWalked }

    /// Whether two objects' classes have the same name, chain and hints.
    func sameClass(_ a: TapeNode, _ b: TapeNode) -> Bool {
        old.classes[a.classIndex].isExactly(new.classes[b.classIndex])
    }

    /// Whether the members of two element nodes are the same multiset (a set's, or the same
    /// children in another order).
    func sameMembers(_ a: TapeNode, _ b: TapeNode) -> Bool {
        a.memberCount == b.memberCount && numbers.sortedMembers(of: a, on: .old) == numbers.sortedMembers(of: b, on: .new)
    }

    // MARK: Hashing

    /// Equal values hash alike on any tape. Two levels deep: a container's kind, size and the
    /// shallow hashes of its members (all of them, whatever their order, for unordered ones; the
    /// first sixteen of ordered ones). Hashing costs one pass over a container's own members,
    /// never its whole subtree, which hostile sharing makes exponential; containers that differ
    /// inside still hash apart, so that a set of them is not compared pair by pair.
    static func hash(_ node: TapeNode, in view: TapeView) -> Int {
        var hasher = Hasher()
        shallowHash(node, in: view, into: &hasher)
        switch node.kind.layout {
        case .elements, .url:
            for position in 0..<min(node.memberCount, 16) { shallowHash(view.member(position, of: node), in: view, into: &hasher) }
        case .entries, .fields, .object:
            hasher.combine((0..<node.memberCount).reduce(0) { sum, position in
                var entry = Hasher()
                shallowHash(view.member(position, of: node), in: view, into: &entry)
                shallowHash(view.value(position, of: node), in: view, into: &entry)
                return sum &+ entry.finalize()
            })
        case .scalar, .bytes:
            break
        }
        return hasher.finalize()
    }

    /// A scalar's whole value, a string's bytes; a container's kind and size (an object's class
    /// name too), data's length.
    private static func shallowHash(_ node: TapeNode, in view: TapeView, into hasher: inout Hasher) {
        hasher.combine(node.kind.rawValue)
        hasher.combine(node.count)
        switch node.kind.layout {
        case .scalar:
            // An integer by its value, which a wide node may hold as well as a narrow one.
            if case .integer(let integer)? = view.scalar(node) { hasher.combine(integer) } else { hasher.combine(node.payload) }
        case .bytes:
            if node.kind != .data { hasher.combine(bytes: view.bytes(of: node)) }
        case .object:
            hasher.combine(view.classes[node.classIndex].name)
        case .elements, .entries, .fields, .url:
            break
        }
    }
}

/// Numbers the values of two tapes so that two values, of one tape or of both, get one number
/// exactly when they are equal (see `TapePair`): each distinct leaf, class and container is
/// given the next number the first time it is met, and a container is known by its kind, size,
/// class and its members' numbers (in order for elements; as a sorted list of key and value
/// pairs for entries and fields, which makes their order not count and a repeated entry count
/// twice). Equal numbers mean equal values, however many values the tapes hold. Comparing a
/// value with many others, or with a value it contains, walks it once.
///
/// The members are numbered before their container in a walk of the tape (see `TapeWalker`),
/// and a container is numbered once for its block: a block shared by many containers, which a
/// hostile archive repeats to expand, is walked the first time only.
final class ValueNumbers {
    enum Side: Int { case old, new }

    private var walker = TapeWalker()
    private var numbering: Numbering

    init(old: TapeView, new: TapeView) {
        numbering = Numbering(views: [old, new])
    }

    var containersWalked: Int { numbering.containersWalked }

    /// The number of `node` of the tape on `side`.
    func number(_ node: TapeNode, on side: Side) -> Int {
        if let known = numbering.known(node, on: side) { return known }
        numbering.side = side
        walker.walk(node, in: numbering.views[side.rawValue], &numbering)
        return numbering.takeResult()
    }

    /// The numbers of the entries at `positions` of a dictionary, archive or object node, as
    /// numbering a container of just them would sort them.
    func entries<Positions: Collection<Int>>(of node: TapeNode, _ positions: Positions, on side: Side) -> [Int] {
        let view = numbering.views[side.rawValue]
        var numbers: [Int] = []
        numbers.reserveCapacity(2 * positions.count)
        for position in positions {
            numbers.append(number(view.member(position, of: node), on: side))
            numbers.append(number(view.value(position, of: node), on: side))
        }
        return Numbering.sortedEntries(numbers)
    }

    /// The numbers of an element node's members, sorted.
    func sortedMembers(of node: TapeNode, on side: Side) -> [Int] {
        let view = numbering.views[side.rawValue]
        return (0..<node.memberCount).map { number(view.member($0, of: node), on: side) }.sorted()
    }
}

/// The visitor that numbers values for `ValueNumbers`: a leaf or a container already numbered
/// is numbered on `enter`; another container on `exit`, from its members' numbers, which the
/// walk left on `numbers` above its mark.
private struct Numbering: TapeVisitor {
    let views: [TapeView]
    var side = ValueNumbers.Side.old
    /// The numbers of the members met so far of every container being walked, and the start's.
    private var numbers: [Int] = []
    private var next = 0
    private(set) var containersWalked = 0
    private var scalars: [ScalarKey: Int] = [:]
    private var byteStrings: [BytesKey: Int] = [:]
    private var classNumbers: [ClassKey: Int] = [:]
    private var containers: [ContainerKey: Int] = [:]
    /// Each side's containers by block, and classes by index.
    private var blocks: [[BlockKey: Int]] = [[:], [:]]
    private var classes: [[Int: Int]] = [[:], [:]]

    init(views: [TapeView]) {
        self.views = views
    }

    /// Entries' key and value numbers, one after the other, in the order of their keys' numbers,
    /// then their values': the same list whatever order the entries come in.
    static func sortedEntries(_ numbers: [Int]) -> [Int] {
        var entries = stride(from: 0, to: numbers.count, by: 2).map { (key: numbers[$0], value: numbers[$0 + 1]) }
        entries.sort { $0 < $1 }
        var sorted: [Int] = []
        sorted.reserveCapacity(numbers.count)
        for entry in entries {
            sorted.append(entry.key)
            sorted.append(entry.value)
        }
        return sorted
    }

    mutating func takeResult() -> Int {
        numbers.removeLast()
    }

    /// The number of a leaf, or of a container numbered before; nil for a container to walk.
    mutating func known(_ node: TapeNode, on side: ValueNumbers.Side) -> Int? {
        let view = views[side.rawValue]
        switch node.kind.layout {
        case .scalar:
            let isWide = node.flags.contains(.wide)
            return Self.give(ScalarKey(kind: node.kind.rawValue, count: node.count, isWide: isWide,
                                  value: isWide ? view.wideIntegers[node.offset] : Int128(node.payload)), in: &scalars, next: &next)
        case .bytes:
            return Self.give(BytesKey(kind: node.kind.rawValue, bytes: view.bytes(of: node), error: view.dataError(node)), in: &byteStrings, next: &next)
        case .elements, .url, .entries, .fields, .object:
            return blocks[side.rawValue][BlockKey(node)]
        }
    }

    mutating func enter(_ node: TapeNode, at place: TapePlace, walker: inout TapeWalker) -> TapeDescent {
        if let number = known(node, on: side) {
            numbers.append(number)
            return .none
        }
        return .all(mark: numbers.count)
    }

    mutating func exit(_ node: TapeNode, at place: TapePlace, mark: Int) {
        var members = Array(numbers[mark...])
        numbers.removeSubrange(mark...)
        var classNumber = -1
        switch node.kind.layout {
        case .entries, .fields, .object:
            members = Self.sortedEntries(members)
            if node.kind.layout == .object { classNumber = number(ofClass: node.classIndex) }
        case .elements, .url, .scalar, .bytes:
            break
        }
        let number = Self.give(ContainerKey(kind: node.kind.rawValue, count: node.count, classNumber: classNumber, members: members), in: &containers, next: &next)
        blocks[side.rawValue][BlockKey(node)] = number
        containersWalked += 1
        numbers.append(number)
    }

    private mutating func number(ofClass index: Int) -> Int {
        if let known = classes[side.rawValue][index] { return known }
        let found = views[side.rawValue].classes[index]
        let number = Self.give(ClassKey(name: ExactText(found.name), chain: found.chain.map(ExactText.init), hints: found.hints?.map(ExactText.init)), in: &classNumbers, next: &next)
        classes[side.rawValue][index] = number
        return number
    }

    /// The number of `key` in `table`, given now (`next`) if it has none.
    private static func give<Key: Hashable>(_ key: Key, in table: inout [Key: Int], next: inout Int) -> Int {
        if let number = table[key] { return number }
        defer { next += 1 }
        table[key] = next
        return next
    }

    private struct ScalarKey: Hashable {
        let kind: UInt8
        let count: UInt32
        let isWide: Bool
        /// A wide integer's value; the bits of another.
        let value: Int128
    }

    /// A string's, data's, UUID's or reference's bytes where a view holds them (valid while the
    /// views are), and for data that announced a property list, why it could not be read.
    private struct BytesKey: Hashable {
        let kind: UInt8
        let bytes: UnsafeRawBufferPointer
        let error: String?

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.kind == rhs.kind && lhs.bytes.hasSameBytes(as: rhs.bytes) && lhs.error.isExactly(rhs.error)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(kind)
            hasher.combine(bytes: bytes)
        }
    }

    private struct ClassKey: Hashable {
        let name: ExactText
        let chain: [ExactText]
        let hints: [ExactText]?
    }

    private struct ContainerKey: Hashable {
        let kind: UInt8
        let count: UInt32
        let classNumber: Int
        let members: [Int]
    }

    /// A container's block on its tape, which every copy of a shared container shares (an
    /// object's payload holds its class too).
    private struct BlockKey: Hashable {
        let payload: UInt64
        let shape: UInt64

        init(_ node: TapeNode) {
            (payload, shape) = (node.payload, UInt64(node.kind.rawValue) << 32 | UInt64(node.count))
        }
    }
}
