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

    /// The members of an archive or an object, keys as labels. `walker` walks what each holds:
    /// a writer of many values keeps one, so that its stack grows once.
    func fields(of node: TapeNode, indent: Int, into out: inout TextOutput, walker: inout TapeWalker) {
        fields(node.memberCount, indent: indent, into: &out, walker: &walker) { (.key(view.member($0, of: node)), .node(view.value($0, of: node))) }
    }

    /// A saved object's state (see `TapeObject.State`).
    func fields(of state: TapeObject.State, indent: Int, into out: inout TextOutput, walker: inout TapeWalker) {
        fields(state.count, indent: indent, into: &out, walker: &walker) { index in
            let (key, value) = state.entry(index, in: view)
            return (key.map(Label.key) ?? .text(RestorationKeys.viewRestorationData), value)
        }
    }

    /// `count` entries, each line's label aligned with its siblings', each followed by what its
    /// value holds.
    func fields(_ count: Int, indent: Int, into out: inout TextOutput, walker: inout TapeWalker, _ entry: (Int) -> (Label, TapeValue)) {
        var longest = 0
        // Whether every key is plain ASCII, as most are: then they are written without a
        // second look.
        var keysArePlain = true
        for index in 0..<count {
            let label = entry(index).0
            if case .key(let key) = label {
                let bytes = view.bytes(of: key)
                let isPlain = TextEscaping.isPlainASCII(bytes)
                keysArePlain = keysArePlain && isPlain
                longest = max(longest, isPlain ? bytes.count : labelWidth(label))
            } else {
                longest = max(longest, labelWidth(label))
            }
        }
        for index in 0..<count where !out.isFull {
            let (label, value) = entry(index)
            line(label, value, indent: indent, longest: longest, keyIsPlain: keysArePlain, into: &out)
            members(of: value, indent: indent + 1, into: &out, walker: &walker)
        }
    }

    /// The lines of what `value` holds, depth first (see `TapeWalker`).
    private func members(of value: TapeValue, indent: Int, into out: inout TextOutput, walker: inout TapeWalker) {
        let node: TapeNode
        let descent: TapeDescent
        switch value {
        case .entries(let dictionary, let positions):
            let order = walker.appendOrder(positions)
            (node, descent) = (dictionary, .values(mark: longestLabel(dictionary, positions: order, in: walker), order: order))
        case .node(let valueNode):
            // Most values hold nothing to list.
            (node, descent) = (valueNode, self.descent(into: valueNode))
            guard descent.walksMembers else { return }
        }
        // The output's bytes are its buffer's, shared by the copy.
        var lines = Lines(values: self, out: out, indent: indent)
        walker.walkMembers(of: node, descent, in: view, &lines)
        out = lines.out
    }

    /// Writes a line for each node the walk meets; a container's members, one level deeper, are
    /// aligned on their longest label (the descent's mark).
    private struct Lines: TapeVisitor {
        let values: TextDumpValues
        var out: TextOutput
        var indent: Int

        var isFinished: Bool { out.isFull }

        mutating func enter(_ node: TapeNode, at place: TapePlace, walker: inout TapeWalker) -> TapeDescent {
            values.line(values.label(of: place), .node(node), indent: indent, longest: place.mark, into: &out)
            let descent = values.descent(into: node)
            if descent.walksMembers { indent += 1 }
            return descent
        }

        mutating func exit(_ node: TapeNode, at place: TapePlace, mark: Int) {
            indent -= 1
        }
    }

    /// The lines `node` holds: an array's or set's elements, a dictionary's entries, an
    /// archive's or object's fields, a URL's base; none for another value.
    private func descent(into node: TapeNode) -> TapeDescent {
        switch node.kind {
        case .array, .set, .orderedSet:
            // The longest label is the last index's.
            guard node.memberCount > 0 else { return .none }
            return .values(mark: TextOutput.decimalWidth(node.memberCount - 1) + 2)
        case .dictionary, .object, .archive:
            return .values(mark: longestLabel(node, positions: nil, in: nil))
        case .url where view.member(1, of: node).kind != .null:
            return .values(mark: labelWidth(.text("base")))
        default:
            return .none
        }
    }

    /// The widest label of a dictionary's, archive's or object's entries (those at `positions`
    /// of the walker's order, or all).
    private func longestLabel(_ node: TapeNode, positions: Range<Int>?, in walker: TapeWalker?) -> Int {
        var longest = 0
        for index in 0..<(positions?.count ?? node.memberCount) {
            let position = positions.map { walker!.order[$0.lowerBound + index] } ?? index
            longest = max(longest, labelWidth(entryLabel(view.member(position, of: node), of: node)))
        }
        return longest
    }

    /// A member's label: an element's index, an entry's key, a URL's "base".
    private func label(of place: TapePlace) -> Label {
        switch place.role {
        case .element: .index(place.position)
        case .base: .text("base")
        default: entryLabel(view.member(place.position, of: place.container), of: place.container)
        }
    }

    /// An entry's label: its key; a dictionary's key that is not a string, by its summary.
    private func entryLabel(_ key: TapeNode, of container: TapeNode) -> Label {
        container.kind != .dictionary || key.kind == .string ? .key(key) : .text("(" + summary(.node(key)) + ")")
    }

    /// One entry's line: indentation, label, dots up to the longest label's end, summary.
    private func line(_ label: Label, _ value: TapeValue, indent: Int, longest: Int, keyIsPlain: Bool = false, into out: inout TextOutput) {
        out.indent(indent)
        let width = writeLabel(label, keyIsPlain: keyIsPlain, into: &out)
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

    /// Writes a label, escaped (a key known to be plain ASCII as it is); returns its width.
    private func writeLabel(_ label: Label, keyIsPlain: Bool, into out: inout TextOutput) -> Int {
        switch label {
        case .key(let key):
            let bytes = view.bytes(of: key)
            guard keyIsPlain || TextEscaping.isPlainASCII(bytes) else { return out.appendLabel(String(decoding: bytes, as: UTF8.self)) }
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
    /// Written by a walk (see `TapeWalker`), so a value as deep as a tape allows is written on
    /// any thread.
    func compact(_ node: TapeNode, limit: Int) -> String {
        var compact = Compact(values: self, limit: limit)
        var walker = TapeWalker()
        walker.walk(node, in: view, &compact)
        return compact.text.shortened(to: limit)
    }

    /// Writes the compact form of what the walk meets. Whether the text is past the limit is
    /// asked before each value is written and after each member: past it, a member is not
    /// written and the walk stops, closing nothing.
    private struct Compact: TapeVisitor {
        let values: TextDumpValues
        let limit: Int
        var text = ""
        private(set) var isFinished = false

        init(values: TextDumpValues, limit: Int) {
            (self.values, self.limit) = (values, limit)
        }

        private var isPastLimit: Bool { text.utf8.count > limit }

        mutating func enter(_ node: TapeNode, at place: TapePlace, walker: inout TapeWalker) -> TapeDescent {
            switch place.role {
            case .element, .key:
                // The member before is written.
                if place.ordinal > 0 {
                    if isPastLimit {
                        isFinished = true
                        return .none
                    }
                    text += ", "
                }
                if place.role == .key, node.kind == .string {
                    text += TextEscaping.escape(values.view.string(of: node)) + ": "
                    return .none
                }
            case .start, .value, .base, .relative:
                break
            }
            guard !isPastLimit else {
                // A key that is not written is followed by its separator all the same.
                if place.role == .key { text += ": " }
                return .none
            }
            if let opening = values.compactOpening(node) {
                text += opening
                return .all(limit: TextDumpValues.compactMemberLimit)
            }
            // Spelled as the dump spells it; a URL's base, if it has one, follows as its member.
            text += values.summary(.node(node))
            if node.kind == .url, values.view.member(1, of: node).kind != .null {
                text += " "
                return .values()
            }
            if place.role == .key { text += ": " }
            return .none
        }

        mutating func exit(_ node: TapeNode, at place: TapePlace, mark: Int) {
            defer { if place.role == .key { text += ": " } }
            // A URL's base is written after it, with nothing to close.
            guard node.kind != .url, !isFinished else { return }
            if node.memberCount > 0, isPastLimit {
                isFinished = true
                return
            }
            text += (node.memberCount > TextDumpValues.compactMemberLimit ? ", …" : "") + (node.kind.layout != .elements ? "}" : "]")
        }
    }

    /// What a container's compact form begins with (`[`, `{`, `archive{`, `Class{` …); nil for a
    /// value that holds no members to list.
    fileprivate func compactOpening(_ node: TapeNode) -> String? {
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
}
