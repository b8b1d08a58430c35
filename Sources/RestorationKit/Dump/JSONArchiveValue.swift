/// The `dump --json` encoding of one archive value (schema version 1).
///
/// Plain JSON where JSON can say it exactly; otherwise an object tagged by a key that begins
/// with `$` (see the README and the man page for the list). Archive keys never begin with `$`,
/// so a field that does is written with one more `$` in front, and a dictionary with such a key
/// or with keys that are not strings is written as `{"$dictionary": [[key, value], …]}`.
struct JSONArchiveValue: Encodable {
    let value: ArchiveValue

    init(_ value: ArchiveValue) {
        self.value = value
    }

    /// Integers JSON readers hold exactly as doubles: |n| ≤ 2^53.
    static let exactIntegerRange: ClosedRange<Int128> = -(1 << 53)...(1 << 53)

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .integer(let integer):
            try Self.encodeInteger(integer, to: encoder)
        case .real(let real):
            try Self.encodeReal(real, to: encoder)
        case .boolean(let boolean):
            var container = encoder.singleValueContainer()
            try container.encode(boolean)
        case .date(let seconds):
            var container = encoder.container(keyedBy: JSONKey.self)
            if let iso = ReferenceDate.iso8601(seconds) {
                try container.encode(iso, forKey: "$date")
            } else {
                try container.encodeNil(forKey: "$date")
                try container.encode(JSONArchiveValue(.real(seconds)), forKey: "referenceSeconds")
            }
        case .data(let data):
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(ByteFormatting.base64(data.bytes), forKey: "$data")
            try container.encode(data.bytes.count, forKey: "length")
            try container.encodeIfPresent(data.archiveError, forKey: "archiveError")
        case .array(let elements):
            try Self.encodeElements(elements, to: encoder)
        case .set(let elements):
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(elements.map(JSONArchiveValue.init), forKey: "$set")
        case .orderedSet(let elements):
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(elements.map(JSONArchiveValue.init), forKey: "$orderedSet")
        case .dictionary(let dictionary):
            try Self.encodeDictionary(dictionary, to: encoder)
        case .uuid(let bytes):
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(ByteFormatting.uuidString(bytes), forKey: "$uuid")
        case .url(let url):
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(url.relative, forKey: "$url")
            try container.encode(JSONArchiveValue(url.base), forKey: "base")
        case .object(let object):
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(object.className, forKey: "$class")
            try container.encode(object.classChain, forKey: "$classes")
            for (key, field) in object.fields.entries {
                try container.encode(JSONArchiveValue(field), forKey: JSONKey(Self.escapedFieldName(key)))
            }
        case .reference(let path):
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(path, forKey: "$ref")
        case .archive(let archive):
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(JSONFields(archive.top), forKey: "$archive")
        case .cycle(let uid):
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(uid, forKey: "$cycle")
        }
    }

    static func escapedFieldName(_ key: String) -> String {
        key.hasPrefix("$") ? "$" + key : key
    }

    private static func encodeInteger(_ integer: Int128, to encoder: any Encoder) throws {
        if exactIntegerRange.contains(integer) {
            var container = encoder.singleValueContainer()
            try container.encode(Int64(integer))
        } else {
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(String(integer), forKey: "$integer")
        }
    }

    private static func encodeReal(_ real: Double, to encoder: any Encoder) throws {
        if real.isFinite {
            var container = encoder.singleValueContainer()
            try container.encode(real)
        } else {
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(real.isNaN ? "nan" : (real < 0 ? "-inf" : "inf"), forKey: "$real")
        }
    }

    private static func encodeElements(_ elements: [ArchiveValue], to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in elements {
            try container.encode(JSONArchiveValue(element))
        }
    }

    private static func encodeDictionary(_ dictionary: ArchiveDictionary, to encoder: any Encoder) throws {
        if let fields = dictionary.stringKeyed, !fields.keys.contains(where: { $0.hasPrefix("$") }),
           Set(fields.keys).count == fields.count {
            var container = encoder.singleValueContainer()
            try container.encode(JSONFields(fields))
            return
        }
        var container = encoder.container(keyedBy: JSONKey.self)
        let pairs = dictionary.entries.map { [JSONArchiveValue($0.key), JSONArchiveValue($0.value)] }
        try container.encode(pairs, forKey: "$dictionary")
    }
}

/// String-keyed values written as one JSON object, keys as they are.
struct JSONFields: Encodable {
    let fields: ArchiveFields

    init(_ fields: ArchiveFields) {
        self.fields = fields
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        for (key, value) in fields.entries {
            try container.encode(JSONArchiveValue(value), forKey: JSONKey(key))
        }
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
