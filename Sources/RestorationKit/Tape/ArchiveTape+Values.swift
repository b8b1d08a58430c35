/// `ArchiveValue` trees made from a tape, for the readers that take values (the library's
/// `KeyedArchive`, the model).
extension ArchiveTape {
    /// The file's archive as a value tree. A large archive's `$top` values (a restoration
    /// archive's saved objects) are made on all processors, `stackSize` bytes of stack each.
    func keyedArchive(concurrently: Bool, stackSize: Int) -> KeyedArchive {
        let (first, count) = (root.first, root.memberCount)
        let keys = (0..<count).map { string(nodes[first + $0]) }
        let values = DeepStack.map(Array(0..<count), concurrently: concurrently, stackSize: stackSize) { value(nodes[first + count + $0]) }
        return KeyedArchive(top: ArchiveFields(keys: keys, values: values), version: .integer(KeyedArchive.archiverVersion))
    }

    func archive(_ node: TapeNode) -> KeyedArchive {
        KeyedArchive(top: fields(node), version: .integer(KeyedArchive.archiverVersion))
    }

    func value(_ node: TapeNode) -> ArchiveValue {
        switch node.kind {
        case .null: return .null
        case .boolean: return .boolean(node.payload != 0)
        case .integer:
            return node.flags.contains(.wide) ? .integer(wideIntegers[Int(node.payload)]) : .integer(Int128(Int64(bitPattern: node.payload)))
        case .real: return .real(Double(bitPattern: node.payload))
        case .float: return .float(Float(bitPattern: UInt32(truncatingIfNeeded: node.payload)))
        case .date: return .date(Double(bitPattern: node.payload))
        case .string: return .string(string(node))
        case .reference: return .reference(string(node))
        case .data:
            if node.flags.contains(.undecoded) {
                return .data(ArchiveData(bytes: source[node.offset..<(node.offset + node.memberCount)]))
            }
            let bytes = withBytes(of: node) { Array($0) }[...]
            return .data(ArchiveData(bytes: bytes, archiveError: node.flags.contains(.archiveError) ? dataErrors[TapeBytes.Location(node)] : nil))
        case .uuid: return .uuid(withBytes(of: node) { Array($0) })
        case .array: return .array(elements(node))
        case .set: return .set(elements(node))
        case .orderedSet: return .orderedSet(elements(node))
        case .dictionary:
            let (first, count) = (node.first, node.memberCount)
            var entries: [ArchiveDictionary.Entry] = []
            entries.reserveCapacity(count)
            for position in 0..<count {
                entries.append(.init(key: value(nodes[first + position]), value: value(nodes[first + count + position])))
            }
            return .dictionary(ArchiveDictionary(entries: entries))
        case .object:
            let objectClass = classes[node.classIndex]
            return .object(ArchiveObject(className: objectClass.name, classChain: objectClass.chain, classHints: objectClass.hints, fields: fields(node)))
        case .url:
            return .url(ArchiveURL(base: value(nodes[node.first + 1]), relative: string(nodes[node.first])))
        case .archive: return .archive(archive(node))
        case .cycle: return .cycle(node.payload)
        }
    }

    /// A string or reference node's bytes as a string.
    func string(_ node: TapeNode) -> String {
        withBytes(of: node) { String(decoding: $0, as: UTF8.self) }
    }

    private func elements(_ node: TapeNode) -> [ArchiveValue] {
        let first = node.first
        var elements: [ArchiveValue] = []
        elements.reserveCapacity(node.memberCount)
        for position in 0..<node.memberCount {
            elements.append(value(nodes[first + position]))
        }
        return elements
    }

    /// An object's or archive's named members.
    private func fields(_ node: TapeNode) -> ArchiveFields {
        let (first, count) = (node.first, node.memberCount)
        var keys: [String] = []
        var values: [ArchiveValue] = []
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
        for position in 0..<count {
            keys.append(string(nodes[first + position]))
            values.append(value(nodes[first + count + position]))
        }
        return ArchiveFields(keys: keys, values: values)
    }
}
