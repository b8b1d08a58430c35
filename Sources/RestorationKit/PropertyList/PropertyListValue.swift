/// One value of a property list, binary or XML, exactly as stored.
///
/// Integers are kept as `Int128` because the binary format stores unsigned values up to
/// 2^64−1 in 16-byte signed integers next to negative 8-byte ones: no narrower type holds both.
/// Data is a slice of the buffer it was read from, so a nested archive can be decoded without a
/// copy and `data.startIndex` is the byte offset of the bytes inside the file.
/// The tree the tests' second readers are compared with, and what side files are read into:
/// not public, for freeing a tree recurses once per level.
package enum PropertyListValue: Hashable, Sendable {
    case string(String)
    case integer(Int128)
    case real(Double)
    /// A 4-byte real (what `encodeFloat:forKey:` writes): kept at its own precision, so that it
    /// prints as the float that was written (0.8926057, not 0.892605721950531).
    case float(Float)
    case boolean(Bool)
    /// Seconds since 2001-01-01T00:00:00Z (Core Foundation's reference date).
    case date(Double)
    case data(ArraySlice<UInt8>)
    case array([PropertyListValue])
    case dictionary(PropertyListDictionary)
    /// A keyed-archiver object reference (`CF$UID`).
    case uid(UInt64)

    /// The name of the value's type as the property-list format calls it, for messages.
    package var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .real, .float: "real"
        case .boolean: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        case .uid: "UID"
        }
    }

    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    package var dictionaryValue: PropertyListDictionary? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    package var arrayValue: [PropertyListValue]? {
        if case .array(let value) = self { return value }
        return nil
    }
}
