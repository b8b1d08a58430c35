/// Where a JSON value goes, one call per value. The `dump --json` encoding of archive values is
/// written once, against this protocol: `JSONTextWriter` turns the calls straight into text, and
/// `JSONNodeBuilder` into a `JSONNode` for the rare caller that needs one.
///
/// Containers hand their elements over as a closure called once per index, so that a sink may
/// take them in any order: the writer takes object members sorted by key.
protocol JSONSink {
    mutating func writeNull()
    mutating func writeBool(_ value: Bool)
    mutating func writeInteger(_ value: Int64)
    /// A number already in its JSON form.
    mutating func writeNumber(_ text: String)
    mutating func writeString(_ text: String)
    mutating func writeArray(count: Int, _ element: (inout Self, Int) -> Void)
    /// An object whose member `i` is named `keys[i]`; duplicate keys are kept.
    mutating func writeObject(keys: [String], _ value: (inout Self, Int) -> Void)
    /// A node built earlier (the documents around the archive values are built as nodes).
    mutating func write(_ node: JSONNode)
    /// See `JSONDeferred.savedObjects`.
    mutating func writeSavedObjects(_ states: DeferredStates, _ objects: [RestorationObject])
    /// A path's components, as an array of strings.
    mutating func writeComponents(of path: IdentifierPath)
}

extension JSONSink {
    /// An object with a single member.
    mutating func writeTagged(_ tag: String, _ value: (inout Self) -> Void) {
        writeObject(keys: [tag]) { sink, _ in value(&sink) }
    }

    mutating func writeString(_ text: String?) {
        if let text { writeString(text) } else { writeNull() }
    }

    /// The default walk over a node; deferred content is written through the same sink.
    mutating func writeNode(_ node: JSONNode) {
        switch node {
        case .null: writeNull()
        case .bool(let value): writeBool(value)
        case .number(let text): writeNumber(text)
        case .string(let text): writeString(text)
        case .array(let elements): writeArray(count: elements.count) { sink, index in sink.write(elements[index]) }
        case .object(let members): writeObject(keys: members.map(\.key)) { sink, index in sink.write(members[index].value) }
        case .deferred(let content): content.write(to: &self)
        }
    }
}

/// Builds a `JSONNode` from sink calls, members in the order given.
struct JSONNodeBuilder: JSONSink {
    private(set) var node = JSONNode.null

    static func build(_ body: (inout JSONNodeBuilder) -> Void) -> JSONNode {
        var builder = JSONNodeBuilder()
        body(&builder)
        return builder.node
    }

    mutating func writeNull() { node = .null }
    mutating func writeBool(_ value: Bool) { node = .bool(value) }
    mutating func writeInteger(_ value: Int64) { node = .number(String(value)) }
    mutating func writeNumber(_ text: String) { node = .number(text) }
    mutating func writeString(_ text: String) { node = .string(text) }

    mutating func writeArray(count: Int, _ element: (inout JSONNodeBuilder, Int) -> Void) {
        node = .array((0..<count).map { index in Self.build { element(&$0, index) } })
    }

    mutating func writeObject(keys: [String], _ value: (inout JSONNodeBuilder, Int) -> Void) {
        node = .object(keys.indices.map { index in (keys[index], Self.build { value(&$0, index) }) })
    }

    mutating func write(_ node: JSONNode) {
        if case .deferred(let content) = node {
            content.write(to: &self)
        } else {
            self.node = node
        }
    }

    /// Each object made whole from the tape: the same value (the tests compare the two).
    mutating func writeSavedObjects(_ states: DeferredStates, _ objects: [RestorationObject]) {
        var strings = RepeatedStrings()
        writeArray(count: objects.count) { sink, index in
            ObjectDocument.write(states.whole(objects[index], at: index, sharing: &strings), to: &sink)
        }
    }

    mutating func writeComponents(of path: IdentifierPath) {
        let components = path.rawComponents
        writeArray(count: components.count) { sink, index in sink.writeString(components[index]) }
    }
}
