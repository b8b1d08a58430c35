/// Turns archived objects of Foundation's common classes into natural values.
///
/// Each mapping applies only when the object has exactly the fields Foundation writes, with the
/// types it writes; anything else stays an `ArchiveObject`, so no field can be lost by a mapping.
enum FoundationValues {
    /// The classes with a natural value. The decoder finds a class's kind once per class
    /// description, not once per object.
    enum Kind {
        case array, set, orderedSet, dictionary, string, data, date, uuid, url, identifierPathProxy
    }

    static func kind(ofClass className: String) -> Kind? {
        switch className {
        case "NSArray", "NSMutableArray": .array
        case "NSSet", "NSMutableSet": .set
        case "NSOrderedSet", "NSMutableOrderedSet": .orderedSet
        case "NSDictionary", "NSMutableDictionary": .dictionary
        case "NSString", "NSMutableString": .string
        case "NSData", "NSMutableData": .data
        case "NSDate": .date
        case "NSUUID": .uuid
        case "NSURL": .url
        case "_UIObjectIdentifierPathProxy": .identifierPathProxy
        default: nil
        }
    }

    static func naturalValue(_ kind: Kind, fields: ArchiveFields) -> ArchiveValue? {
        switch kind {
        case .array:
            if let elements = elements(fields) { return .array(elements) }
        case .set:
            if let elements = elements(fields) { return .set(elements) }
        case .orderedSet:
            if let elements = elements(fields) { return .orderedSet(elements) }
        case .dictionary:
            return dictionary(fields)
        case .string:
            if case .string(let string)? = only("NS.string", in: fields) { return .string(string) }
        case .data:
            switch only("NS.data", in: fields) {
            case .data(let data)?: return .data(data)
            case .archive(let archive)?: return .archive(archive)
            default: break
            }
        case .date:
            switch only("NS.time", in: fields) {
            case .real(let seconds)?: return .date(seconds)
            case .float(let seconds)?: return .date(Double(seconds))
            case .integer(let seconds)?: return .date(Double(seconds))
            default: break
            }
        case .uuid:
            if case .data(let data)? = only("NS.uuidbytes", in: fields), data.bytes.count == 16, data.archiveError == nil {
                return .uuid(Array(data.bytes))
            }
        case .url:
            return url(fields)
        case .identifierPathProxy:
            if case .string(let path)? = only(RestorationKeys.proxyPath, in: fields) {
                return .reference(path)
            }
        }
        return nil
    }

    /// The value of `key` when it is the object's only field.
    private static func only(_ key: String, in fields: ArchiveFields) -> ArchiveValue? {
        guard fields.count == 1, fields.keys[0] == key else { return nil }
        return fields.values[0]
    }

    /// A collection's elements: `NS.objects` (an array), or one field per element named
    /// `NS.object.0` … `NS.object.N−1`, in any order, which is how Foundation (Apple's and the
    /// one on Linux) writes NSOrderedSet; an empty one has no field at all.
    static func elements(_ fields: ArchiveFields) -> [ArchiveValue]? {
        if case .array(let elements)? = only("NS.objects", in: fields) { return elements }
        var elements = [ArchiveValue?](repeating: nil, count: fields.count)
        for (key, value) in fields.entries {
            guard let index = elementIndex(key), index < elements.count, elements[index] == nil else { return nil }
            elements[index] = value
        }
        return elements.map { $0! }
    }

    /// n for a key `NS.object.n` written as Foundation writes it (no sign, no leading zero).
    static func elementIndex(_ key: String) -> Int? {
        guard key.hasPrefix("NS.object.") else { return nil }
        let digits = key.utf8.dropFirst(10)
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              digits.first != UInt8(ascii: "0") || digits.count == 1
        else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    private static func dictionary(_ fields: ArchiveFields) -> ArchiveValue? {
        guard fields.count == 2,
              case .array(let keys)? = fields["NS.keys"],
              case .array(let values)? = fields["NS.objects"],
              keys.count == values.count
        else { return nil }
        let entries = zip(keys, values).map { ArchiveDictionary.Entry(key: $0, value: $1) }
        return .dictionary(ArchiveDictionary(entries: entries))
    }

    private static func url(_ fields: ArchiveFields) -> ArchiveValue? {
        guard case .string(let relative)? = fields["NS.relative"] else { return nil }
        let base = fields["NS.base"] ?? .null
        guard fields.count == (fields["NS.base"] == nil ? 1 : 2) else { return nil }
        switch base {
        case .null, .url: return .url(ArchiveURL(base: base, relative: relative))
        default: return nil
        }
    }
}
