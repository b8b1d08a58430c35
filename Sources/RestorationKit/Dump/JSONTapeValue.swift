/// The `dump --json` encoding of archive values (schema version 1; see docs/json.md and the man
/// page), written straight from a tape's nodes into a text writer: the decoder's tape, or one
/// that values were put on (`TapeBuilder.append`). The one place the encoding is written.
///
/// Plain JSON where JSON can say it exactly; otherwise an object tagged by a key that begins
/// with `$`. Archive keys never begin with `$`, so an object's field that does is written with
/// one more `$` in front, and a dictionary with such a key or with keys that are not strings is
/// written as `{"$dictionary": [[key, value], …]}`.
///
/// Valid only where its view is (see `ArchiveTape.withView(_:)`).
struct JSONTapeValue {
    let view: TapeView

    private func bytes(of node: TapeNode) -> UnsafeRawBufferPointer {
        view.bytes(of: node)
    }

    /// A member's key from a string node.
    private func memberKey(_ node: TapeNode, escapingDollar: Bool = false) -> MemberKey {
        MemberKey(bytes(of: node), escapingDollar: escapingDollar, plain: node.flags.contains(.plain))
    }

    /// `node` and what it holds, with a stack of its own (see `Walk`): a value nests as deeply
    /// as its tape does, which sharing can make deeper than the limits on reading.
    func write(_ node: TapeNode, to writer: inout JSONTextWriter) {
        walk(&writer) { walk, writer in open(node, in: &walk, to: &writer) }
    }

    /// A value that holds no other value (a special's members are numbers or strings).
    private func writeLeaf(_ node: TapeNode, to writer: inout JSONTextWriter) {
        switch node.kind {
        case .string where node.flags.contains(.plain):
            writer.writePlainString(bytes(of: node))
        case .string:
            writer.writeString(utf8: bytes(of: node))
        case .reference:
            writeTagged("$ref", to: &writer) { $0.writeString(utf8: bytes(of: node)) }
        case .data:
            let error = view.dataError(node)
            let keys: [StaticString] = error == nil ? ["$data", "length"] : ["$data", "archiveError", "length"]
            writeMembers(keys.count, to: &writer, key: { MemberKey(keys[$0]) }) { writer, index in
                switch index {
                case 0: writer.writeBase64(bytes(of: node))
                case 1 where error != nil: writer.writeString(error!)
                default: writer.writeInteger(Int64(node.memberCount))
                }
            }
        case .uuid:
            writeTagged("$uuid", to: &writer) { $0.writeString(ByteFormatting.uuidString(Array(bytes(of: node)))) }
        case .special:
            writeStructure(node, to: &writer)
        case .null, .boolean, .integer, .real, .float, .date, .cycle:
            writeScalar(view.scalar(node)!, to: &writer)
        case .array, .set, .orderedSet, .dictionary, .object, .url, .archive:
            preconditionFailure("a container is opened (see `open`), not written whole")
        }
    }

    // MARK: Containers

    /// The containers being written, innermost last, and their members' order: kept by the
    /// writer between values (see `JSONTextWriter.tapeWalk`), so that each does not allocate
    /// its own.
    struct Walk {
        fileprivate var frames: [Frame] = []
        /// The members' order of every open object, one after another (see `Frame.order`).
        fileprivate var orders: [Int] = []
        /// The positions of the entries of every open dictionary that shows only some, one after
        /// another (see `Content.entries`): kept here so that a frame holds no reference, and
        /// the walk's visit of a frame copies it without counting references.
        fileprivate var positions: [Int] = []
    }

    /// A container open on the output; its members are written as the walk comes to them.
    fileprivate struct Frame {
        let content: Content
        let count: Int
        var next = 0
        /// An object's: where the order of its members starts in `Walk.orders`. An array's
        /// members are written in order.
        let order: Int?
        /// Whether the container is the value of a one-member object, `{"$set": […]}`, closed
        /// with it.
        let tagged: Bool
    }

    /// What a container holds, and so where its members' keys and values are.
    fileprivate enum Content {
        /// An array's, a set's or an ordered set's elements, as an array.
        case elements(TapeNode)
        /// An archive's `$top` keys and values, as an object.
        case fields(TapeNode)
        /// An object's class, chain, hints and fields, as an object.
        case object(TapeNode, classKeys: Int)
        case url(TapeNode)
        /// The entries of a dictionary at the `positions` of `Walk.positions` (nil: all of them),
        /// as an object.
        case entries(TapeNode, positions: Range<Int>?)
        /// The same entries as an array of `[key, value]` pairs.
        case pairs(TapeNode, positions: Range<Int>?)
        /// One entry as `[key, value]`.
        case pair(TapeNode, position: Int)

        /// The range of `Walk.positions` a dictionary's entries are at, if it shows only some.
        var positions: Range<Int>? {
            switch self {
            case .entries(_, let positions), .pairs(_, let positions): positions
            default: nil
            }
        }

        /// The position in the dictionary of entry `index`: through `range` of `positions`, or
        /// `index` itself when every entry is shown.
        static func position(_ index: Int, _ range: Range<Int>?, _ positions: [Int]) -> Int {
            range.map { positions[$0.lowerBound + index] } ?? index
        }
    }

