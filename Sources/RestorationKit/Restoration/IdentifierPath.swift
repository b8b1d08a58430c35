/// A restoration identifier path such as `TabController/:[1]:/NavigationController`.
///
/// Components are separated by `/`; a container may insert an index component `:[n]:` before a
/// child. There is no escaping in the format, so a `/` inside an identifier cannot be told apart
/// from a separator: this type splits on every `/`, as UIKit's own lookups do.
///
/// Paths are equal when their bytes are (see `ExactText`): "Café" spelled with U+00E9 and with
/// "e" + U+0301 are two paths, as they are to UIKit.
public struct IdentifierPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public enum Component: Hashable, Sendable {
        case identifier(String)
        /// `:[n]:`, the child's index in its container.
        case index(Int)
        /// Looks like an index component but is not well formed (`:[x]:`, `:[1]`, `:[]:`).
        case malformedIndex(String)

        var isIndex: Bool {
            if case .index = self { return true }
            return false
        }
    }

    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// A path written in code: `archive.object(at: "TabController/:[0]:/ListViewController")`.
    public init(stringLiteral rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// The components as written, index components included.
    ///
    /// Split on the byte `/`, as UIKit splits its strings' code units: a `/` followed by a
    /// combining mark still separates (splitting Characters would not, and is many times slower).
    public var rawComponents: [String] {
        var text = rawValue
        return text.withUTF8 { bytes in
            var parts: [String] = []
            var start = 0
            for position in bytes.indices where bytes[position] == UInt8(ascii: "/") {
                parts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
                start = position + 1
            }
            parts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
            return parts
        }
    }

    public var components: [Component] {
        rawComponents.map(Self.parse)
    }

    static func parse(_ text: String) -> Component {
        let opens = text.hasPrefix(":[")
        let closes = text.hasSuffix("]:")
        guard opens || closes else {
            return .identifier(text)
        }
        let utf8 = Array(text.utf8)
        if opens, closes, utf8.count >= 5 {
            let digits = utf8[2..<(utf8.count - 2)]
            // Nine digits at most: an index never comes near that, and it cannot overflow.
            if digits.count <= 9, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                return .index(indexValue(ofDigits: digits))
            }
        }
        return .malformedIndex(text)
    }

    /// The number an index component's decimal digits spell (`007` is 7); nine digits at most,
    /// which cannot overflow.
    static func indexValue<Digits: Sequence<UInt8>>(ofDigits digits: Digits) -> Int {
        digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// What a component is, without its text.
    enum Shape {
        case identifier, index, malformedIndex
    }

    /// The shape `parse` gives an ASCII component, read from its bytes (in ASCII a Character is
    /// a byte wherever `:`, `[` and `]` are concerned).
    static func shape(ofASCII bytes: UnsafeBufferPointer<UInt8>) -> Shape {
        let count = bytes.count
        let opens = count >= 2 && bytes[0] == UInt8(ascii: ":") && bytes[1] == UInt8(ascii: "[")
        let closes = count >= 2 && bytes[count - 2] == UInt8(ascii: "]") && bytes[count - 1] == UInt8(ascii: ":")
        guard opens || closes else { return .identifier }
        if opens, closes, count >= 5, count - 4 <= 9,
           bytes[2..<(count - 2)].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return .index
        }
        return .malformedIndex
    }

    /// The identifiers alone, index components left out.
    public var identifiers: [String] {
        components.compactMap { component in
            if case .identifier(let name) = component { return name }
            return nil
        }
    }

    /// The last identifier: the object's own restoration identifier.
    public var lastIdentifier: String? {
        // An ASCII path is searched from its end, without splitting it into strings.
        var text = rawValue
        let found = text.withUTF8 { bytes -> String?? in
            guard UnsafeRawBufferPointer(bytes).isASCII else { return nil }
            var end = bytes.count
            while true {
                let start = bytes[..<end].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
                let component = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if Self.shape(ofASCII: component) == .identifier { return .some(String(decoding: component, as: UTF8.self)) }
                guard start > 0 else { return .some(nil) }
                end = start - 1
            }
        }
        return found ?? identifiers.last
    }

    /// The index component just before the last identifier, when there is one.
    public var index: Int? {
        let parts = components
        guard parts.count >= 2, case .identifier = parts[parts.count - 1], case .index(let index) = parts[parts.count - 2] else {
            return nil
        }
        return index
    }

    /// The path of the parent: this path without its last component and, when the component
    /// before it is an index, without that too. Nil for a root (a single component).
    ///
    /// Found from the bytes, without splitting the path into strings: the validator and `tree`
    /// ask for the parent of every saved object.
    public var parent: IdentifierPath? {
        var text = rawValue
        return text.withUTF8 { bytes -> IdentifierPath? in
            let slash = UInt8(ascii: "/")
            guard var end = bytes.lastIndex(of: slash) else { return nil }
            let start = bytes[..<end].lastIndex(of: slash).map { $0 + 1 } ?? 0
            let component = UnsafeBufferPointer(rebasing: bytes[start..<end])
            let isIndex = UnsafeRawBufferPointer(component).isASCII
                ? Self.shape(ofASCII: component) == .index
                : Self.parse(String(decoding: component, as: UTF8.self)).isIndex
            if isIndex {
                guard start > 0 else { return nil }
                end = start - 1
            }
            return IdentifierPath(String(decoding: UnsafeBufferPointer(rebasing: bytes[..<end]), as: UTF8.self))
        }
    }

    /// Whether `self` is `other` or lies below it.
    public func hasPrefix(_ other: IdentifierPath) -> Bool {
        let (path, prefix) = (rawValue.utf8, other.rawValue.utf8)
        guard path.starts(with: prefix) else { return false }
        return path.count == prefix.count || path[path.index(path.startIndex, offsetBy: prefix.count)] == UInt8(ascii: "/")
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.rawValue.isExactly(rhs.rawValue)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ExactText(rawValue))
    }
}

extension IdentifierPath: Comparable {
    /// By bytes, which is the order of Unicode scalars.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.rawValue.precedesExactly(rhs.rawValue)
    }
}
