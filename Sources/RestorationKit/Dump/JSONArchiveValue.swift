/// The `dump --json` encoding of one archive value (schema version 1).
///
/// Plain JSON where JSON can say it exactly; otherwise an object tagged by a key that begins
/// with `$` (see the README and the man page for the list). Archive keys never begin with `$`,
/// so a field that does is written with one more `$` in front, and a dictionary with such a key
/// or with keys that are not strings is written as `{"$dictionary": [[key, value], …]}`.
struct JSONArchiveValue: Encodable, JSONNodeConvertible {
    let value: ArchiveValue

    init(_ value: ArchiveValue) {
        self.value = value
    }

    /// Integers JSON readers hold exactly as doubles: |n| ≤ 2^53.
    static let exactIntegerRange: ClosedRange<Int128> = -(1 << 53)...(1 << 53)

    func encode(to encoder: any Encoder) throws {
        try jsonNode.encode(to: encoder)
    }

    /// The encoding itself, built directly and lazily: going through `Encoder` containers for
    /// every value of a large archive costs more than decoding it.
    var jsonNode: JSONNode {
        Self.child(value)
    }

    /// The node for a value inside another: scalars at once, containers deferred.
    static func child(_ value: ArchiveValue) -> JSONNode {
        switch value {
        case .array, .set, .orderedSet, .dictionary, .url, .object, .archive: .deferred(.value(value))
        default: node(value)
        }
    }

    /// One level of the encoding of `value`.
    static func node(_ value: ArchiveValue) -> JSONNode {
        switch value {
        case .null:
            return .null
        case .string(let string):
            return .string(string)
        case .integer(let integer):
            return exactIntegerRange.contains(integer) ? .number(String(integer)) : tagged("$integer", .string(String(integer)))
        case .real(let real):
            return real.isFinite ? .number(real.description) : tagged("$real", .string(real.isNaN ? "nan" : (real < 0 ? "-inf" : "inf")))
        case .boolean(let boolean):
            return .bool(boolean)
        case .date(let seconds):
            if let iso = ReferenceDate.iso8601(seconds) {
                return tagged("$date", .string(iso))
            }
            return .object([("$date", .null), ("referenceSeconds", child(.real(seconds)))])
        case .data(let data):
            var members: [(key: String, value: JSONNode)] = [
                ("$data", .string(ByteFormatting.base64(data.bytes))), ("length", .number(String(data.bytes.count))),
            ]
            if let error = data.archiveError { members.append(("archiveError", .string(error))) }
            return .object(members)
        case .array(let elements):
            return .array(elements.map(child))
        case .set(let elements):
            return tagged("$set", .array(elements.map(child)))
        case .orderedSet(let elements):
            return tagged("$orderedSet", .array(elements.map(child)))
        case .dictionary(let dictionary):
            if let fields = dictionary.stringKeyed, !fields.keys.contains(where: { $0.hasPrefix("$") }),
               Set(fields.keys).count == fields.count {
                return JSONFields.node(fields)
            }
            return tagged("$dictionary", .array(dictionary.entries.map { .array([child($0.key), child($0.value)]) }))
        case .uuid(let bytes):
            return tagged("$uuid", .string(ByteFormatting.uuidString(bytes)))
        case .url(let url):
            return .object([("$url", .string(url.relative)), ("base", child(url.base))])
        case .object(let object):
            var members: [(key: String, value: JSONNode)] = [
                ("$class", .string(object.className)), ("$classes", .array(object.classChain.map { .string($0) })),
            ]
            for (key, field) in object.fields.entries {
                members.append((escapedFieldName(key), child(field)))
            }
            return .object(members)
        case .reference(let path):
            return tagged("$ref", .string(path))
        case .archive(let archive):
            return tagged("$archive", .deferred(.fields(archive.top)))
        case .cycle(let uid):
            return tagged("$cycle", .number(String(uid)))
        }
    }

    private static func tagged(_ tag: String, _ value: JSONNode) -> JSONNode {
        .object([(tag, value)])
    }

    static func escapedFieldName(_ key: String) -> String {
        key.hasPrefix("$") ? "$" + key : key
    }
}

/// String-keyed values written as one JSON object, keys as they are.
struct JSONFields: Encodable, JSONNodeConvertible {
    let fields: ArchiveFields

    init(_ fields: ArchiveFields) {
        self.fields = fields
    }

    func encode(to encoder: any Encoder) throws {
        try jsonNode.encode(to: encoder)
    }

    var jsonNode: JSONNode {
        .deferred(.fields(fields))
    }

    static func node(_ fields: ArchiveFields) -> JSONNode {
        .object(fields.entries.map { ($0, JSONArchiveValue.child($1)) })
    }
}

/// A coding key for keys known only at run time.
struct JSONKey: CodingKey, ExpressibleByStringLiteral {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) {
        stringValue = string
    }

    init(stringLiteral value: String) {
        stringValue = value
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        return nil
    }
}