    private static let objectKeys: [StaticString] = ["$class", "$classes", "$classhints"]
    private static let urlKeys: [StaticString] = ["$url", "base"]

    /// Runs `start`, which opens a container, then writes the members of the open containers,
    /// depth first, closing each when its members are written (or the writer is full).
    private func walk(_ writer: inout JSONTextWriter, _ start: (inout Walk, inout JSONTextWriter) -> Void) {
        // Swapped, not copied: a value is often written by a walk of its own.
        var walk = Walk()
        swap(&walk, &writer.tapeWalk)
        start(&walk, &writer)
        while let frame = walk.frames.last {
            guard frame.next < frame.count, !writer.isFull else {
                walk.frames.removeLast()
                if let order = frame.order { walk.orders.removeSubrange(order...) }
                if let positions = frame.content.positions { walk.positions.removeSubrange(positions.lowerBound...) }
                writer.closeContainer(frame.order == nil ? UInt8(ascii: "]") : UInt8(ascii: "}"))
                if frame.tagged { writer.closeContainer(UInt8(ascii: "}")) }
                continue
            }
            walk.frames[walk.frames.count - 1].next += 1
            var index = frame.order.map { walk.orders[$0 + frame.next] } ?? frame.next
            if let positions = frame.content.positions { index = walk.positions[positions.lowerBound + index] }
            if frame.order == nil {
                writer.startMember(first: frame.next == 0)
            } else {
                writer.writeKey(key(index, of: frame.content), first: frame.next == 0)
            }
            writeMember(index, of: frame.content, in: &walk, to: &writer)
        }
        walk.orders.removeAll(keepingCapacity: true)
        swap(&walk, &writer.tapeWalk)
    }

    /// Writes `node` if it holds no other value; otherwise opens it.
    private func open(_ node: TapeNode, in walk: inout Walk, to writer: inout JSONTextWriter) {
        switch node.kind {
        case .array: open(.elements(node), count: node.memberCount, in: &walk, to: &writer)
        case .set: open(.elements(node), count: node.memberCount, tag: "$set", in: &walk, to: &writer)
        case .orderedSet: open(.elements(node), count: node.memberCount, tag: "$orderedSet", in: &walk, to: &writer)
        case .dictionary: openDictionary(node, in: &walk, to: &writer)
        case .archive: open(.fields(node), count: node.memberCount, keyed: true, tag: "$archive", in: &walk, to: &writer)
        case .url: open(.url(node), count: 2, keyed: true, in: &walk, to: &writer)
        case .object:
            let classKeys = view.classes[node.classIndex].hints == nil ? 2 : 3
            open(.object(node, classKeys: classKeys), count: classKeys + node.memberCount, keyed: true, in: &walk, to: &writer)
        case .string, .data, .uuid, .reference, .special, .null, .boolean, .integer, .real, .float, .date, .cycle:
            writeLeaf(node, to: &writer)
        }
    }

    /// Opens a container of `count` members, inside `{"tag": …}` when there is a tag; an
    /// object's members in the order of their keys' bytes (see `order(of:count:in:)`).
    private func open(
        _ content: Content, count: Int, keyed: Bool = false, tag: StaticString? = nil, in walk: inout Walk, to writer: inout JSONTextWriter
    ) {
        push(content, count: count, order: keyed ? order(of: content, count: count, in: &walk) : nil, tag: tag, in: &walk, to: &writer)
    }

    private func push(
        _ content: Content, count: Int, order: Int?, tag: StaticString? = nil, in walk: inout Walk, to writer: inout JSONTextWriter
    ) {
        if let tag {
            writer.openContainer(UInt8(ascii: "{"))
            writer.writeKey(MemberKey(tag), first: true)
        }
        if count == 0 {
            writer.append(order == nil ? "[]" : "{}")
            if let order { walk.orders.removeSubrange(order...) }
            if let positions = content.positions { walk.positions.removeSubrange(positions.lowerBound...) }
            if tag != nil { writer.closeContainer(UInt8(ascii: "}")) }
            return
        }
        writer.openContainer(order == nil ? UInt8(ascii: "[") : UInt8(ascii: "{"))
        walk.frames.append(Frame(content: content, count: count, order: order, tagged: tag != nil))
    }

