import CPlist
@testable import RestorationKit

/// Converts a libplist node tree into `PlistTree`, bounded like our own reader.
///
/// libplist 2.2.0 reports integers as unsigned 64-bit values, so they are read as the signed
/// 64-bit ones NSKeyedArchiver writes (values of 2^63 and above come back negative), and its
/// dates carry 32-bit seconds and microseconds.
struct LibplistConverter {
    let limits: DecodingLimits
    private var budget: Int

    init(limits: DecodingLimits) {
        self.limits = limits
        self.budget = limits.maxNodes
    }

    mutating func convert(_ node: plist_t) throws(PropertyListError) -> PlistTree {
        try convert(node, depth: 0)
    }

    private mutating func convert(_ node: plist_t, depth: Int) throws(PropertyListError) -> PlistTree {
        budget -= 1
        guard budget >= 0 else {
            throw PropertyListError("property list has more than the limit of \(limits.maxNodes) values", exceedsLimit: true)
        }
        guard depth <= limits.maxDepth else {
            throw PropertyListError("containers nest deeper than the limit of \(levels(limits.maxDepth))", exceedsLimit: true)
        }
        switch plist_get_node_type(node) {
        case PLIST_BOOLEAN:
            var value: UInt8 = 0
            plist_get_bool_val(node, &value)
            return .boolean(value != 0)
        case PLIST_UINT:
            var value: UInt64 = 0
            plist_get_uint_val(node, &value)
            return .integer(Int128(Int64(bitPattern: value)))
        case PLIST_REAL:
            var value: Double = 0
            plist_get_real_val(node, &value)
            return .real(value)
        case PLIST_STRING, PLIST_KEY:
            var length: UInt64 = 0
            guard let pointer = plist_get_string_ptr(node, &length) else { return .string("") }
            let bytes = UnsafeRawBufferPointer(start: pointer, count: Int(length))
            return .string(String(decoding: bytes, as: UTF8.self))
        case PLIST_DATE:
            var seconds: Int32 = 0
            var microseconds: Int32 = 0
            plist_get_date_val(node, &seconds, &microseconds)
            return .date(Double(seconds) + Double(microseconds) / 1_000_000)
        case PLIST_DATA:
            var length: UInt64 = 0
            guard let pointer = plist_get_data_ptr(node, &length) else { return .data([]) }
            let bytes = UnsafeRawBufferPointer(start: pointer, count: Int(length))
            return .data(ArraySlice(bytes))
        case PLIST_UID:
            var value: UInt64 = 0
            plist_get_uid_val(node, &value)
            return .uid(value)
        case PLIST_ARRAY:
            return .array(try convertArray(node, depth: depth))
        case PLIST_DICT:
            return try convertDictionary(node, depth: depth)
        default:
            throw PropertyListError("libplist returned a node of unknown type")
        }
    }

    private mutating func convertArray(_ node: plist_t, depth: Int) throws(PropertyListError) -> [PlistTree] {
        var elements: [PlistTree] = []
        // Iterators, not plist_array_get_item: that walks a linked list from the start each call.
        var iterator: plist_array_iter? = nil
        plist_array_new_iter(node, &iterator)
        defer { cplist_release(iterator) }
        while true {
            var item: plist_t? = nil
            plist_array_next_item(node, iterator, &item)
            guard let item else { break }
            elements.append(try convert(item, depth: depth + 1))
        }
        return elements
    }

    private mutating func convertDictionary(_ node: plist_t, depth: Int) throws(PropertyListError) -> PlistTree {
        var keys: [String] = []
        var values: [PlistTree] = []
        var iterator: plist_dict_iter? = nil
        plist_dict_new_iter(node, &iterator)
        defer { cplist_release(iterator) }
        while true {
            var key: UnsafeMutablePointer<CChar>? = nil
            var item: plist_t? = nil
            plist_dict_next_item(node, iterator, &key, &item)
            guard let item else {
                cplist_release(key)
                break
            }
            keys.append(key.map { String(cString: $0) } ?? "")
            cplist_release(key)
            values.append(try convert(item, depth: depth + 1))
        }
        // XML has no UID type: keyed archives write references as {CF$UID: n}, as Core Foundation
        // reads them. libplist 2.2.0 leaves them as dictionaries.
        if keys == ["CF$UID"], case .integer(let index) = values[0], index >= 0, index <= Int128(UInt64.max) {
            return .uid(UInt64(index))
        }
        return .dictionary(PlistDictionary(keys: keys, values: values))
    }
}

/// Owns the node tree libplist allocates for one document and frees it.
final class LibplistDocument {
    let root: plist_t

    /// Parses XML; nil when libplist cannot.
    init?(xml: ArraySlice<UInt8>) {
        var root: plist_t? = nil
        xml.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                plist_from_xml(characters.baseAddress, UInt32(characters.count), &root)
            }
        }
        guard let root else { return nil }
        self.root = root
    }

    init(owning root: plist_t) {
        self.root = root
    }

    deinit {
        plist_free(root)
    }
}
