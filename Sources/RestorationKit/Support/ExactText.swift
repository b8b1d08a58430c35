#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A string compared and hashed by its UTF-8 bytes: the identity of a key, a path or a string
/// value of an archive.
///
/// Swift's `String` equality is canonical equivalence: "Café" written with U+00E9 equals "Café"
/// written with "e" and U+0301, and "\u{212A}ey" (KELVIN SIGN) equals "Key". Foundation compares
/// an archive's strings literally (`NSString` `isEqual:` compares code units), so in a file
/// those are two keys, two paths, two values; compared as Swift strings, one would be lost or
/// taken for the other.
struct ExactText: Hashable, Sendable {
    let string: String

    init(_ string: String) {
        self.string = string
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.string.isExactly(rhs.string)
    }

    /// `String`'s own hash, which agrees: strings of the same bytes are canonically equivalent.
    func hash(into hasher: inout Hasher) {
        hasher.combine(string)
    }
}

extension String {
    /// Whether both strings are the same bytes (see `ExactText`), not merely canonically
    /// equivalent.
    func isExactly(_ other: String) -> Bool {
        // Most strings compared differ in length, which a native string knows.
        guard utf8.count == other.utf8.count else { return false }
        return other.utf8.withContiguousStorageIfAvailable { hasBytes($0) } ?? utf8.elementsEqual(other.utf8)
    }

    /// Whether the string's UTF-8 is `bytes`: for a search that compares one string with many.
    func hasBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let own = utf8
        guard own.count == bytes.count else { return false }
        guard !bytes.isEmpty else { return true }
        return own.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
            ?? own.elementsEqual(bytes)
    }

    /// Whether the bytes are ordered before `other`'s: the order of Unicode scalars, without
    /// normalizing either string first.
    func precedesExactly(_ other: String) -> Bool {
        utf8.lexicographicallyPrecedes(other.utf8)
    }
}

extension Sequence<String> {
    /// Whether `text` is one of the strings, byte for byte.
    func containsExactly(_ text: String) -> Bool {
        contains { $0.isExactly(text) }
    }
}

extension Array<String> {
    /// Whether both hold the same strings in the same order, byte for byte.
    func isExactly(_ other: [String]) -> Bool {
        count == other.count && elementsEqual(other) { $0.isExactly($1) }
    }
}

extension Optional<String> {
    /// Whether both are nil, or the same string byte for byte.
    func isExactly(_ other: String?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let lhs?, let rhs?): lhs.isExactly(rhs)
        default: false
        }
    }
}

extension Optional<[String]> {
    /// Whether both are nil, or the same strings in the same order byte for byte.
    func isExactly(_ other: [String]?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let lhs?, let rhs?): lhs.isExactly(rhs)
        default: false
        }
    }
}

/// A set of strings compared by bytes (see `ExactText`).
struct ExactTextSet: Equatable, Sendable {
    private var members: Set<ExactText>

    init(minimumCapacity: Int = 0) {
        members = Set(minimumCapacity: minimumCapacity)
    }

    init<Strings: Sequence<String>>(_ strings: Strings) {
        members = Set(strings.lazy.map(ExactText.init))
    }

    var count: Int { members.count }
    var isEmpty: Bool { members.isEmpty }

    func contains(_ text: String) -> Bool {
        members.contains(ExactText(text))
    }

    /// Whether `text` was not there yet.
    @discardableResult
    mutating func insert(_ text: String) -> Bool {
        members.insert(ExactText(text)).inserted
    }
}
