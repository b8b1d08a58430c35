/// Values of a tape: views of its nodes (see `ArchiveValue`), for the library's `KeyedArchive`
/// and the model.
extension ArchiveTape {
    /// The file's archive: its `$top` keys, with their values as views.
    var keyedArchive: KeyedArchive {
        var archive = KeyedArchive(top: fields(root), version: KeyedArchive.archiverVersion)
        archive.repeatedRootKeys = Dictionary(repeatedRootKeys, uniquingKeysWith: max)
        return archive
    }

    /// The node of the file's `$top` value at `position`.
    func topNode(at position: Int) -> TapeNode {
        nodes[root.first + root.memberCount + position]
    }

    /// The value of `node`: a view of it.
    func value(_ node: TapeNode) -> ArchiveValue {
        ArchiveValue(node, on: self)
    }

    /// A node's value, or a dictionary of some of a dictionary node's entries, put on a tape of
    /// its own.
    func value(_ value: TapeValue) -> ArchiveValue {
        switch value {
        case .node(let node):
            return ArchiveValue(node, on: self)
        case .entries(let dictionary, let positions):
            let (first, count) = (dictionary.first, dictionary.memberCount)
            return .dictionary(ArchiveDictionary(entries: positions.map { position in
                .init(key: ArchiveValue(nodes[first + position], on: self), value: ArchiveValue(nodes[first + count + position], on: self))
            }))
        }
    }

    /// The state and views of a saved object whose entry is the nested archive `node`, its
    /// views split off (see `TapeObject.init(splitting:in:)`).
    func objectContent(splitting node: TapeNode) -> (state: ArchiveFields, views: [RestorationView]) {
        withView { view in
            let onTape = TapeObject(splitting: node, in: view)
            let state = onTape.state!
            var keys = state.positions.map { string(view.member($0, of: state.archive)) }
            var values = state.positions.map { ArchiveValue(view.value($0, of: state.archive), on: self) }
            if let (dictionary, positions) = state.leftovers {
                keys.append(RestorationKeys.viewRestorationData)
                values.append(value(.entries(of: dictionary, positions: positions)))
            }
            let views = onTape.views.map { saved in RestorationView(identifierPath: IdentifierPath(string(saved.path)), state: fields(saved.archive)) }
            return (ArchiveFields(keys: keys, values: values), views)
        }
    }

    /// A string or reference node's bytes as a string.
    func string(_ node: TapeNode) -> String {
        withBytes(of: node) { String(decoding: $0, as: UTF8.self) }
    }

    /// An object's or archive's named members.
    private func fields(_ node: TapeNode) -> ArchiveFields {
        let (first, count) = (node.first, node.memberCount)
        return ArchiveFields(keys: (0..<count).map { string(nodes[first + $0]) }, values: (0..<count).map { ArchiveValue(nodes[first + count + $0], on: self) })
    }
}
