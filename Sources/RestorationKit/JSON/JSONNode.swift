/// A JSON value, as written: numbers keep the exact text they will be printed with.
enum JSONNode {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONNode])
    /// Members in encoding order; the writer sorts them.
    case object([(key: String, value: JSONNode)])
    /// An archive value not yet turned into nodes: the writer expands it one level at a time,
    /// so that the nodes of a large archive never exist all at once.
    case deferred(JSONDeferred)
}

extension JSONNode {
    var isDeferred: Bool {
        if case .deferred = self { return true }
        return false
    }
}

/// Archive content that is encoded only when it is written, straight into the sink.
enum JSONDeferred {
    case value(ArchiveValue)
    case fields(ArchiveFields)
    case restorationObject(RestorationObject)
    /// A document's saved objects, as an array: the states some of them left on a tape (see
    /// `DeferredStates`), and the objects, whose states and views are not read where they did.
    case savedObjects(DeferredStates, [RestorationObject])
    /// An array of strings: a document's identifier paths, tens of thousands of them.
    case identifierPaths([IdentifierPath])

    func write<Sink: JSONSink>(to sink: inout Sink) {
        switch self {
        case .value(let value): JSONArchiveValue.write(value, to: &sink)
        case .fields(let fields): JSONFields.write(fields, to: &sink)
        case .restorationObject(let object): ObjectDocument.write(object, to: &sink)
        case .savedObjects(let states, let objects):
            sink.writeSavedObjects(states, objects)
        case .identifierPaths(let paths):
            sink.writeArray(count: paths.count) { sink, index in sink.writeString(paths[index].rawValue) }
        }
    }

    /// The whole content as nodes.
    var node: JSONNode {
        JSONNodeBuilder.build { write(to: &$0) }
    }
}

/// A value that knows its JSON form and can skip the `Encoder` machinery.
protocol JSONNodeConvertible {
    var jsonNode: JSONNode { get }
}

extension JSONNode: Encodable {
    /// Writes the node through any `Encoder`, so types built on nodes stay `Encodable`.
    func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let text):
            var container = encoder.singleValueContainer()
            if let integer = Int64(text) { try container.encode(integer) } else { try container.encode(Double(text) ?? 0) }
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let members):
            var container = encoder.container(keyedBy: JSONKey.self)
            for member in members { try container.encode(member.value, forKey: JSONKey(member.key)) }
        case .deferred(let content):
            try content.node.encode(to: encoder)
        }
    }
}
