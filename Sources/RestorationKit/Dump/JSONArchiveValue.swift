/// The `dump --json` encoding of one archive value (schema version 1).
///
/// Plain JSON where JSON can say it exactly; otherwise an object tagged by a key that begins
/// with `$` (see docs/json.md and the man page for the list). Archive keys never begin with `$`,
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

    /// Deferred: the writer encodes the value straight into its text when it gets there, and
    /// going through `Encoder` containers for every value of a large archive costs more than
    /// decoding it.
    var jsonNode: JSONNode {
        .deferred(.value(value))
    }

    /// The encoding itself.
    static func write<Sink: JSONSink>(_ value: ArchiveValue, to sink: inout Sink) {
        switch value {
        case .null:
            sink.writeNull()
        case .string(let string):
            sink.writeString(string)
        case .integer(let integer):
            if exactIntegerRange.contains(integer) {
                sink.writeInteger(Int64(integer))
            } else {
                sink.writeTagged("$integer") { $0.writeString(String(integer)) }
            }
        case .float(let float) where float.isFinite:
            // The float's own shortest digits: what was written, not its widening.
            sink.writeNumber(float.description)
        case .float(let float):
            write(.real(Double(float)), to: &sink)
        case .real(let real):
            if real.isFinite {
                sink.writeNumber(real.description)
            } else {
                sink.writeTagged("$real") { $0.writeString(real.isNaN ? "nan" : (real < 0 ? "-inf" : "inf")) }
            }
        case .boolean(let boolean):
            sink.writeBool(boolean)
        case .date(let seconds):
            if let iso = ReferenceDate.iso8601(seconds) {
                sink.writeTagged("$date") { $0.writeString(iso) }
            } else {
                sink.writeObject(keys: ["$date", "referenceSeconds"]) { sink, index in
                    if index == 0 { sink.writeNull() } else { write(.real(seconds), to: &sink) }
                }
            }
        case .data(let data):
            let keys = data.archiveError == nil ? ["$data", "length"] : ["$data", "length", "archiveError"]
            sink.writeObject(keys: keys) { sink, index in
                switch index {
                case 0: sink.writeString(ByteFormatting.base64(data.bytes))
                case 1: sink.writeInteger(Int64(data.bytes.count))
                default: sink.writeString(data.archiveError)
                }
            }
        case .array(let elements):
            writeElements(elements, to: &sink)
        case .set(let elements):
            sink.writeTagged("$set") { writeElements(elements, to: &$0) }
        case .orderedSet(let elements):
            sink.writeTagged("$orderedSet") { writeElements(elements, to: &$0) }
        case .dictionary(let dictionary):
            if let keys = plainKeys(dictionary) {
                sink.writeObject(keys: keys) { sink, index in write(dictionary.entries[index].value, to: &sink) }
            } else {
                sink.writeTagged("$dictionary") { sink in
                    sink.writeArray(count: dictionary.entries.count) { sink, index in
                        let entry = dictionary.entries[index]
                        writeElements([entry.key, entry.value], to: &sink)
                    }
                }
            }
        case .uuid(let bytes):
            sink.writeTagged("$uuid") { $0.writeString(ByteFormatting.uuidString(bytes)) }
        case .url(let url):
            sink.writeObject(keys: ["$url", "base"]) { sink, index in
                if index == 0 { sink.writeString(url.relative) } else { write(url.base, to: &sink) }
            }
        case .object(let object):
            let fields = object.fields
            let hints = object.classHints
            let classKeys = hints == nil ? ["$class", "$classes"] : ["$class", "$classes", "$classhints"]
            sink.writeObject(keys: classKeys + fields.keys.map(escapedFieldName)) { sink, index in
                switch index {
                case 0: sink.writeString(object.className)
                case 1: sink.writeArray(count: object.classChain.count) { sink, position in sink.writeString(object.classChain[position]) }
                case 2 where hints != nil: sink.writeArray(count: hints!.count) { sink, position in sink.writeString(hints![position]) }
                default: write(fields.values[index - classKeys.count], to: &sink)
                }
            }
        case .reference(let path):
            sink.writeTagged("$ref") { $0.writeString(path) }
        case .archive(let archive):
            sink.writeTagged("$archive") { JSONFields.write(archive.top, to: &$0) }
        case .cycle(let uid):
            sink.writeTagged("$cycle") { $0.writeNumber(String(uid)) }
        }
    }

    private static func writeElements<Sink: JSONSink>(_ elements: [ArchiveValue], to sink: inout Sink) {
        sink.writeArray(count: elements.count) { sink, index in write(elements[index], to: &sink) }
    }

    /// The keys of a dictionary that can be written as a plain JSON object: all strings, none
    /// beginning with `$`, no two the same. Nil otherwise.
    private static func plainKeys(_ dictionary: ArchiveDictionary) -> [String]? {
        var keys: [String] = []
        keys.reserveCapacity(dictionary.entries.count)
        for entry in dictionary.entries {
            guard case .string(let key) = entry.key, !key.startsWith(byte: UInt8(ascii: "$")) else { return nil }
            keys.append(key)
        }
        return hasDuplicates(keys) ? nil : keys
    }

    /// Keys are the same when their bytes are (see `ExactText`). Small dictionaries, the usual
    /// case, are checked pairwise: cheaper than hashing.
    private static func hasDuplicates(_ keys: [String]) -> Bool {
        guard keys.count > 16 else {
            for first in keys.indices {
                for second in keys.indices where second > first && keys[first].isExactly(keys[second]) {
                    return true
                }
            }
            return false
        }
        return Set(keys.lazy.map(ExactText.init)).count != keys.count
    }

    /// A key whose first byte is `$` gets one more in front (a `$` before a combining mark too:
    /// readers see the byte, not the `Character`).
    static func escapedFieldName(_ key: String) -> String {
        key.startsWith(byte: UInt8(ascii: "$")) ? "$" + key : key
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

    static func write<Sink: JSONSink>(_ fields: ArchiveFields, to sink: inout Sink) {
        sink.writeObject(keys: fields.keys) { sink, index in JSONArchiveValue.write(fields.values[index], to: &sink) }
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
