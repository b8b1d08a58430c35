/// `ArchiveValue` trees made from a tape, for the readers that take values (the library's
/// `KeyedArchive`, the model).
extension ArchiveTape {
    /// The file's archive as a value tree. A large archive's `$top` values (a restoration
    /// archive's saved objects) are made on all processors, `stackSize` bytes of stack each.
    ///
    /// `deferringArchives`: a `$top` value that is a nested archive is left on the tape and made
    /// `deferredArchive` instead (see `DeferredStates`), for a reader that makes each when it
    /// needs it (`topValue(at:)`).
    func keyedArchive(concurrently: Bool, stackSize: Int, deferringArchives: Bool = false) -> KeyedArchive {
        let (first, count) = (root.first, root.memberCount)
        let keys = (0..<count).map { string(nodes[first + $0]) }
        // The values in runs that share their repeated strings: up to 64 values a run, and at
        // least 256 runs when there are 256 values (the least `DeepStack.map` spreads); fewer
        // values are made on this thread, in one run.
        let runLength = count < 256 ? max(1, count) : min(64, count / 256)
        let runs = (count + runLength - 1) / runLength
        let values = DeepStack.map(Array(0..<runs), concurrently: concurrently, stackSize: stackSize) { run -> [ArchiveValue] in
            var strings = RepeatedStrings()
            return ((run * runLength)..<min(count, (run + 1) * runLength)).map { position in
                let node = nodes[first + count + position]
                return deferringArchives && node.kind == .archive ? Self.deferredArchive : value(node, &strings)
            }
        }.flatMap { $0 }
        return KeyedArchive(top: ArchiveFields(keys: keys, values: values), version: .integer(KeyedArchive.archiverVersion))
    }

    /// What `keyedArchive(…, deferringArchives: true)` leaves for a nested archive in `$top`.
    static let deferredArchive = ArchiveValue.archive(KeyedArchive(top: .empty))

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

    private func archive(_ node: TapeNode, _ strings: inout RepeatedStrings) -> KeyedArchive {
        KeyedArchive(top: fields(node, &strings), version: .integer(KeyedArchive.archiverVersion))
    }

    private func value(_ node: TapeNode, _ strings: inout RepeatedStrings) -> ArchiveValue {
        if let scalar = node.scalar(wide: { wideIntegers[$0] }) { return scalar }
        switch node.kind {
        case .null, .boolean, .integer, .real, .float, .date, .cycle: preconditionFailure("a scalar")
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
        case .object:
            let objectClass = classes[node.classIndex]
            return .object(ArchiveObject(className: objectClass.name, classChain: objectClass.chain, classHints: objectClass.hints, fields: fields(node, &strings)))
        case .url:
            return .url(ArchiveURL(base: value(nodes[node.first + 1], &strings), relative: string(nodes[node.first])))
        case .archive: return .archive(archive(node, &strings))
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
