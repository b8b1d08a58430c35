@testable import RestorationKit

/// A property list as a tree of values: the tests' form of one, for comparing our readers with
/// libplist's and with each other, and for writing the archives a test needs (`binary`).
/// The library makes no trees; this one is built from the object table our readers give.
enum PlistTree: Hashable, Sendable {
    case string(String)
    case integer(Int128)
    case real(Double)
    /// A 4-byte real.
    case float(Float)
    case boolean(Bool)
    /// Seconds since 2001-01-01T00:00:00Z.
    case date(Double)
    case data(ArraySlice<UInt8>)
    case array([PlistTree])
    case dictionary(PlistDictionary)
    case uid(UInt64)

    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var dictionaryValue: PlistDictionary? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    var arrayValue: [PlistTree]? {
        if case .array(let value) = self { return value }
        return nil
    }
}

typealias PlistDictionary = OrderedFields<PlistTree>

extension PlistTree {
    /// What our readers read from `bytes` (binary or XML), checked as the library checks a
    /// property list, then made into a tree here (a shared object once per use).
    static func read(_ bytes: ArraySlice<UInt8>, limits: DecodingLimits = .default) throws -> PlistTree {
        switch try PropertyListReader.format(of: bytes) {
        case .binary:
            return try BinaryPropertyList.withTable(bytes) { (table) throws(PropertyListError) in
                try table.check(limits: limits)
                return try tree(of: table.topObject, in: table)
            }
        case .xml:
            let table = try XMLPropertyListReader(limits: limits).table(bytes)
            try table.check(limits: limits)
            return try tree(of: table.topObject, in: table)
        }
    }

    static func read(_ bytes: [UInt8], limits: DecodingLimits = .default) throws -> PlistTree {
        try read(bytes[...], limits: limits)
    }

    /// The tree of object `index` of a checked table (so no cycle, and a bounded depth), made
    /// with a stack of its own: the tests read lists thousands of levels deep.
    static func tree(of index: Int, in table: any PropertyListObjectTable) throws(PropertyListError) -> PlistTree {
        // A container being made: its members' objects (a dictionary's keys, then its values)
        // and the values made of them so far.
        struct Open {
            let keyed: Bool
            let members: [Int]
            var made: [PlistTree] = []
        }
        var open: [Open] = []
        var next = index
        while true {
            let object = try table.object(next)
            var finished: PlistTree?
            switch object {
            case .string(let string): finished = .string(string)
            case .data(let data): finished = .data(data)
            case .scalar(.integer(let integer)): finished = .integer(integer)
            case .scalar(.real(let real)): finished = .real(real)
            case .scalar(.float(let float)): finished = .float(float)
            case .scalar(.boolean(let boolean)): finished = .boolean(boolean)
            case .scalar(.date(let date)): finished = .date(date)
            case .scalar(.uid(let uid)): finished = .uid(uid)
            case .array(let container), .dictionary(let container):
                var keyed = false
                if case .dictionary = object { keyed = true }
                var members: [Int] = []
                for position in 0..<(keyed ? 2 * container.count : container.count) {
                    members.append(try table.member(position, of: container))
                }
                open.append(Open(keyed: keyed, members: members))
            }
            // Containers that are complete after it, then the next member to make.
            while true {
                guard var container = open.popLast() else { return finished! }
                if let value = finished {
                    container.made.append(value)
                    finished = nil
                }
                if container.made.count < container.members.count {
                    next = container.members[container.made.count]
                    open.append(container)
                    break
                }
                guard container.keyed else {
                    finished = .array(container.made)
                    continue
                }
                let count = container.members.count / 2
                let keys = container.made[..<count].map { key in
                    guard case .string(let name) = key else { preconditionFailure("a checked table's keys are strings") }
                    return name
                }
                finished = .dictionary(PlistDictionary(keys: keys, values: Array(container.made[count...])))
            }
        }
    }

    /// The tree written as a `bplist00` binary property list: every value, dictionary keys
    /// included, an object of its own, in depth-first order with the root first (the layout of
    /// an XML document's table), integers and references in the fewest bytes that hold them.
    func binary() -> [UInt8] {
        var objects: [(head: [UInt8], references: [Int])] = []
        func add(_ value: PlistTree) -> Int {
            let index = objects.count
            objects.append(([], []))
            switch value {
            case .array(let elements):
                objects[index] = (Self.marker(0xA, elements.count), elements.map(add))
            case .dictionary(let dictionary):
                let keys = dictionary.keys.map { add(.string($0)) }
                objects[index] = (Self.marker(0xD, dictionary.count), keys + dictionary.values.map(add))
            default:
                objects[index] = (value.scalarBytes, [])
            }
            return index
        }
        _ = add(self)
        let referenceSize = BinaryPlistBuilder.byteCount(UInt64(objects.count - 1))
        return BinaryPlistBuilder.objects(objects.map { object in
            object.head + object.references.flatMap { BinaryPlistBuilder.bigEndian(UInt64($0), referenceSize) }
        }, referenceSize: referenceSize)
    }

    private var scalarBytes: [UInt8] {
        switch self {
        case .string(let string):
            if string.utf8.allSatisfy({ $0 < 0x80 }) { return Self.marker(0x5, string.utf8.count) + Array(string.utf8) }
            let units = Array(string.utf16)
            return Self.marker(0x6, units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case .integer(let value): return Self.integerBytes(value)
        case .real(let value): return [0x23] + BinaryPlistBuilder.bigEndian(value.bitPattern, 8)
        case .float(let value): return [0x22] + BinaryPlistBuilder.bigEndian(UInt64(value.bitPattern), 4)
        case .boolean(let value): return [value ? 0x09 : 0x08]
        case .date(let value): return [0x33] + BinaryPlistBuilder.bigEndian(value.bitPattern, 8)
        case .data(let data): return Self.marker(0x4, data.count) + Array(data)
        case .uid(let value):
            let size = BinaryPlistBuilder.byteCount(value)
            return [0x80 | UInt8(size - 1)] + BinaryPlistBuilder.bigEndian(value, size)
        case .array, .dictionary: preconditionFailure("containers are written by binary()")
        }
    }

    /// A marker of type `high` with `count` in its low nibble, or followed by an integer.
    private static func marker(_ high: UInt8, _ count: Int) -> [UInt8] {
        count < 15 ? [high << 4 | UInt8(count)] : [high << 4 | 0xF] + integerBytes(Int128(count))
    }

    private static func integerBytes(_ value: Int128) -> [UInt8] {
        if value >= 0, value <= Int128(UInt32.max) {
            let size = BinaryPlistBuilder.byteCount(UInt64(value))
            return [0x10 | UInt8(size.trailingZeroBitCount)] + BinaryPlistBuilder.bigEndian(UInt64(value), size)
        }
        if value >= Int128(Int64.min), value <= Int128(Int64.max) {
            return [0x13] + BinaryPlistBuilder.bigEndian(UInt64(bitPattern: Int64(value)), 8)
        }
        // 16 bytes, signed: 2^63…2^64−1 as Core Foundation writes them, and the rest of 128 bits.
        return [0x14] + BinaryPlistBuilder.bigEndian(UInt64(truncatingIfNeeded: value >> 64), 8) + BinaryPlistBuilder.bigEndian(UInt64(truncatingIfNeeded: value), 8)
    }

}

extension KeyedArchiveDecoder {
    /// Decodes the archive `tree` describes, written as a binary property list.
    func decode(tree: PlistTree) throws(ArchiveError) -> KeyedArchive {
        try decode(tree.binary())
    }
}
