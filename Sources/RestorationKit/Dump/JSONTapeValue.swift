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
    fileprivate func memberKey(_ node: TapeNode, escapingDollar: Bool = false) -> MemberKey {
        MemberKey(bytes(of: node), escapingDollar: escapingDollar, plain: node.flags.contains(.plain))
    }

    /// `node` and what it holds (see `TapeWalker`): a value nests as deeply as its tape does,
    /// which sharing can make deeper than the limits on reading.
    func write(_ node: TapeNode, to writer: inout JSONTextWriter) {
        switch node.kind {
        case .array, .set, .orderedSet:
            guard let elements = TapeWalker.leafElements(of: node, in: view) else {
                return walk(&writer) { walker, writing in writing.open(node, walker: &walker) }
            }
            // A list of strings or numbers, as most of a saved state's lists are: written
            // without setting up a walk, as the walk would write it.
            let list = { (writer: inout JSONTextWriter) in writer.writeArray(count: elements.count) { writer, index in writeLeaf(elements[index], to: &writer) } }
            switch node.kind {
            case .set: writeTagged("$set", to: &writer, list)
            case .orderedSet: writeTagged("$orderedSet", to: &writer, list)
            default: list(&writer)
            }
        case .dictionary, .archive, .url, .object:
            walk(&writer) { walker, writing in writing.open(node, walker: &walker) }
        case .string, .data, .uuid, .reference, .special, .null, .boolean, .integer, .real, .float, .date, .cycle:
            // Most values are leaves, written without a walk.
            writeLeaf(node, to: &writer)
        }
    }

    /// A value that holds no other value (a special's members are numbers or strings).
    fileprivate func writeLeaf(_ node: TapeNode, to writer: inout JSONTextWriter) {
        switch node.kind {
        case .string where node.flags.contains(.plain):
            writer.writePlainString(bytes(of: node))
        case .string:
            writer.writeString(utf8: bytes(of: node))
        case .reference:
            writeTagged("$ref", to: &writer) { $0.writeString(utf8: bytes(of: node)) }
        case .data:
            // The keys in the order of their bytes, as `writeMembers` would sort them.
            let error = view.dataError(node)
            writer.openContainer(UInt8(ascii: "{"))
            if !writer.isFull {
                writer.writeKey(MemberKey("$data"), first: true)
                writer.writeBase64(bytes(of: node))
            }
            if let error, !writer.isFull {
                writer.writeKey(MemberKey("archiveError"), first: false)
                writer.writeString(error)
            }
            if !writer.isFull {
                writer.writeKey(MemberKey("length"), first: false)
                writer.writeInteger(Int64(node.memberCount))
            }
            writer.closeContainer(UInt8(ascii: "}"))
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

    /// Calls `open`, which writes a value or opens a container, then walks what the container
    /// holds. The walker is kept by the writer between values (see `JSONTextWriter.tapeWalk`).
    private func walk(_ writer: inout JSONTextWriter, _ open: (inout TapeWalker, inout Writing) -> (TapeNode, TapeDescent)?) {
        var walker = TapeWalker()
        swap(&walker, &writer.tapeWalk)
        // The writer's text is its buffer's, shared by the copy the walk writes with.
        var writing = Writing(value: self, writer: writer)
        if let (node, descent) = open(&walker, &writing) {
            walker.walkMembers(of: node, descent, in: view, &writing)
        }
        writer = writing.writer
        swap(&walker, &writer.tapeWalk)
    }

    /// How a container's members are written, kept as its descent's mark.
    fileprivate struct Style {
        enum Members: Int {
            /// Each member a value of an array.
            case elements
            /// An entry's value under its key (an archive's field, a dictionary's key).
            case fields
            /// An object's field under its name, `$` put in front of a name that begins with one;
            /// its class's keys among them.
            case object
            /// `$url`, then `base`.
            case url
            /// Each entry an array of its key and value, in an array.
            case pairs
        }

        var members: Members
        /// Whether the container is the value of a one-member object, `{"$set": […]}`, closed
        /// with it.
        var tagged = false
        /// An object's: whether its class has hints (three class keys, not two), and how many of
        /// its fields are written before the class keys.
        var hasHints = false
        var fieldsBeforeClass = 0

        init(_ members: Members, tagged: Bool = false) {
            self.members = members
            self.tagged = tagged
        }

        init(mark: Int) {
            members = Members(rawValue: mark & 7)!
            tagged = mark & 8 != 0
            hasHints = mark & 16 != 0
            fieldsBeforeClass = mark >> 5
        }

        var mark: Int { members.rawValue | (tagged ? 8 : 0) | (hasHints ? 16 : 0) | fieldsBeforeClass << 5 }
    }

    static let classKeys: [StaticString] = ["$class", "$classes", "$classhints"]

    /// Writes what a walk meets: each member's key (or separator), then the member, or the
    /// opening of a container whose members follow.
    fileprivate struct Writing: TapeVisitor {
        let value: JSONTapeValue
        var writer: JSONTextWriter

        var isFinished: Bool { writer.isFull }

        mutating func enter(_ node: TapeNode, at place: TapePlace, walker: inout TapeWalker) -> TapeDescent {
            let style = Style(mark: place.mark)
            let view = value.view
            switch style.members {
            case .elements:
                writer.startMember(first: place.ordinal == 0)
            case .fields:
                writer.writeKey(value.memberKey(view.member(place.position, of: place.container)), first: place.ordinal == 0)
            case .object:
                let before = style.fieldsBeforeClass
                if place.ordinal == before, before > 0 { writeClassKeys(of: place.container, hints: style.hasHints, first: false) }
                writer.writeKey(value.memberKey(view.member(place.position, of: place.container), escapingDollar: true), first: place.ordinal == 0 && before > 0)
            case .url:
                writer.writeKey(MemberKey(place.role == .relative ? "$url" : "base"), first: place.role == .relative)
            case .pairs:
                if place.role == .key {
                    writer.startMember(first: place.ordinal == 0)
                    writer.openContainer(UInt8(ascii: "["))
                }
                writer.startMember(first: place.role == .key)
            }
            guard let (_, descent) = open(node, walker: &walker) else {
                if style.members == .pairs, place.role == .value { writer.closeContainer(UInt8(ascii: "]")) }
                return .none
            }
            return descent
        }

        mutating func exit(_ node: TapeNode, at place: TapePlace, mark: Int) {
            let style = Style(mark: mark)
            if style.members == .object, style.fieldsBeforeClass == node.memberCount, style.fieldsBeforeClass > 0 {
                writeClassKeys(of: node, hints: style.hasHints, first: false)
            }
            writer.closeContainer(style.members == .elements || style.members == .pairs ? UInt8(ascii: "]") : UInt8(ascii: "}"))
            if style.tagged { writer.closeContainer(UInt8(ascii: "}")) }
            if Style(mark: place.mark).members == .pairs, place.role == .value { writer.closeContainer(UInt8(ascii: "]")) }
        }

        /// Writes `node` if it holds no other value, or opens it: returns the container and how
        /// its members are walked, or nil when nothing is left to walk (a value without members,
        /// an empty container, written whole).
        mutating func open(_ node: TapeNode, walker: inout TapeWalker) -> (TapeNode, TapeDescent)? {
            switch node.kind {
            case .array: return open(node, count: node.memberCount, Style(.elements), .all())
            case .set: return open(node, count: node.memberCount, Style(.elements, tagged: true), .all(), tag: "$set")
            case .orderedSet: return open(node, count: node.memberCount, Style(.elements, tagged: true), .all(), tag: "$orderedSet")
            case .dictionary: return openDictionary(node, positions: nil, walker: &walker)
            case .archive: return openFields(node, tag: "$archive", walker: &walker)
            case .url: return open(node, count: 2, Style(.url), .all())
            case .object:
                var style = Style(.object)
                style.hasHints = value.view.classes[node.classIndex].hints != nil
                let order = value.order(of: node, count: node.memberCount, escapingDollar: true, walker: &walker)
                let classKey = MemberKey(JSONTapeValue.classKeys[0])
                style.fieldsBeforeClass = walker.order[order].prefix { value.memberKey(value.view.member($0, of: node), escapingDollar: true).compare(classKey) < 0 }.count
                writer.openContainer(UInt8(ascii: "{"))
                if style.fieldsBeforeClass == 0 { writeClassKeys(of: node, hints: style.hasHints, first: true) }
                return (node, .values(mark: style.mark, order: order))
            case .string, .data, .uuid, .reference, .special, .null, .boolean, .integer, .real, .float, .date, .cycle:
                value.writeLeaf(node, to: &writer)
                return nil
            }
        }

        /// An archive's `$top` (or another node's named entries) as an object of its keys,
        /// inside `{"tag": …}` when there is a tag.
        mutating func openFields(_ node: TapeNode, tag: StaticString? = nil, walker: inout TapeWalker) -> (TapeNode, TapeDescent)? {
            guard node.memberCount > 0 else { return open(node, count: 0, Style(.fields, tagged: tag != nil), .none, tag: tag) }
            let order = value.order(of: node, count: node.memberCount, walker: &walker)
            return open(node, count: node.memberCount, Style(.fields, tagged: tag != nil), .values(order: order), tag: tag)
        }

        /// Opens the entries of `dictionary` at `positions` (nil: all of them): an object when
        /// every key is a string, none begins with `$` and no two are the same; otherwise
        /// `{"$dictionary": [[key, value], …]}` in stored order.
        mutating func openDictionary(_ dictionary: TapeNode, positions: [Int]?, walker: inout TapeWalker) -> (TapeNode, TapeDescent)? {
            let view = value.view
            let count = positions?.count ?? dictionary.memberCount
            let plain = (0..<count).allSatisfy { index in
                let key = view.member(positions?[index] ?? index, of: dictionary)
                return key.kind == .string && view.bytes(of: key).first != UInt8(ascii: "$")
            }
            if plain {
                let order = value.order(of: dictionary, count: count, positions: positions, walker: &walker)
                let sorted = walker.order[order]
                // Sorted, two keys with the same bytes are neighbours.
                if !sorted.indices.dropFirst().contains(where: {
                    value.memberKey(view.member(sorted[$0 - 1], of: dictionary)).compare(value.memberKey(view.member(sorted[$0], of: dictionary))) == 0
                }) {
                    return open(dictionary, count: count, Style(.fields), .values(order: order))
                }
                walker.dropOrder(order)
            }
            let order = positions.map { walker.appendOrder($0) }
            return open(dictionary, count: count, Style(.pairs, tagged: true), .all(order: order), tag: "$dictionary")
        }

        /// Opens a container of `count` members (`descent` walks them), inside `{"tag": …}` when
        /// there is a tag; an empty one is written whole.
        private mutating func open(
            _ node: TapeNode, count: Int, _ style: Style, _ descent: TapeDescent, tag: StaticString? = nil
        ) -> (TapeNode, TapeDescent)? {
            if let tag {
                writer.openContainer(UInt8(ascii: "{"))
                writer.writeKey(MemberKey(tag), first: true)
            }
            let isArray = style.members == .elements || style.members == .pairs
            guard count > 0 else {
                writer.append(isArray ? "[]" : "{}")
                if tag != nil { writer.closeContainer(UInt8(ascii: "}")) }
                return nil
            }
            writer.openContainer(isArray ? UInt8(ascii: "[") : UInt8(ascii: "{"))
            return (node, TapeDescent(walksMembers: true, valuesOnly: descent.valuesOnly, order: descent.order, limit: .max, mark: style.mark))
        }

        /// An object's `$class`, `$classes` and (when its class has them) `$classhints`.
        private mutating func writeClassKeys(of node: TapeNode, hints: Bool, first: Bool) {
            let objectClass = value.view.classes[node.classIndex]
            writer.writeKey(MemberKey(JSONTapeValue.classKeys[0]), first: first)
            writer.writeString(objectClass.name)
            writer.writeKey(MemberKey(JSONTapeValue.classKeys[1]), first: false)
            value.writeStrings(objectClass.chain, to: &writer)
            guard hints else { return }
            writer.writeKey(MemberKey(JSONTapeValue.classKeys[2]), first: false)
            value.writeStrings(objectClass.hints!, to: &writer)
        }
    }

    /// Appends to the walker's order the positions of `node`'s entries (those at `positions`, or
    /// all) in the order of their keys' bytes, equal keys in their order, as
    /// `JSONTextWriter.writeObject` orders them.
    private func order(of node: TapeNode, count: Int, positions: [Int]? = nil, escapingDollar: Bool = false, walker: inout TapeWalker) -> Range<Int> {
        walker.appendOrder(count: count) { order in
            withUnsafeTemporaryAllocation(of: MemberKey.self, capacity: count) { keys in
                for index in 0..<count {
                    (keys.baseAddress! + index).initialize(to: memberKey(view.member(positions?[index] ?? index, of: node), escapingDollar: escapingDollar))
                }
                stableOrder(into: order) { keys[$0].compare(keys[$1]) }
            }
            if let positions {
                for index in order.indices { order[index] = positions[order[index]] }
            }
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
            // Tagged, so that the width is not lost; the float's own shortest digits: what was
            // written, not its widening.
            writeTagged("$float", to: &writer) { $0.writeNumber(float.description) }
        case .float(let float):
            writeTagged("$float", to: &writer) { $0.writeString(float.isNaN ? "nan" : (float < 0 ? "-inf" : "inf")) }
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
        walk(&writer) { walker, writing in writing.openFields(archive, walker: &walker) }
    }

    /// The entries of `dictionary` at `positions`, as a dictionary of them (see
    /// `Writing.openDictionary`).
    func writeDictionary(_ dictionary: TapeNode, positions: [Int], to writer: inout JSONTextWriter) {
        walk(&writer) { walker, writing in writing.openDictionary(dictionary, positions: positions, walker: &walker) }
    }

    fileprivate func writeStrings(_ strings: [String], to writer: inout JSONTextWriter) {
        writer.writeArray(count: strings.count) { writer, index in writer.writeString(strings[index]) }
    }

    private func writeTagged(_ tag: StaticString, to writer: inout JSONTextWriter, _ value: (inout JSONTextWriter) -> Void) {
        // `writeMembers` of one member, without its sort.
        writer.openContainer(UInt8(ascii: "{"))
        if !writer.isFull {
            writer.writeKey(MemberKey(tag), first: true)
            value(&writer)
        }
        writer.closeContainer(UInt8(ascii: "}"))
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