    /// Appends to `walk.orders` the indices of `content`'s keys in the order of their bytes,
    /// equal keys in their order, as `JSONTextWriter.writeObject` orders them; returns where
    /// they start.
    private func order(of content: Content, count: Int, in walk: inout Walk) -> Int {
        let start = walk.orders.count
        walk.orders.append(contentsOf: repeatElement(0, count: count))
        withUnsafeTemporaryAllocation(of: MemberKey.self, capacity: count) { keys in
            for index in 0..<count {
                (keys.baseAddress! + index).initialize(to: key(Content.position(index, content.positions, walk.positions), of: content))
            }
            walk.orders.withUnsafeMutableBufferPointer { orders in
                stableOrder(into: UnsafeMutableBufferPointer(rebasing: orders[start...])) { keys[$0].compare(keys[$1]) }
            }
        }
        return start
    }

    /// Opens the entries of `dictionary` at `positions` of `walk.positions` (nil: all of them),
    /// which the container's frame takes over: an object when every key is a string, none begins
    /// with `$` and no two are the same; otherwise `{"$dictionary": [[key, value], …]}` in stored
    /// order.
    private func openDictionary(_ dictionary: TapeNode, positions: Range<Int>? = nil, in walk: inout Walk, to writer: inout JSONTextWriter) {
        let count = positions?.count ?? dictionary.memberCount
        let plain = (0..<count).allSatisfy { index in
            let key = view.member(Content.position(index, positions, walk.positions), of: dictionary)
            return key.kind == .string && bytes(of: key).first != UInt8(ascii: "$")
        }
        if plain {
            let content = Content.entries(dictionary, positions: positions)
            let order = order(of: content, count: count, in: &walk)
            let sorted = walk.orders[order...]
            // Sorted, two keys with the same bytes are neighbours.
            let shown = walk.positions
            func member(_ index: Int) -> Int { Content.position(index, positions, shown) }
            if !sorted.indices.dropFirst().contains(where: { key(member(sorted[$0 - 1]), of: content).compare(key(member(sorted[$0]), of: content)) == 0 }) {
                return push(content, count: count, order: order, in: &walk, to: &writer)
            }
            walk.orders.removeSubrange(order...)
        }
        open(.pairs(dictionary, positions: positions), count: count, tag: "$dictionary", in: &walk, to: &writer)
    }

    /// The key of `content`'s member `index` (of a dictionary's entries, the entry's position in
    /// the dictionary: see `Content.entries`).
    private func key(_ index: Int, of content: Content) -> MemberKey {
        switch content {
        case .fields(let archive):
            return memberKey(view.member(index, of: archive))
        case .object(let node, let classKeys):
            return index < classKeys ? MemberKey(Self.objectKeys[index]) : memberKey(view.member(index - classKeys, of: node), escapingDollar: true)
        case .url:
            return MemberKey(Self.urlKeys[index])
        case .entries(let dictionary, _):
            return memberKey(view.member(index, of: dictionary))
        case .elements, .pairs, .pair:
            preconditionFailure("an array's members have no keys")
        }
    }

    /// Writes `content`'s member `index` (of a dictionary's entries, the entry's position in the
    /// dictionary), or opens it.
    private func writeMember(_ index: Int, of content: Content, in walk: inout Walk, to writer: inout JSONTextWriter) {
        switch content {
        case .elements(let node), .url(let node):
            open(view.member(index, of: node), in: &walk, to: &writer)
        case .fields(let archive):
            open(view.value(index, of: archive), in: &walk, to: &writer)
        case .object(let node, let classKeys):
            switch index {
            case 0: writer.writeString(view.classes[node.classIndex].name)
            case 1: writeStrings(view.classes[node.classIndex].chain, to: &writer)
            case 2 where classKeys == 3: writeStrings(view.classes[node.classIndex].hints!, to: &writer)
            default: open(view.value(index - classKeys, of: node), in: &walk, to: &writer)
            }
        case .entries(let dictionary, _):
            open(view.value(index, of: dictionary), in: &walk, to: &writer)
        case .pairs(let dictionary, _):
            open(.pair(dictionary, position: index), count: 2, in: &walk, to: &writer)
        case .pair(let dictionary, let position):
            let node = index == 0 ? view.member(position, of: dictionary) : view.value(position, of: dictionary)
            open(node, in: &walk, to: &writer)
        }
    }

