/// The text dump's values, written from a tape's nodes: each entry on a line of its own
/// (indentation, its label, dots up to the longest label's end, the value's summary), then a
/// container's children one level deeper.
struct TextDumpValues {
    let formatter: TextDumpFormatter
    let view: TapeView

    /// A line's label: a key (a string node), or text of ours.
    enum Label {
        case key(TapeNode)
        case text(String)
        /// An element's, `[index]`.
        case index(Int)
    }

    /// Labels longer than this do not widen their siblings' dots: one long key (an archive may
    /// hold one of 100 KB) would otherwise pad every other line of its container to its length.
    static let maximumAlignedLabel = 64

    /// The members of an archive or an object, keys as labels.
    func fields(of node: TapeNode, indent: Int, into out: inout TextOutput) {
        fields(node.memberCount, indent: indent, into: &out) { entry($0, of: .fields(node)) }
    }

    /// A saved object's state (see `TapeObject.State`).
    func fields(of state: TapeObject.State, indent: Int, into out: inout TextOutput) {
        fields(state.count, indent: indent, into: &out) { index in
            let (key, value) = state.entry(index, in: view)
            return (key.map(Label.key) ?? .text(RestorationKeys.viewRestorationData), value)
        }
    }

    /// `count` entries, each line's label aligned with its siblings', each followed by what its
    /// value holds.
    func fields(_ count: Int, indent: Int, into out: inout TextOutput, _ entry: (Int) -> (Label, TapeValue)) {
        var longest = 0
        for index in 0..<count {
            longest = max(longest, labelWidth(entry(index).0))
        }
        for index in 0..<count where !out.isFull {
            let (label, value) = entry(index)
            line(label, value, indent: indent, longest: longest, into: &out)
            members(of: value, indent: indent + 1, into: &out)
        }
    }

    /// Where a container's members are, as lines are listed from them.
    private enum Members {
        /// An array's or set's elements, labelled `[index]`.
        case elements(TapeNode)
        /// An archive's or object's fields, keys as labels.
        case fields(TapeNode)
        /// A dictionary's entries at these positions: string keys as labels, others by their
        /// summary.
        case entries(TapeNode, [Int])
        /// A URL's base.
        case base(TapeNode)
    }

    /// A container whose members are being listed: their lines' indentation and longest label,
    /// and the next member.
    private struct Listing {
        let members: Members
        let count: Int
        let indent: Int
        let longest: Int
        var next = 0
    }

    /// The lines of what `value` holds, depth first, with a stack of its own, so that a value as
    /// deep as the limits allow is written on any thread.
    private func members(of value: TapeValue, indent: Int, into out: inout TextOutput) {
        var listings: [Listing] = []
        if let first = listing(of: value, indent: indent) { listings.append(first) }
        while let last = listings.indices.last {
            let index = listings[last].next
            guard index < listings[last].count, !out.isFull else {
                listings.removeLast()
                continue
            }
            listings[last].next += 1
            let (label, value) = entry(index, of: listings[last].members)
            line(label, value, indent: listings[last].indent, longest: listings[last].longest, into: &out)
            if let inner = listing(of: value, indent: listings[last].indent + 1) { listings.append(inner) }
        }
    }

    /// The listing of what `value` holds; nil for a value that holds nothing to list.
    private func listing(of value: TapeValue, indent: Int) -> Listing? {
        let members: Members
        switch value {
        case .entries(let dictionary, let positions):
            members = .entries(dictionary, positions)
        case .node(let node):
            switch node.kind {
            case .array, .set, .orderedSet:
                // The longest label is the last index's.
                guard node.memberCount > 0 else { return nil }
                return Listing(members: .elements(node), count: node.memberCount, indent: indent, longest: TextOutput.decimalWidth(node.memberCount - 1) + 2)
            case .dictionary: members = .entries(node, Array(0..<node.memberCount))
            case .object, .archive: members = .fields(node)
            case .url where view.member(1, of: node).kind != .null: members = .base(node)
            default: return nil
            }
        }
        let count = switch members {
        case .entries(_, let positions): positions.count
        case .fields(let node), .elements(let node): node.memberCount
        case .base: 1
        }
        var longest = 0
        for index in 0..<count {
            longest = max(longest, labelWidth(entry(index, of: members).0))
        }
        return Listing(members: members, count: count, indent: indent, longest: longest)
    }

