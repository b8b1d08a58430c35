/// `ArchiveValue` trees made from a tape, for the readers that take values (the library's
/// `KeyedArchive`, the model).
extension ArchiveTape {
    /// The file's archive as a value tree. A large archive's `$top` values (a restoration
    /// archive's saved objects) are made on all processors, `stackSize` bytes of stack each.
    func keyedArchive(concurrently: Bool, stackSize: Int) -> KeyedArchive {
        let (first, count) = (root.first, root.memberCount)
        // The keys and their index are made on this thread while the values are begun on others.
        var (keys, index): ([String], ArchiveFields.KeyIndex?) = ([], nil)
        func makeKeys() {
            keys = (0..<count).map { string(nodes[first + $0]) }
            index = ArchiveFields.index(of: keys)
        }
        // The values in runs that share their repeated strings: up to 64 values a run, and at
        // least 256 runs when there are 256 values (the least `DeepStack.map` spreads); fewer
        // values are made on this thread, in one run.
        let runLength = count < 256 ? max(1, count) : min(64, count / 256)
        let runs = (count + runLength - 1) / runLength
        let values = DeepStack.map(Array(0..<runs), concurrently: concurrently, stackSize: stackSize, first: makeKeys) { run -> [ArchiveValue] in
            var strings = RepeatedStrings()
            return ((run * runLength)..<min(count, (run + 1) * runLength)).map { position in
                value(nodes[first + count + position], &strings)
            }
        }.flatMap { $0 }
        var archive = KeyedArchive(top: ArchiveFields(keys: keys, values: values, index: index), version: .integer(KeyedArchive.archiverVersion))
        archive.repeatedRootKeys = Dictionary(repeatedRootKeys, uniquingKeysWith: max)
        return archive
    }

    /// The node of the file's `$top` value at `position`.
    func topNode(at position: Int) -> TapeNode {
        nodes[root.first + root.memberCount + position]
    }

    func value(_ node: TapeNode) -> ArchiveValue {
        var strings = RepeatedStrings()
        return value(node, &strings)
    }

    /// The value of `node`, its repeated strings shared with the values made before through
    /// `strings` (one per thread: see `RepeatedStrings`).
    func value(_ node: TapeNode, sharing strings: inout RepeatedStrings) -> ArchiveValue {
        value(node, &strings)
    }

    /// The state and views of a saved object whose entry is the nested archive `node`, its
    /// views split off (see `TapeObject.init(splitting:in:)`), as values.
    func objectContent(splitting node: TapeNode, sharing strings: inout RepeatedStrings) -> (state: ArchiveFields, views: [RestorationView]) {
        withView { view in
            let onTape = TapeObject(splitting: node, in: view)
            let state = onTape.state!
            var keys = state.positions.map { withBytes(of: view.member($0, of: state.archive)) { strings.string($0) } }
            var values = state.positions.map { value(view.value($0, of: state.archive), &strings) }
            if let (dictionary, positions) = state.leftovers {
                keys.append(RestorationKeys.viewRestorationData)
                values.append(value(.entries(of: dictionary, positions: positions), &strings))
            }
            let views = onTape.views.map { saved in RestorationView(identifierPath: IdentifierPath(string(saved.path)), state: fields(saved.archive, &strings)) }
            return (ArchiveFields(keys: keys, values: values), views)
        }
    }

    private func archive(_ node: TapeNode, _ strings: inout RepeatedStrings) -> KeyedArchive {
        KeyedArchive(top: fields(node, &strings), version: .integer(KeyedArchive.archiverVersion))
    }

    /// A node's value, or a dictionary of some of a dictionary node's entries.
    func value(_ value: TapeValue) -> ArchiveValue {
        var strings = RepeatedStrings()
        return self.value(value, &strings)
    }

