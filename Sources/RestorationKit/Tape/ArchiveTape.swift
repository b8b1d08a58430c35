/// A decoded file as one flat array of `TapeNode`s (the decoder's output, which every reader
/// reads), with its input, the text it converted, its classes and its rarer side values.
///
/// Built once by `KeyedArchiveDecoder`, then read-only and shared across threads. See
/// docs/design/tape.md for the layout and why it is flat.
final class ArchiveTape: Sendable {
    let nodes: [TapeNode]
    /// The input, which strings and data flagged `inSource` point into.
    let source: ArraySlice<UInt8>
    /// The UTF-8 of strings that are not UTF-8 in the input (and of every string and data value
    /// of a property list read from XML).
    let text: [UInt8]
    /// Integers that do not fit 64 bits.
    let wideIntegers: [Int128]
    let classes: [TapeClass]
    /// Why data that announced a property list could not be read as one, by where its bytes are.
    let dataErrors: [TapeBytes.Location: String]
    /// The file's archive, or for a plain property list its root value.
    let root: TapeNode
    /// Whether the file is a plain property list (no `$archiver`), whose root value `root` is.
    let isPlainPropertyList: Bool
    /// The fixed keys (`$top` …) the file's root dictionary holds more than once, in the order
    /// `$archiver`, `$top`, `$objects`, `$version` (as `KeyedArchive.rootKeyRepeats`): the first
    /// of each is read.
    let repeatedRootKeys: [(key: String, count: Int)]

    init(_ builder: TapeBuilder, root: TapeNode, isPlainPropertyList: Bool = false, repeatedRootKeys: [(key: String, count: Int)] = []) {
        (self.isPlainPropertyList, self.repeatedRootKeys, self.root) = (isPlainPropertyList, repeatedRootKeys, root)
        (nodes, source, text) = (builder.nodes, builder.source, builder.text)
        (wideIntegers, classes, dataErrors) = (builder.wideIntegers, builder.classes, builder.dataErrors)
    }

    /// The same tape with another root, none of its storage copied: a plain property list's
    /// dictionary of string keys shown as an archive's `$top` (its block is laid out as one).
    init(showing tape: ArchiveTape, top dictionary: TapeNode) {
        precondition(dictionary.kind == .dictionary, "an archive's top is laid out as a dictionary")
        (isPlainPropertyList, repeatedRootKeys) = (false, [])
        root = TapeNode(.archive, count: dictionary.memberCount, payload: UInt64(dictionary.first))
        (nodes, source, text) = (tape.nodes, tape.source, tape.text)
        (wideIntegers, classes, dataErrors) = (tape.wideIntegers, tape.classes, tape.dataErrors)
    }

    /// The same tape with an archive added as its root, whose keys are `entries`' labels (made
    /// for them, not in the file) and whose values are nodes of the tape: a plain list shown as
    /// an archive whose `$top` the file does not hold. Its node and text arrays are copied
    /// whole, once, and extended by the labels and their block; no value is walked.
    convenience init(showing tape: ArchiveTape, labelled entries: [(label: String, value: TapeNode)]) {
        var builder = TapeBuilder(extending: tape)
        let mark = builder.stack.count
        for (label, value) in entries {
            let key = builder.text(.string, label)
            builder.stack.append(key)
            builder.stack.append(value)
        }
        let root = builder.popEntries(as: .archive, from: mark)
        self.init(builder, root: root)
    }

    /// The bytes of a string, data, UUID or reference node.
    func withBytes<Result>(of node: TapeNode, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        TapeBytes.with(node, source: source, text: text, body)
    }
}

/// Where a node's bytes are: in the input or in the tape's text.
enum TapeBytes {
    struct Location: Hashable, Sendable {
        var inSource: Bool
        var offset: UInt64

        init(_ node: TapeNode) {
            inSource = node.flags.contains(.inSource)
            offset = node.payload
        }
    }