    /// A container's member `index`: its label and value.
    private func entry(_ index: Int, of members: Members) -> (Label, TapeValue) {
        switch members {
        case .elements(let node):
            return (.index(index), .node(view.member(index, of: node)))
        case .fields(let node):
            return (.key(view.member(index, of: node)), .node(view.value(index, of: node)))
        case .entries(let dictionary, let positions):
            let key = view.member(positions[index], of: dictionary)
            return (key.kind == .string ? .key(key) : .text("(" + summary(.node(key)) + ")"), .node(view.value(positions[index], of: dictionary)))
        case .base(let url):
            return (.text("base"), .node(view.member(1, of: url)))
        }
    }

    /// One entry's line: indentation, label, dots up to the longest label's end, summary.
    private func line(_ label: Label, _ value: TapeValue, indent: Int, longest: Int, into out: inout TextOutput) {
        out.indent(indent)
        let width = writeLabel(label, into: &out)
        out.dots(max(min(longest, Self.maximumAlignedLabel) - width, 0) + 4)
        writeSummary(value, into: &out)
        out.endLine()
    }

    // MARK: Labels

    /// How many characters a label takes once written (see `TextDumpFormatter.labelWidth`).
    private func labelWidth(_ label: Label) -> Int {
        switch label {
        case .key(let key):
            let bytes = view.bytes(of: key)
            return TextEscaping.isPlainASCII(bytes) ? bytes.count : TextDumpFormatter.labelWidth(String(decoding: bytes, as: UTF8.self))
        case .text(let text):
            return TextDumpFormatter.labelWidth(text)
        case .index(let index):
            return TextOutput.decimalWidth(index) + 2
        }
    }

    /// Writes a label, escaped; returns its width.
    private func writeLabel(_ label: Label, into out: inout TextOutput) -> Int {
        switch label {
        case .key(let key):
            let bytes = view.bytes(of: key)
            guard TextEscaping.isPlainASCII(bytes) else { return out.appendLabel(String(decoding: bytes, as: UTF8.self)) }
            out.append(raw: bytes)
            return bytes.count
        case .text(let text):
            return out.appendLabel(text)
        case .index(let index):
            out.append("[")
            out.appendDecimal(index)
            out.append("]")
            return TextOutput.decimalWidth(index) + 2
        }
    }

    // MARK: Summaries

    /// The one-line description of a value.
    func summary(_ value: TapeValue) -> String {
        var out = TextOutput(capacity: 64)
        writeSummary(value, into: &out)
        return out.string
    }