    private func value(_ value: TapeValue, _ strings: inout RepeatedStrings) -> ArchiveValue {
        switch value {
        case .node(let node):
            return self.value(node, &strings)
        case .entries(let dictionary, let positions):
            return .dictionary(ArchiveDictionary(entries: positions.map { position in
                .init(key: self.value(nodes[dictionary.first + position], &strings), value: self.value(nodes[dictionary.first + dictionary.memberCount + position], &strings))
            }))
        }
    }

    private func value(_ node: TapeNode, _ strings: inout RepeatedStrings) -> ArchiveValue {
        if let scalar = node.scalar(wide: { wideIntegers[$0] }) { return scalar }
        switch node.kind {
        case .string: return .string(withBytes(of: node) { strings.string($0) })
        case .reference: return .reference(withBytes(of: node) { strings.string($0) })
        case .data:
            let bytes = withBytes(of: node) { Array($0) }[...]
            return .data(ArchiveData(bytes: bytes, archiveError: node.flags.contains(.archiveError) ? dataErrors[TapeBytes.Location(node)] : nil))
        case .uuid: return .uuid(withBytes(of: node) { Array($0) })
        case .array: return .array(elements(node, &strings))
        case .set: return .set(elements(node, &strings))
        case .orderedSet: return .orderedSet(elements(node, &strings))
        case .dictionary:
            let (first, count) = (node.first, node.memberCount)
            var entries: [ArchiveDictionary.Entry] = []
            entries.reserveCapacity(count)
            for position in 0..<count {
                entries.append(.init(key: value(nodes[first + position], &strings), value: value(nodes[first + count + position], &strings)))
            }
            return .dictionary(ArchiveDictionary(entries: entries))
        case .url:
            return .url(ArchiveURL(base: value(nodes[node.first + 1], &strings), relative: string(nodes[node.first])))
        case .archive: return .archive(archive(node, &strings))
        default:
            // An object, or a Foundation value the tree has no case of its own for: the object
            // it was archived as, which its node keeps.
            precondition(node.kind.layout == .object, "a kind without a value")
            let objectClass = classes[node.classIndex]
            return .object(ArchiveObject(className: objectClass.name, classChain: objectClass.chain, classHints: objectClass.hints, fields: fields(node, &strings)))
        }
    }

    /// A string or reference node's bytes as a string.
    func string(_ node: TapeNode) -> String {
        withBytes(of: node) { String(decoding: $0, as: UTF8.self) }
    }

    private func elements(_ node: TapeNode, _ strings: inout RepeatedStrings) -> [ArchiveValue] {
        let first = node.first
        var elements: [ArchiveValue] = []
        elements.reserveCapacity(node.memberCount)
        for position in 0..<node.memberCount {
            elements.append(value(nodes[first + position], &strings))
        }
        return elements
    }

    /// An object's or archive's named members.
    private func fields(_ node: TapeNode, _ strings: inout RepeatedStrings) -> ArchiveFields {
        let (first, count) = (node.first, node.memberCount)
        var keys: [String] = []
        var values: [ArchiveValue] = []
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
        for position in 0..<count {
            keys.append(withBytes(of: nodes[first + position]) { strings.string($0) })
            values.append(value(nodes[first + count + position], &strings))
        }
        return ArchiveFields(keys: keys, values: values)
    }
}

/// Tapes made from values: an archive a library user decoded into values.
extension ArchiveTape {
    /// A tape holding `archive`, its `$top` as the root archive.
    static func of(_ archive: KeyedArchive) -> ArchiveTape {
        var builder = TapeBuilder()
        let root = builder.appendFields(archive.top, as: .archive)
        return ArchiveTape(builder, root: root, repeatedRootKeys: archive.rootKeyRepeats)
    }
}

extension ArchiveTape {
    /// Calls `body` with `value` put on a tape of its own: its node, and the tape's view.
    static func withValue<Result>(_ value: ArchiveValue, _ body: (TapeNode, TapeView) -> Result) -> Result {
        var builder = TapeBuilder()
        let node = builder.append(value)
        return ArchiveTape(builder, root: node).withView { body(node, $0) }
    }
}