    /// An NSValue's structure as numbers: `{"$range": {"length": 5, "location": 3}}`, `{"$rect":
    /// {"height": 480, "width": 320, "x": 0, "y": 0}}`. A point's, size's or rect's numbers are
    /// those its archived string spells, with the string as `text` when it is not the spelling
    /// Apple's Foundation gives them, and the string alone when it spells no numbers (see
    /// `GeometryText`): nothing archived is lost.
    private func writeStructure(_ node: TapeNode, to writer: inout JSONTextWriter) {
        let structure = FoundationValues.specialStructure(of: node, in: view)
        writeTagged(structure.tag, to: &writer) { writer in
            guard structure.isGeometry else {
                return writeMembers(structure.members.count, to: &writer, key: { MemberKey(structure.members[$0]) }) { writer, index in
                    writeLeaf(view.value(index + 1, of: node), to: &writer)
                }
            }
            let textNode = view.value(1, of: node)
            let geometry = GeometryText(view.string(of: textNode))
            guard let numbers = geometry.numbers else { return writeLeaf(textNode, to: &writer) }
            let count = numbers.count + (geometry.isCanonical ? 0 : 1)
            writeMembers(count, to: &writer, key: { $0 < numbers.count ? MemberKey(structure.members[$0]) : MemberKey("text") }) { writer, index in
                if index < numbers.count {
                    writeScalar(.real(numbers[index]), to: &writer)
                } else {
                    writeLeaf(textNode, to: &writer)
                }
            }
        }
    }

    /// Integers JSON readers hold exactly as doubles: |n| ≤ 2^53.
    static let exactIntegerRange: ClosedRange<Int128> = -(1 << 53)...(1 << 53)

    /// A value without bytes or members (see `TapeNode.scalar(wide:)`).
    private func writeScalar(_ value: TapeScalar, to writer: inout JSONTextWriter) {
        switch value {
        case .boolean(let boolean):
            writer.writeBool(boolean)
        case .integer(let integer) where Self.exactIntegerRange.contains(integer):
            writer.writeInteger(Int64(integer))
        case .integer(let integer):
            writeTagged("$integer", to: &writer) { $0.writeString(String(integer)) }
        case .float(let float) where float.isFinite:
            // The float's own shortest digits: what was written, not its widening.
            writer.writeNumber(float.description)
        case .float(let float):
            writeScalar(.real(Double(float)), to: &writer)
        case .real(let real) where real.isFinite:
            writer.writeNumber(real.description)
        case .real(let real):
            writeTagged("$real", to: &writer) { $0.writeString(real.isNaN ? "nan" : (real < 0 ? "-inf" : "inf")) }
        case .date(let seconds):
            if let date = ReferenceDate.ISO8601Parts(seconds) {
                writeTagged("$date", to: &writer) { $0.writeDate(date) }
            } else {
                let keys: [StaticString] = ["$date", "referenceSeconds"]
                writeMembers(2, to: &writer, key: { MemberKey(keys[$0]) }) { writer, index in
                    if index == 0 { writer.writeNull() } else { writeScalar(.real(seconds), to: &writer) }
                }
            }
        case .cycle(let uid):
            writeTagged("$cycle", to: &writer) { $0.writeNumber(String(uid)) }
        default:
            // `.null`: `TapeNode.scalar(wide:)` gives no other kind.
            writer.writeNull()
        }
    }

    /// A saved object's state, as `writeFields` writes an archive's `$top`.
    func writeState(_ state: TapeObject.State, to writer: inout JSONTextWriter) {
        writeMembers(state.count, to: &writer, key: { index in
            state.entry(index, in: view).key.map { memberKey($0) } ?? MemberKey(RestorationKeys.viewRestorationDataKey)
        }) { writer, index in
            switch state.entry(index, in: view).value {
            case .node(let node): write(node, to: &writer)
            case .entries(let dictionary, let positions): writeDictionary(dictionary, positions: positions, to: &writer)
            }
        }
    }

    /// A saved object's views by path.
    func writeViews(_ views: [(path: TapeNode, archive: TapeNode)], to writer: inout JSONTextWriter) {
        writeMembers(views.count, to: &writer, key: { memberKey(views[$0].path) }) { writer, index in
            writeFields(views[index].archive, to: &writer)
        }
    }

    /// An archive's `$top` keys and values as one object, keys as they are.
    func writeFields(_ archive: TapeNode, to writer: inout JSONTextWriter) {
        walk(&writer) { walk, writer in open(.fields(archive), count: archive.memberCount, keyed: true, in: &walk, to: &writer) }
    }

