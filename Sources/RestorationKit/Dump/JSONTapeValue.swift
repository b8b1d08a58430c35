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

    func write(_ node: TapeNode, to writer: inout JSONTextWriter) {
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
        case .array:
            writeElements(node, to: &writer)
        case .set:
            writeTagged("$set", to: &writer) { writeElements(node, to: &$0) }
        case .orderedSet:
            writeTagged("$orderedSet", to: &writer) { writeElements(node, to: &$0) }
        case .dictionary:
            writeDictionary(node, positions: 0..<node.memberCount, to: &writer)
        case .object:
            let objectClass = view.classes[node.classIndex]
            let classKeys: [StaticString] = objectClass.hints == nil ? ["$class", "$classes"] : ["$class", "$classes", "$classhints"]
            writeMembers(classKeys.count + node.memberCount, to: &writer, key: { index in
                index < classKeys.count ? MemberKey(classKeys[index]) : memberKey(view.member(index - classKeys.count, of: node), escapingDollar: true)
            }) { writer, index in
                switch index {
                case 0: writer.writeString(objectClass.name)
                case 1: writeStrings(objectClass.chain, to: &writer)
                case 2 where objectClass.hints != nil: writeStrings(objectClass.hints!, to: &writer)
                default: write(view.value(index - classKeys.count, of: node), to: &writer)
                }
            }
        case .url:
            let keys: [StaticString] = ["$url", "base"]
            writeMembers(2, to: &writer, key: { MemberKey(keys[$0]) }) { writer, index in
                write(view.member(index, of: node), to: &writer)
            }
        case .archive:
            writeTagged("$archive", to: &writer) { writeFields(node, to: &$0) }
        case .uuid:
            writeTagged("$uuid", to: &writer) { $0.writeString(ByteFormatting.uuidString(Array(bytes(of: node)))) }
        case .special:
            // `{"$rect": "{{0, 0}, {320, 480}}"}`, `{"$range": {"length": 5, "location": 3}}`.
            let structure = FoundationValues.specialStructure(of: node, in: view)
            writeTagged(structure.tag, to: &writer) { writer in
                guard node.memberCount > 2 else { return write(view.value(1, of: node), to: &writer) }
                writeMembers(structure.members.count, to: &writer, key: { MemberKey(structure.members[$0]) }) { writer, index in
                    write(view.value(index + 1, of: node), to: &writer)
                }
            }
        case .null, .boolean, .integer, .real, .float, .date, .cycle:
            writeScalar(view.scalar(node)!, to: &writer)
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
        writeMembers(archive.memberCount, to: &writer, key: { memberKey(view.member($0, of: archive)) }) { writer, index in
            write(view.value(index, of: archive), to: &writer)
        }
    }

    /// The entries of `dictionary` at `positions`, as a dictionary of them: an object when every
    /// key is a string, none begins with `$` and no two are the same; otherwise
    /// `{"$dictionary": [[key, value], …]}` in stored order.
    func writeDictionary<Positions: RandomAccessCollection<Int>>(_ dictionary: TapeNode, positions: Positions, to writer: inout JSONTextWriter) {
        let positions = Array(positions)
        let plain = positions.allSatisfy { position in
            let key = view.member(position, of: dictionary)
            return key.kind == .string && bytes(of: key).first != UInt8(ascii: "$")
        }
        if plain {
            let keys = positions.map { memberKey(view.member($0, of: dictionary)) }
            let order = stableOrder(count: keys.count) { keys[$0].compare(keys[$1]) }
            // Sorted, two keys with the same bytes are neighbours.
            if !order.indices.dropFirst().contains(where: { keys[order[$0 - 1]].compare(keys[order[$0]]) == 0 }) {
                return writeMembers(keys, order: order, to: &writer) { writer, index in
                    write(view.value(positions[index], of: dictionary), to: &writer)
                }
            }
        }
        writeTagged("$dictionary", to: &writer) { writer in
            writer.writeArray(count: positions.count) { writer, index in
                writer.writeArray(count: 2) { writer, side in
                    write(side == 0 ? view.member(positions[index], of: dictionary) : view.value(positions[index], of: dictionary), to: &writer)
                }
            }
        }
    }

    private func writeElements(_ node: TapeNode, to writer: inout JSONTextWriter) {
        writer.writeArray(count: node.memberCount) { writer, index in write(view.member(index, of: node), to: &writer) }
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