    /// Writes the one-line description of a value; containers are followed by their `children`.
    func writeSummary(_ value: TapeValue, into out: inout TextOutput) {
        let node: TapeNode
        switch value {
        case .node(let valueNode): node = valueNode
        case .entries(_, let positions): return writeCount(positions.count, "Dictionary (", "entry", "entries", into: &out)
        }
        switch node.kind {
        case .null: out.append("nil")
        case .string: writeQuoted(node, into: &out)
        case .integer, .real, .float, .boolean, .date, .cycle:
            writeScalar(view.scalar(node)!, into: &out)
        case .data:
            let bytes = view.bytes(of: node)
            out.appendDecimal(bytes.count)
            out.append(" bytes")
            if !bytes.isEmpty {
                out.append(": ")
                out.appendHexPreview(bytes, limit: formatter.previewBytes)
            }
            if let error = view.dataError(node) {
                out.append(" (not a readable keyed archive: ")
                out.appendEscaped(error)
                out.append(")")
            }
        case .array: writeCount(node.memberCount, "Array (", "item", "items", into: &out)
        case .set: writeCount(node.memberCount, "Set (", "item", "items", into: &out)
        case .orderedSet: writeCount(node.memberCount, "Ordered Set (", "item", "items", into: &out)
        case .dictionary: writeCount(node.memberCount, "Dictionary (", "entry", "entries", into: &out)
        case .uuid:
            out.append("UUID ")
            out.append(ByteFormatting.uuidString(Array(view.bytes(of: node))))
        case .url:
            out.append("URL ")
            writeQuoted(view.member(0, of: node), into: &out)
            if view.member(1, of: node).kind != .null { out.append(" relative to:") }
        case .object:
            let objectClass = view.classes[node.classIndex]
            formatter.writeClassName(objectClass.name, into: &out)
            for superclass in objectClass.chain.dropFirst() {
                out.append(" : ")
                out.appendEscaped(superclass)
            }
            if let hints = objectClass.hints {
                out.append(" (class hints: ")
                for (index, hint) in hints.enumerated() {
                    if index > 0 { out.append(", ") }
                    out.appendEscaped(hint)
                }
                out.append(")")
            }
        case .reference:
            out.append("Object Identifier Proxy: ")
            out.appendEscaped(view.string(of: node))
        case .archive: writeCount(node.memberCount, "Keyed Archive (", "key", "keys", into: &out)
        case .special:
            // "Rect {{0, 0}, {320, 480}}" (the string Foundation wrote), "Range {3, 5}",
            // "Affine Transform {{1.0, 0.0, 0.0, 1.0}, {10.0, 20.0}}".
            let structure = FoundationValues.specialStructure(of: node, in: view)
            out.append(structure.title)
            out.append(" ")
            guard !structure.isGeometry else { return out.appendEscaped(view.string(of: view.value(1, of: node))) }
            // An affine transform as Apple's Foundation describes one: "{{a, b, c, d}, {tx, ty}}".
            let isTransform = structure.members.count == 6
            out.append(isTransform ? "{{" : "{")
            for position in 1..<node.memberCount {
                if position > 1 { out.append(isTransform && position == 5 ? "}, {" : ", ") }
                writeScalar(view.scalar(view.value(position, of: node))!, into: &out)
            }
            out.append(isTransform ? "}}" : "}")
        }
    }

    private func writeScalar(_ value: TapeScalar, into out: inout TextOutput) {
        switch value {
        case .integer(let integer): out.appendDecimal(integer)
        case .real(let real): out.append(TextDumpFormatter.realText(real))
        case .float(let float): out.append(float.isFinite ? float.description : TextDumpFormatter.realText(Double(float)))
        case .boolean(let boolean): out.append(boolean ? "Yes" : "No")
        case .date(let seconds): out.append(TextDumpFormatter.dateText(seconds))
        case .cycle(let uid):
            out.append(TextDumpFormatter.cycleText(uid))
        default: preconditionFailure("not a scalar")
        }
    }

    /// A string node between double quotes, escaped, its quotes too.
    private func writeQuoted(_ node: TapeNode, into out: inout TextOutput) {
        out.append("\"")
        if node.flags.contains(.plain) {
            out.append(raw: view.bytes(of: node))
        } else {
            out.appendEscaped(view.string(of: node), quotes: true)
        }
        out.append("\"")
    }

    /// `prefix`, then `count` and its noun, then `)`: a container's summary.
    private func writeCount(_ count: Int, _ prefix: StaticString, _ noun: StaticString, _ plural: StaticString, into out: inout TextOutput) {
        out.append(prefix)
        out.appendDecimal(count)
        out.append(" ")
        out.append(count == 1 ? noun : plural)
        out.append(")")
    }

    // MARK: Compact form

    /// Containers show at most this many members in the compact form.
    static let compactMemberLimit = 8

