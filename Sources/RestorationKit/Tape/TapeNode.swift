/// One value of an `ArchiveTape`: 16 bytes, a kind and two numbers whose meaning the kind gives
/// (see docs/design/tape.md for the table).
///
/// A container's node points at a contiguous block of child nodes in the tape, so copying a
/// node shares everything under it: a keyed archive's shared objects are decoded once and
/// referenced by copies, without reference counting.
struct TapeNode: Sendable {
    var kind: TapeKind
    var flags: TapeFlags
    /// Strings, data and UUIDs: bytes; containers: members (a dictionary's or an object's entries).
    var count: UInt32
    /// Scalars: the value's bits; strings, data and UUIDs: where the bytes start in the tape's
    /// text (or, flagged `inSource`, in the input); containers: where their block starts.
    var payload: UInt64

    init(_ kind: TapeKind, flags: TapeFlags = [], count: Int = 0, payload: UInt64 = 0) {
        self.kind = kind
        self.flags = flags
        self.count = UInt32(truncatingIfNeeded: count)
        self.payload = payload
    }

    static let null = TapeNode(.null)

    /// A container's block: where its first child node is.
    var first: Int { Int(truncatingIfNeeded: payload & 0xFFFF_FFFF) }
    var memberCount: Int { Int(count) }
    /// An object's class: its entry in the tape's class table.
    var classIndex: Int { Int(truncatingIfNeeded: payload >> 32) }
    /// Strings, data, UUIDs and references: where the bytes start.
    var offset: Int { Int(truncatingIfNeeded: payload) }
    /// How many nodes a container's block holds (its elements, or its keys then its values); 0
    /// for a node without members.
    var blockSize: Int {
        switch kind.layout {
        case .scalar, .bytes: 0
        case .elements: memberCount
        case .url: 2
        case .entries, .fields, .object: 2 * memberCount
        }
    }
}

public enum TapeKind: UInt8, Sendable {
    case null, boolean, integer, real, float, date
    case string, data, uuid, reference
    case array, set, orderedSet
    /// `count` keys (string or any value), then `count` values.
    case dictionary
    /// Any class without a natural value: `count` field names, then `count` values; the class
    /// in the high half of the payload.
    case object
    /// Two children: the relative string, then the base (null or a URL).
    case url
    /// A nested keyed archive: `count` `$top` keys, then `count` values.
    case archive
    /// A reference back to an object still being decoded; the payload is its UID.
    case cycle
    /// An NSValue holding one of Foundation's structures (a point, a size, a rect, a range, an
    /// affine transform, edge insets, an offset: `FoundationValues.SpecialStructure`), laid out as its object: `NS.special`, then
    /// the structure's fields in Foundation's order.
    case special

    /// How a node of this kind is laid out: what its count and payload mean. Readers that walk
    /// the tape's structure (relocating, checking, comparing, visiting members) switch on this,
    /// so that a new kind with a known layout needs nothing of them.
    var layout: TapeLayout {
        switch self {
        case .null, .boolean, .integer, .real, .float, .date, .cycle: .scalar
        case .string, .data, .uuid, .reference: .bytes
        case .array, .set, .orderedSet: .elements
        case .dictionary: .entries
        case .archive: .fields
        case .object, .special: .object
        case .url: .url
        }
    }

    /// How messages name a value of this kind ("a string", "an array"); an object's names its
    /// class.
    func valueDescription(className: String = "") -> String {
        switch self {
        case .null: "nil"
        case .string: "a string"
        case .integer: "an integer"
        case .real, .float: "a real number"
        case .boolean: "a boolean"
        case .date: "a date"
        case .data: "data"
        case .array: "an array"
        case .set: "a set"
        case .orderedSet: "an ordered set"
        case .dictionary: "a dictionary"
        case .uuid: "a UUID"
        case .url: "a URL"
        case .object: "an object of class \(className)"
        case .reference: "an identifier-path reference"
        case .archive: "a keyed archive"
        case .cycle: "a reference cycle"
        case .special: "an NSValue"
        }
    }
}

/// What a node's count and payload mean (see `TapeKind.layout`).
enum TapeLayout {
    /// No members and no bytes: the payload is the value's bits (a wide integer's index when
    /// flagged `wide`).
    case scalar
    /// `count` bytes at the payload's offset in the tape's text (or, flagged `inSource`, the input).
    case bytes
    /// A block of `count` values.
    case elements
    /// A block of `count` keys of any kind, then `count` values.
    case entries
    /// A block of `count` string names, then `count` values.
    case fields
    /// `fields`, the class in the high half of the payload.
    case object
    /// A block of two: a string, then null or a node of this layout.
    case url
}

struct TapeFlags: OptionSet, Sendable {
    let rawValue: UInt8

    /// An integer that does not fit 64 bits: the payload indexes the tape's wide integers.
    static let wide = TapeFlags(rawValue: 1 << 0)
    /// Data that announced a property list but could not be read as one: the tape keeps why.
    static let archiveError = TapeFlags(rawValue: 1 << 1)
    /// Bytes (a string's, data's, a UUID's) left in the input: the payload is an index of the
    /// input's array, not an offset in the tape's text.
    static let inSource = TapeFlags(rawValue: 1 << 2)
    /// A string of printable ASCII without a quote or backslash (see `TextEscaping.isPlain`),
    /// which every output writes as it is.
    static let plain = TapeFlags(rawValue: 1 << 3)
}