    static func with<Result>(_ node: TapeNode, source: ArraySlice<UInt8>, text: [UInt8], _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let count = node.memberCount
        if node.flags.contains(.inSource) {
            let start = node.offset - source.startIndex
            return source.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<(start + count)])) }
        }
        return text.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[node.offset..<(node.offset + count)])) }
    }
}

/// An archived object's class: its name, its chain (the class first) and, when the archive
/// has them, its class hints.
struct TapeClass: Hashable, Sendable {
    var name: String
    var chain: [String]
    var hints: [String]?

    /// The same name, chain and hints, byte for byte (see `ExactText`).
    func isExactly(_ other: TapeClass) -> Bool {
        name.isExactly(other.name) && chain.isExactly(other.chain) && hints.isExactly(other.hints)
    }
}

/// What the decoder writes a tape into. Containers are built on `stack`, their children pushed
/// one by one while they are decoded, then moved to `nodes` as one block when complete: a
/// container's children are contiguous, and only values actually decoded take memory.
struct TapeBuilder {
    var nodes: [TapeNode] = []
    var stack: [TapeNode] = []
    /// See `ArchiveTape`.
    var source: ArraySlice<UInt8> = []
    var text: [UInt8] = []
    var wideIntegers: [Int128] = []
    var classes: [TapeClass] = []
    var dataErrors: [TapeBytes.Location: String] = [:]
    private var classIndex: [TapeClass: Int] = [:]

    init() {}

    /// A builder that appends to what `tape` holds.
    init(extending tape: ArchiveTape) {
        (nodes, source, text) = (tape.nodes, tape.source, tape.text)
        (wideIntegers, classes, dataErrors) = (tape.wideIntegers, tape.classes, tape.dataErrors)
        for (index, tapeClass) in classes.enumerated() { classIndex[tapeClass] = index }
    }

    /// Moves the children pushed since `mark` to `nodes`; returns where the block starts.
    mutating func popBlock(from mark: Int) -> Int {
        let first = nodes.count
        nodes.append(contentsOf: stack[mark...])
        stack.removeSubrange(mark...)
        return first
    }

    /// Moves the key/value pairs pushed since `mark` to `nodes` as a block of the keys, then
    /// the values; returns where the block starts.
    mutating func popPairs(from mark: Int) -> Int {
        let first = nodes.count
        var position = mark
        while position < stack.count {
            nodes.append(stack[position])
            position += 2
        }
        position = mark + 1
        while position < stack.count {
            nodes.append(stack[position])
            position += 2
        }
        stack.removeSubrange(mark...)
        return first
    }

    /// A dictionary or archive node (`kind`) holding the key/value pairs pushed
    /// since `mark`, moved to `nodes` (see `popPairs`).
    mutating func popEntries(as kind: TapeKind, from mark: Int) -> TapeNode {
        let count = (stack.count - mark) / 2
        return TapeNode(kind, count: count, payload: UInt64(popPairs(from: mark)))
    }

    /// A node of `kind` for bytes appended to `text`.
    mutating func appendText(_ kind: TapeKind, _ bytes: UnsafeRawBufferPointer) -> TapeNode {
        let offset = text.count
        text.appendBytes(bytes)
        return TapeNode(kind, count: bytes.count, payload: UInt64(offset))
    }

    mutating func string(_ string: String) -> TapeNode {
        var string = string
        return string.withUTF8 { appendText(.string, UnsafeRawBufferPointer($0)) }
    }

    mutating func integer(_ value: Int128) -> TapeNode {
        if let small = Int64(exactly: value) {
            return TapeNode(.integer, payload: UInt64(bitPattern: small))
        }
        wideIntegers.append(value)
        return TapeNode(.integer, flags: .wide, payload: UInt64(wideIntegers.count - 1))
    }

    /// Data that could not be read as the property list it announced, with why.
    mutating func failedArchive(_ data: TapeNode, reason: String) -> TapeNode {
        var node = data
        node.flags.insert(.archiveError)
        dataErrors[TapeBytes.Location(node)] = reason
        return node
    }