    /// The compact form of a value, for `diff`'s lines: the value and what it holds on one line
    /// (`{theme: "dark", sizes: [1, 2]}`), a container's first `compactMemberLimit` members, cut
    /// with `…` past `limit` bytes. Writing stops there: a value nested a few levels deep with
    /// a few members at each level would otherwise take exponential time to write in full.
    /// Walks with a stack of its own, so that a value as deep as the limits allow is written on
    /// any thread.
    func compact(_ node: TapeNode, limit: Int) -> String {
        var text = ""
        // The containers being written: each one's node, its member being written (key or
        // value), and the next member.
        var open: [(node: TapeNode, writingKey: Bool, next: Int)] = []
        // The value to write next, if any; then the innermost open container goes on.
        var next: TapeNode? = node
        while true {
            if let value = next {
                next = nil
                if text.utf8.count <= limit {
                    if let opening = compactOpening(value) {
                        text += opening
                        open.append((value, false, 0))
                    } else {
                        next = writeCompactLeaf(value, into: &text)
                        if next != nil { continue }
                    }
                }
            }
            guard var container = open.popLast() else { break }
            let keyed = container.node.kind.layout != .elements
            if container.next > 0 {
                if container.writingKey {
                    // The key is written: its value follows.
                    text += ": "
                    container.writingKey = false
                    next = view.value(container.next - 1, of: container.node)
                    open.append(container)
                    continue
                }
                // A member is written: past the limit, nothing more is (no closing either).
                if text.utf8.count > limit { continue }
            }
            let position = container.next
            guard position < min(container.node.memberCount, Self.compactMemberLimit) else {
                text += (container.node.memberCount > Self.compactMemberLimit ? ", …" : "") + (keyed ? "}" : "]")
                continue
            }
            if position > 0 { text += ", " }
            container.next += 1
            if keyed {
                let key = view.member(position, of: container.node)
                if key.kind == .string {
                    text += TextEscaping.escape(view.string(of: key)) + ": "
                    next = view.value(position, of: container.node)
                } else {
                    container.writingKey = true
                    next = key
                }
            } else {
                next = view.member(position, of: container.node)
            }
            open.append(container)
        }
        return text.shortened(to: limit)
    }

    /// What a container's compact form begins with (`[`, `{`, `archive{`, `Class{` …); nil for a
    /// value that holds no members to list.
    private func compactOpening(_ node: TapeNode) -> String? {
        switch node.kind {
        case .array: "["
        case .set: "set["
        case .orderedSet: "orderedSet["
        case .dictionary: "{"
        case .archive: "archive{"
        case .object:
            TextEscaping.escape(SwiftDemangler.demangle(view.classes[node.classIndex].name) ?? view.classes[node.classIndex].name) + "{"
        default: nil
        }
    }

    /// Writes a value that holds no members to list; returns a URL's base, written next.
    private func writeCompactLeaf(_ node: TapeNode, into text: inout String) -> TapeNode? {
        switch node.kind {
        case .null: text += "nil"
        case .string: text += "\"" + TextEscaping.escape(view.string(of: node)).replacingQuotes() + "\""
        case .boolean: text += node.payload != 0 ? "true" : "false"
        case .integer, .real, .float, .date, .cycle:
            switch view.scalar(node)! {
            case .integer(let integer): text += String(integer)
            case .real(let real): text += TextDumpFormatter.realText(real)
            case .float(let float): text += float.isFinite ? float.description : TextDumpFormatter.realText(Double(float))
            case .date(let seconds): text += ReferenceDate.iso8601(seconds) ?? "date(\(seconds) s from 2001)"
            case .cycle(let uid): text += TextDumpFormatter.cycleText(uid)
            default: preconditionFailure("not a scalar")
            }
        case .data:
            let bytes = view.bytes(of: node)
            text += "<\(bytes.count) bytes" + (bytes.isEmpty ? "" : ": " + ByteFormatting.hexPreview(bytes, limit: 8)) + ">"
        case .uuid: text += "UUID " + ByteFormatting.uuidString(Array(view.bytes(of: node)))
        case .url:
            text += "URL \"" + TextEscaping.escape(view.string(of: view.member(0, of: node))).replacingQuotes() + "\""
            if view.member(1, of: node).kind != .null {
                text += " relative to "
                return view.member(1, of: node)
            }
        case .reference: text += "ref(" + TextEscaping.escape(view.string(of: node)) + ")"
        case .special: text += summary(.node(node))
        case .array, .set, .orderedSet, .dictionary, .archive, .object: preconditionFailure("a container")
        }
        return nil
    }
}
