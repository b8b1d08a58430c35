/// A decoded keyed-archive value: the typed tree `KeyedArchiveDecoder` builds.
///
/// Foundation's classes become natural values (arrays, dictionaries, dates, URLs …); every
/// other class becomes an `ArchiveObject` that keeps its class chain and all its fields.
///
/// Only the cases with large payloads are `indirect`: a scalar is stored in place, without a
/// heap box of its own (an archive holds millions of them).
public enum ArchiveValue: Sendable {
    /// `$null`: a nil object.
    case null
    case string(String)
    case integer(Int128)
    case real(Double)
    /// A 4-byte real (`encodeFloat:forKey:`), at its own precision.
    case float(Float)
    case boolean(Bool)
    /// Seconds since 2001-01-01T00:00:00Z.
    case date(Double)
    indirect case data(ArchiveData)
    /// NSArray, NSMutableArray, or a plain property-list array.
    case array([ArchiveValue])
    /// NSSet, NSMutableSet: the archive's order is kept, equality respects it.
    case set([ArchiveValue])
    case orderedSet([ArchiveValue])
    /// NSDictionary, NSMutableDictionary, or a plain property-list dictionary.
    case dictionary(ArchiveDictionary)
    /// NSUUID: 16 bytes.
    case uuid([UInt8])
    indirect case url(ArchiveURL)
    indirect case object(ArchiveObject)
    /// A `_UIObjectIdentifierPathProxy`: a reference to the object saved under this identifier path.
    case reference(String)
    /// NSData that holds a keyed archive, decoded.
    indirect case archive(KeyedArchive)
    /// A reference back to an object that is still being decoded (the UID it has in `$objects`).
    case cycle(UInt64)

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var integerValue: Int128? {
        if case .integer(let value) = self { return value }
        return nil
    }

    public var archiveValue: KeyedArchive? {
        if case .archive(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    /// A real number, 8-byte or 4-byte (`encodeFloat:`) alike.
    public var doubleValue: Double? {
        switch self {
        case .real(let value): value
        case .float(let value): Double(value)
        default: nil
        }
    }

    /// A date, in seconds since 2001-01-01T00:00:00Z.
    public var dateValue: Double? {
        if case .date(let value) = self { return value }
        return nil
    }

    public var dataValue: ArraySlice<UInt8>? {
        if case .data(let value) = self { return value.bytes }
        return nil
    }

    /// A UUID's 16 bytes.
    public var uuidValue: [UInt8]? {
        if case .uuid(let value) = self { return value }
        return nil
    }

    public var urlValue: ArchiveURL? {
        if case .url(let value) = self { return value }
        return nil
    }

    /// The identifier path an object-identifier proxy refers to.
    public var referenceValue: IdentifierPath? {
        if case .reference(let path) = self { return IdentifierPath(path) }
        return nil
    }

    /// The elements of an array, a set or an ordered set, in the archive's order.
    public var elements: [ArchiveValue]? {
        switch self {
        case .array(let elements), .set(let elements), .orderedSet(let elements): elements
        default: nil
        }
    }

    public var dictionaryValue: ArchiveDictionary? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    public var objectValue: ArchiveObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// An object's fields, or a dictionary whose keys are all strings, in order (a repeated
    /// key kept).
    public var fields: ArchiveFields? {
        switch self {
        case .object(let object): object.fields
        case .dictionary(let dictionary): dictionary.stringKeyed
        default: nil
        }
    }

    /// A short name of the value's kind, for messages ("a string", "an NSArray").
    public var kindDescription: String {
        switch self {
        case .null: TapeKind.null.valueDescription()
        case .string: TapeKind.string.valueDescription()
        case .integer: TapeKind.integer.valueDescription()
        case .real: TapeKind.real.valueDescription()
        case .float: TapeKind.float.valueDescription()
        case .boolean: TapeKind.boolean.valueDescription()
        case .date: TapeKind.date.valueDescription()
        case .data: TapeKind.data.valueDescription()
        case .array: TapeKind.array.valueDescription()
        case .set: TapeKind.set.valueDescription()
        case .orderedSet: TapeKind.orderedSet.valueDescription()
        case .dictionary: TapeKind.dictionary.valueDescription()
        case .uuid: TapeKind.uuid.valueDescription()
        case .url: TapeKind.url.valueDescription()
        case .object(let object): TapeKind.object.valueDescription(className: object.className)
        case .reference: TapeKind.reference.valueDescription()
        case .archive: TapeKind.archive.valueDescription()
        case .cycle: TapeKind.cycle.valueDescription()
        }
    }
}

public typealias ArchiveFields = OrderedFields<ArchiveValue>