extension TapeBuilder {
    /// Appends `value` as the decoder would have (its containers' children in blocks, strings
    /// in the tape's text) and returns its node.
    mutating func append(_ value: ArchiveValue) -> TapeNode {
        switch value {
        case .null: return .null
        case .boolean(let boolean): return TapeNode(.boolean, payload: boolean ? 1 : 0)
        case .integer(let integer): return self.integer(integer)
        case .real(let real): return TapeNode(.real, payload: real.bitPattern)
        case .float(let float): return TapeNode(.float, payload: UInt64(float.bitPattern))
        case .date(let seconds): return TapeNode(.date, payload: seconds.bitPattern)
        case .cycle(let uid): return TapeNode(.cycle, payload: uid)
        case .string(let string): return text(.string, string)
        case .reference(let path): return text(.reference, path)
        case .data(let data):
            let node = data.bytes.withUnsafeBytes { appendText(.data, $0) }
            return data.archiveError.map { failedArchive(node, reason: $0) } ?? node
        case .uuid(let bytes): return bytes.withUnsafeBytes { appendText(.uuid, $0) }
        case .array(let elements): return appendBlock(.array, elements)
        case .set(let elements): return appendBlock(.set, elements)
        case .orderedSet(let elements): return appendBlock(.orderedSet, elements)
        case .dictionary(let dictionary):
            let mark = stack.count
            for entry in dictionary.entries {
                let key = append(entry.key)
                stack.append(key)
                let value = append(entry.value)
                stack.append(value)
            }
            return TapeNode(.dictionary, count: dictionary.count, payload: UInt64(popPairs(from: mark)))
        case .object(let object):
            // Mapped to a natural value as the decoder maps it, when Foundation's fields make one.
            let index = intern(TapeClass(name: object.className, chain: object.classChain, hints: object.classHints))
            let mark = stack.count
            pushFields(object.fields)
            if let kind = FoundationValues.kind(ofClass: object.className),
               let natural = FoundationValues.naturalNode(kind, fields: mark, count: object.fields.count, classIndex: index, in: &self) {
                stack.removeSubrange(mark...)
                return natural
            }
            return TapeNode(.object, count: object.fields.count, payload: UInt64(index) << 32 | UInt64(popPairs(from: mark)))
        case .url(let url):
            let mark = stack.count
            let relative = text(.string, url.relative)
            stack.append(relative)
            let base = append(url.base)
            stack.append(base)
            return TapeNode(.url, count: 2, payload: UInt64(popBlock(from: mark)))
        case .archive(let archive): return appendFields(archive.top, as: .archive)
        }
    }

    /// An archive's named members as a block of names, then values.
    mutating func appendFields(_ fields: ArchiveFields, as kind: TapeKind) -> TapeNode {
        let mark = stack.count
        pushFields(fields)
        return TapeNode(kind, count: fields.count, payload: UInt64(popPairs(from: mark)))
    }

    /// Pushes each name, then its value, as the decoder pushes an object's fields.
    private mutating func pushFields(_ fields: ArchiveFields) {
        for (name, value) in fields.entries {
            let key = text(.string, name)
            stack.append(key)
            let node = append(value)
            stack.append(node)
        }
    }

    private mutating func appendBlock(_ kind: TapeKind, _ elements: [ArchiveValue]) -> TapeNode {
        let mark = stack.count
        for element in elements {
            let node = append(element)
            stack.append(node)
        }
        return TapeNode(kind, count: elements.count, payload: UInt64(popBlock(from: mark)))
    }

    /// A string's node (`kind`: string or reference), flagged `plain` as the decoder flags it.
    private mutating func text(_ kind: TapeKind, _ string: String) -> TapeNode {
        var string = string
        return string.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            var node = appendText(kind, bytes)
            if TextEscaping.isPlain(bytes) { node.flags.insert(.plain) }
            return node
        }
    }
}
