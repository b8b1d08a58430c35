#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A key read in place: ASCII bytes inside the archive's buffer, or a literal's.
struct StreamedKey: Equatable, ExpressibleByStringLiteral {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    init(stringLiteral value: StaticString) {
        bytes = UnsafeRawBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount)
    }

    static var className: StreamedKey { "$class" }
    static var classChain: StreamedKey { "$classes" }

    static func == (lhs: StreamedKey, rhs: StreamedKey) -> Bool {
        lhs.bytes.count == rhs.bytes.count && compare(lhs, rhs) == 0
    }

    /// Byte-wise order, as `JSONTextWriter.utf8Compare`: negative, zero or positive.
    static func compare(_ lhs: StreamedKey, _ rhs: StreamedKey) -> Int {
        let (left, right) = (lhs.bytes, rhs.bytes)
        let common = min(left.count, right.count)
        if common > 0, let leftStart = left.baseAddress, let rightStart = right.baseAddress {
            let order = memcmp(leftStart, rightStart, common)
            if order != 0 { return Int(order) }
        }
        return left.count - right.count
    }
}

/// What a stored value decodes to, as far as Foundation's mapping (`FoundationValues`) asks.
enum StreamedShape: Equatable {
    case null, string, integer, real, boolean, date, url, other
    case data(count: Int)
    /// An array stored in place (Foundation's form), with its element count.
    case plainArray(count: Int)
    /// An array that an archived NSArray behind a UID decodes to.
    case arrayBehindReference

    var isArray: Bool {
        switch self {
        case .plainArray, .arrayBehindReference: true
        default: false
        }
    }

    /// The shape of an object stored in place (not a UID).
    init(stored object: BinaryPropertyList.RawObject, table: BinaryPropertyList) throws(GiveUp) {
        switch object {
        case .boolean: self = .boolean
        case .integer: self = .integer
        case .real, .float: self = .real
        case .date: self = .date
        case .asciiString, .utf16String, .utf8String: self = .string
        case .data(let start, let count):
            // Data that holds a property list is decoded as one: not this road.
            guard !Self.holdsPropertyList(table, start: start, count: count) else { throw GiveUp() }
            self = .data(count: count)
        case .array(let array): self = .plainArray(count: array.count)
        case .dictionary: self = .other
        case .uid: throw GiveUp()
        }
    }

    /// Whether the decoder reads these bytes as a property list (see `NestedArchiveReader`).
    static func holdsPropertyList(_ table: BinaryPropertyList, start: Int, count: Int) -> Bool {
        let bytes = table.inputBytes(start, count)
        if bytes.starts(with: BinaryPropertyListReader.magic) { return true }
        // Another `bplist` version is refused; anything else is read as XML if it looks like it.
        if bytes.starts(with: BinaryPropertyListReader.magic.prefix(6)) || bytes.isEmpty { return false }
        return PropertyListReader.looksLikeXML(bytes[...])
    }
}
