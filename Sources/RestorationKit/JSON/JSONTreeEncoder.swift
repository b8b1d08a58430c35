/// Encodes `Encodable` values into a `JSONNode` tree.
///
/// Foundation's JSONEncoder stops at 512 levels of nesting, fewer than an archive may use within
/// the decoder's limits, and its errors print the whole value; this encoder has neither problem
/// and writes reals in Swift's shortest round-trip form (`1.0` stays a real).
struct JSONTreeEncoder {
    func encode<T: Encodable>(_ value: T) throws -> JSONNode {
        let slot = JSONSlot()
        try value.encode(to: TreeEncoder(slot: slot, codingPath: []))
        return slot.resolve()
    }
}

/// Where one value goes: filled by a single value, or by a container being built.
final class JSONSlot {
    enum Content {
        case empty
        case node(JSONNode)
        case object(ObjectBuilder)
        case array(ArrayBuilder)
    }

    var content = Content.empty

    func resolve() -> JSONNode {
        switch content {
        case .empty: return .object([])
        case .node(let node): return node
        case .object(let builder): return .object(builder.members.map { ($0.key, $0.slot.resolve()) })
        case .array(let builder): return .array(builder.elements.map { $0.resolve() })
        }
    }

    var objectBuilder: ObjectBuilder {
        if case .object(let builder) = content { return builder }
        let builder = ObjectBuilder()
        content = .object(builder)
        return builder
    }

    var arrayBuilder: ArrayBuilder {
        if case .array(let builder) = content { return builder }
        let builder = ArrayBuilder()
        content = .array(builder)
        return builder
    }
}

final class ObjectBuilder {
    var members: [(key: String, slot: JSONSlot)] = []

    func slot(for key: String) -> JSONSlot {
        let slot = JSONSlot()
        members.append((key, slot))
        return slot
    }
}

final class ArrayBuilder {
    var elements: [JSONSlot] = []

    func nextSlot() -> JSONSlot {
        let slot = JSONSlot()
        elements.append(slot)
        return slot
    }
}

enum JSONNumbers {
    static func node(_ value: Double, at path: [any CodingKey]) throws -> JSONNode {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "JSON has no number \(value)"))
        }
        return .number(value.description)
    }
}

private struct TreeEncoder: Encoder {
    let slot: JSONSlot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(builder: slot.objectBuilder, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(builder: slot.arrayBuilder, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(slot: slot, codingPath: codingPath)
    }
}

/// Encodes one value into a slot; every container funnels its values through here.
private func encodeValue<T: Encodable>(_ value: T, into slot: JSONSlot, path: [any CodingKey]) throws {
    switch value {
    case let convertible as any JSONNodeConvertible: slot.content = .node(convertible.jsonNode)
    case let string as String: slot.content = .node(.string(string))
    case let bool as Bool: slot.content = .node(.bool(bool))
    case let double as Double: slot.content = .node(try JSONNumbers.node(double, at: path))
    case let float as Float: slot.content = .node(try JSONNumbers.node(Double(float), at: path))
    case let integer as any BinaryInteger: slot.content = .node(.number(String(describing: integer)))
    default: try value.encode(to: TreeEncoder(slot: slot, codingPath: path))
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let builder: ObjectBuilder
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        builder.slot(for: key.stringValue).content = .node(.null)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encodeValue(value, into: builder.slot(for: key.stringValue), path: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedContainer<NestedKey>(builder: builder.slot(for: key.stringValue).objectBuilder, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        UnkeyedContainer(builder: builder.slot(for: key.stringValue).arrayBuilder, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        TreeEncoder(slot: builder.slot(for: "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(slot: builder.slot(for: key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let builder: ArrayBuilder
    let codingPath: [any CodingKey]
    var count: Int { builder.elements.count }

    mutating func encodeNil() throws {
        builder.nextSlot().content = .node(.null)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encodeValue(value, into: builder.nextSlot(), path: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedContainer<NestedKey>(builder: builder.nextSlot().objectBuilder, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(builder: builder.nextSlot().arrayBuilder, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        TreeEncoder(slot: builder.nextSlot(), codingPath: codingPath)
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let slot: JSONSlot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {
        slot.content = .node(.null)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encodeValue(value, into: slot, path: codingPath)
    }
}