    /// The class's index in `classes`, each distinct class stored once per tape.
    mutating func intern(_ tapeClass: TapeClass) -> Int {
        if let known = classIndex[tapeClass] { return known }
        classes.append(tapeClass)
        classIndex[tapeClass] = classes.count - 1
        return classes.count - 1
    }

    func withBytes<Result>(of node: TapeNode, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        TapeBytes.with(node, source: source, text: text, body)
    }

    /// Whether a string node's bytes are `expected`'s.
    func textEquals(_ node: TapeNode, _ expected: StaticString) -> Bool {
        node.kind == .string && node.memberCount == expected.utf8CodeUnitCount && withBytes(of: node) { $0.hasSameBytes(as: expected.bytes) }
    }

    func string(of node: TapeNode) -> String {
        withBytes(of: node) { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends another builder's nodes (nested archives decoded on another thread, with the
    /// same input); the relocation says where its nodes are now.
    mutating func absorb(_ other: TapeBuilder) -> Relocation {
        let relocation = joinSideValues(of: other, nodesAt: nodes.count)
        for node in other.nodes { nodes.append(relocation.relocate(node)) }
        return relocation
    }

    /// Appends another builder's text, wide integers, classes and data errors, for its nodes to
    /// join at `nodesAt`; returns how they move.
    private mutating func joinSideValues(of other: TapeBuilder, nodesAt position: Int) -> Relocation {
        var relocation = Relocation(nodes: UInt64(position), text: UInt64(text.count), wide: UInt64(wideIntegers.count), classes: [])
        for tapeClass in other.classes { relocation.classes.append(intern(tapeClass)) }
        for (location, reason) in other.dataErrors {
            var moved = location
            if !moved.inSource { moved.offset += relocation.text }
            dataErrors[moved] = reason
        }
        text.append(contentsOf: other.text)
        wideIntegers.append(contentsOf: other.wideIntegers)
        return relocation
    }

    /// Appends other builders' nodes (nested archives decoded on other threads, with the same
    /// input), each builder's where the one before ends, with room for `reserving` more nodes;
    /// the nodes are copied and relocated on up to `threads` threads. The relocations say where
    /// each builder's nodes are now. Each builder is emptied once copied.
    mutating func absorb(all others: inout [TapeBuilder], reserving extra: Int) -> [Relocation] {
        var relocations: [Relocation] = []
        var nodeCount = nodes.count
        for other in others {
            relocations.append(joinSideValues(of: other, nodesAt: nodeCount))
            nodeCount += other.nodes.count
        }
        let kept = nodes
        nodes = [TapeNode](unsafeUninitializedCapacity: nodeCount + extra) { buffer, initialized in
            let start = buffer.baseAddress!
            // Tens of megabytes written at once: in large pages (see `LargePages`).
            LargePages.advise(UnsafeMutableRawPointer(start), count: buffer.count * MemoryLayout<TapeNode>.stride)
            kept.withUnsafeBufferPointer { start.initialize(from: $0.baseAddress!, count: $0.count) }
            others.withUnsafeMutableBufferPointer { others in
                Parallel.forEach(others.count) { index in
                    let relocation = relocations[index]
                    others[index].nodes.withUnsafeBufferPointer { from in
                        let to = start + Int(relocation.nodes)
                        for position in from.indices { (to + position).initialize(to: relocation.relocate(from[position])) }
                    }
                    others[index] = TapeBuilder()
                }
            }
            initialized = nodeCount
        }
        return relocations
    }

    /// Where an absorbed builder's nodes, text, wide integers and classes went.
    struct Relocation {
        var nodes: UInt64
        var text: UInt64
        var wide: UInt64
        var classes: [Int]

        func relocate(_ node: TapeNode) -> TapeNode {
            var node = node
            switch node.kind.layout {
            case .bytes: if !node.flags.contains(.inSource) { node.payload += text }
            case .scalar: if node.flags.contains(.wide) { node.payload += wide }
            case .elements, .entries, .fields, .url: node.payload += nodes
            case .object: node.payload = UInt64(classes[node.classIndex]) << 32 | (UInt64(node.first) + nodes)
            }
            return node
        }
    }
}