    /// The entries of `dictionary` at `positions`, as a dictionary of them (see
    /// `openDictionary`).
    func writeDictionary<Positions: RandomAccessCollection<Int>>(_ dictionary: TapeNode, positions: Positions, to writer: inout JSONTextWriter) {
        walk(&writer) { walk, writer in
            let start = walk.positions.count
            walk.positions.append(contentsOf: positions)
            openDictionary(dictionary, positions: start..<walk.positions.count, in: &walk, to: &writer)
        }
    }

    private func writeStrings(_ strings: [String], to writer: inout JSONTextWriter) {
        writer.writeArray(count: strings.count) { writer, index in writer.writeString(strings[index]) }
    }

    private func writeTagged(_ tag: StaticString, to writer: inout JSONTextWriter, _ value: (inout JSONTextWriter) -> Void) {
        writeMembers(1, to: &writer, key: { _ in MemberKey(tag) }) { writer, _ in value(&writer) }
    }

    /// An object of `count` members, written in the order of their keys' bytes (equal keys in
    /// their order), as `JSONTextWriter.writeObject` orders them.
    func writeMembers(_ count: Int, to writer: inout JSONTextWriter, key: (Int) -> MemberKey, _ value: (inout JSONTextWriter, Int) -> Void) {
        withUnsafeTemporaryAllocation(of: MemberKey.self, capacity: count) { keys in
            for index in 0..<count { (keys.baseAddress! + index).initialize(to: key(index)) }
            withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { order in
                stableOrder(into: order) { keys[$0].compare(keys[$1]) }
                writeMembers(keys, order: order, to: &writer, value)
            }
        }
    }

    private func writeMembers<Keys: RandomAccessCollection<MemberKey>, Order: RandomAccessCollection<Int>>(
        _ keys: Keys, order: Order, to writer: inout JSONTextWriter, _ value: (inout JSONTextWriter, Int) -> Void
    ) where Keys.Index == Int, Order.Index == Int {
        guard !keys.isEmpty else { return writer.append("{}") }
        writer.openContainer(UInt8(ascii: "{"))
        for (position, index) in order.enumerated() where !writer.isFull {
            writer.writeKey(keys[index], first: position == 0)
            value(&writer, index)
        }
        writer.closeContainer(UInt8(ascii: "}"))
    }

    /// A member's key: its bytes, and whether a `$` is put in front of them (an object's field
    /// whose name's first byte is `$`, whatever follows it: readers see the byte, not the
    /// `Character`).
    struct MemberKey {
        var bytes: UnsafeRawBufferPointer
        var prefixed = false
        /// Whether the bytes are known to need no escape.
        var plain = false

        init(_ bytes: UnsafeRawBufferPointer, escapingDollar: Bool = false, plain: Bool = false) {
            self.bytes = bytes
            prefixed = escapingDollar && bytes.first == UInt8(ascii: "$")
            self.plain = plain && !prefixed
        }

        /// A key of ours (which needs no escape).
        init(_ tag: StaticString) {
            bytes = tag.bytes
            plain = true
        }

        /// The written forms' bytes compared: negative, zero or positive.
        func compare(_ other: MemberKey) -> Int {
            guard prefixed == other.prefixed else {
                // "$" + a against b: compare b's first byte with "$", then a with the rest of b.
                return prefixed ? -other.compareWithPrefixed(self) : compareWithPrefixed(other)
            }
            return Self.compare(bytes, other.bytes)
        }

        /// Self (not prefixed) against `other`'s written form, "$" + its bytes.
        private func compareWithPrefixed(_ other: MemberKey) -> Int {
            guard let head = bytes.first else { return -1 }
            guard head == UInt8(ascii: "$") else { return Int(head) - Int(UInt8(ascii: "$")) }
            return Self.compare(UnsafeRawBufferPointer(rebasing: bytes.dropFirst()), other.bytes)
        }

        private static func compare(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int {
            for index in 0..<min(lhs.count, rhs.count) where lhs[index] != rhs[index] {
                return Int(lhs[index]) - Int(rhs[index])
            }
            return lhs.count - rhs.count
        }
    }
}

extension JSONTextWriter {
    /// Starts an object member whose key is `key`'s written form.
    mutating func writeKey(_ key: JSONTapeValue.MemberKey, first: Bool) {
        startMember(first: first)
        if key.plain {
            writePlainString(key.bytes)
        } else if key.prefixed {
            output.append(UInt8(ascii: "\""))
            output.append(UInt8(ascii: "$"))
            writeStringContents(utf8: key.bytes)
            output.append(UInt8(ascii: "\""))
        } else {
            writeString(utf8: key.bytes)
        }
        if compact { output.append(UInt8(ascii: ":")) } else { append(": ") }
    }
}
