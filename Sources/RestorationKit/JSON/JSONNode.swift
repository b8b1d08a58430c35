/// A JSON value, as written: numbers keep the exact text they will be printed with.
package enum JSONNode {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONNode])
    /// Members in encoding order; the writer sorts them.
    case object([(key: String, value: JSONNode)])
    /// Archive content not yet turned into text: the writer encodes it when it gets there, so
    /// that the nodes of a large archive never exist.
    case deferred(JSONDeferred)
}

extension JSONNode {
    var isDeferred: Bool {
        if case .deferred = self { return true }
        return false
    }
}

/// Archive content that is encoded only when it is written, straight into the writer's text
/// from the nodes of a tape (see `JSONTapeValue`), a value's own tape included.
package enum JSONDeferred {
    /// A value of an archive's tape (a library value, a change `diff` found there).
    case onTape(TapeValueReference)
    /// An archive's `appState`, as one object, keys as they are, from the archive's tape.
    case appState(RestorationArchive)
    /// An archive's saved objects, as an array, their states and views from the archive's tape.
    case savedObjects(RestorationArchive)
    /// An array of strings: a document's identifier paths, tens of thousands of them.
    case identifierPaths([IdentifierPath])
    /// A validation report's findings, as an array of objects: hundreds of thousands of them
    /// fit under the output's limit.
    case diagnostics([Diagnostic])

    /// A finding's members (`docs/json.md`).
    private static let diagnosticKeys = ["severity", "rule", "identifierPath", "key", "message"]

    func write(to writer: inout JSONTextWriter) {
        switch self {
        case .onTape(let reference):
            reference.tape.withView { view in
                switch reference.value {
                case .node(let node): JSONTapeValue(view: view).write(node, to: &writer)
                case .entries(let dictionary, let positions): JSONTapeValue(view: view).writeDictionary(dictionary, positions: positions, to: &writer)
                }
            }
        case .appState(let archive):
            archive.withAppStateOnTape { state, view in JSONTapeValue(view: view).writeState(state, to: &writer) }
        case .savedObjects(let archive):
            writer.writeSavedObjects(archive)
        case .identifierPaths(let paths):
            writer.writeArray(count: paths.count) { writer, index in writer.writeString(paths[index].rawValue) }
        case .diagnostics(let diagnostics):
            writer.writeArray(count: diagnostics.count) { writer, index in
                let diagnostic = diagnostics[index]
                writer.writeObject(keys: Self.diagnosticKeys) { writer, member in
                    switch member {
                    case 0: writer.writeString(diagnostic.severity.rawValue)
                    case 1: writer.writeString(diagnostic.rule.rawValue)
                    case 2: writer.writeString(diagnostic.identifierPath?.rawValue)
                    case 3: writer.writeString(diagnostic.key)
                    default: writer.writeString(diagnostic.message)
                    }
                }
            }
        }
    }
}

/// What has a JSON form: the command documents, their parts and the values in them.
package protocol JSONRepresentable {
    var jsonNode: JSONNode { get }
}

extension JSONNode: JSONRepresentable {
    package var jsonNode: JSONNode { self }

    /// An object of `members`, in any order: the writer sorts them.
    static func members(_ members: KeyValuePairs<String, any JSONRepresentable>) -> JSONNode {
        .object(members.map { ($0.key, $0.value.jsonNode) })
    }
}

extension String: JSONRepresentable {
    package var jsonNode: JSONNode { .string(self) }
}

extension Bool: JSONRepresentable {
    package var jsonNode: JSONNode { .bool(self) }
}

extension Int: JSONRepresentable {
    package var jsonNode: JSONNode { .number(String(self)) }
}

extension Int64: JSONRepresentable {
    package var jsonNode: JSONNode { .number(String(self)) }
}

extension Optional: JSONRepresentable where Wrapped: JSONRepresentable {
    package var jsonNode: JSONNode { map(\.jsonNode) ?? .null }
}

extension Array: JSONRepresentable where Element: JSONRepresentable {
    package var jsonNode: JSONNode { .array(map(\.jsonNode)) }
}

extension Dictionary: JSONRepresentable where Key == String, Value: JSONRepresentable {
    package var jsonNode: JSONNode { .object(map { ($0.key, $0.value.jsonNode) }) }
}
