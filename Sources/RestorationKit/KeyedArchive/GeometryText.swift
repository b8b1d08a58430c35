#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A point's, size's or rect's string as an NSValue archives it (`NSStringFromPoint`,
/// `NSStringFromSize`, `NSStringFromRect`: "{1.5, -2}", "{{0, 20}, {320, 460}}"), and the
/// numbers it spells.
///
/// The text is what the archive holds, so it is kept: the numbers are read from it only when it
/// has Foundation's form exactly, and `isCanonical` says whether it is the very spelling Apple's
/// Foundation gives those numbers, so that the JSON can give numbers alone and lose nothing.
public struct GeometryText: Hashable, Sendable {
    /// The string as archived.
    public let text: String
    /// x and y (a point), width and height (a size), or x, y, width and height (a rect); nil
    /// when the text is not two or four finite decimal numbers in Foundation's braces, each
    /// pair `{a, b}`, a rect's `{{x, y}, {width, height}}`.
    public let numbers: [Double]?
    /// Whether `text` is what Apple's Foundation writes for `numbers`: each number with `%.17g`
    /// (17 significant digits, no trailing zeros), "{400, 300}" but not "{400.0, 300.0}".
    public let isCanonical: Bool

    public init(_ text: String) {
        self.text = text
        numbers = Self.numbers(in: text)
        isCanonical = numbers.map { Self.text(of: $0) == text } ?? false
    }

    /// The string Apple's Foundation writes for two numbers (a point or a size) or four (a rect).
    public static func text(of numbers: [Double]) -> String {
        let spelled = numbers.map(canonicalNumber)
        switch spelled.count {
        case 2: return "{" + spelled[0] + ", " + spelled[1] + "}"
        case 4: return "{{" + spelled[0] + ", " + spelled[1] + "}, {" + spelled[2] + ", " + spelled[3] + "}}"
        default: preconditionFailure("a point or a size has 2 numbers, a rect 4")
        }
    }

    /// `%.17g`, as `NSStringFromRect` spells each number.
    static func canonicalNumber(_ number: Double) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 40) { buffer in
            let count = withVaList([number]) { vsnprintf(buffer.baseAddress!, 40, "%.17g", $0) }
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: Int(count)), as: UTF8.self)
        }
    }

    /// The numbers of "{a, b}" or "{{a, b}, {c, d}}", or nil.
    static func numbers(in text: String) -> [Double]? {
        var rest = Substring(text)
        func take(_ expected: String) -> Bool {
            guard rest.hasPrefix(expected) else { return false }
            rest = rest.dropFirst(expected.count)
            return true
        }
        func number() -> Double? {
            let spelled = rest.prefix { $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }
            rest = rest.dropFirst(spelled.count)
            guard isDecimal(spelled), let value = Double(spelled), value.isFinite else { return nil }
            return value
        }
        func pair() -> [Double]? {
            guard take("{"), let first = number(), take(", "), let second = number(), take("}") else { return nil }
            return [first, second]
        }
        if rest.hasPrefix("{{") {
            guard take("{"), let origin = pair(), take(", "), let size = pair(), take("}"), rest.isEmpty else { return nil }
            return origin + size
        }
        guard let point = pair(), rest.isEmpty else { return nil }
        return point
    }

    /// Whether `spelled` is a decimal number as `%g` writes one: an optional minus, digits with an
    /// optional fraction, an optional exponent (no "inf", "nan", hexadecimal or leading "+").
    private static func isDecimal(_ spelled: Substring) -> Bool {
        var rest = spelled.utf8[...]
        if rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
        let whole = rest.prefix { (0x30...0x39).contains($0) }
        guard !whole.isEmpty else { return false }
        rest = rest.dropFirst(whole.count)
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            let fraction = rest.prefix { (0x30...0x39).contains($0) }
            guard !fraction.isEmpty else { return false }
            rest = rest.dropFirst(fraction.count)
        }
        if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
            let exponent = rest.prefix { (0x30...0x39).contains($0) }
            guard !exponent.isEmpty else { return false }
            rest = rest.dropFirst(exponent.count)
        }
        return rest.isEmpty
    }
}

/// What an NSValue holding one of Foundation's structures holds (`NS.special` and the
/// structure's fields, exactly as Foundation writes them; any other NSValue is an object).
public enum NSValueStructure: Hashable, Sendable {
    /// `NS.special` 1: `NS.pointval`.
    case point(GeometryText)
    /// `NS.special` 2: `NS.sizeval`.
    case size(GeometryText)
    /// `NS.special` 3: `NS.rectval`.
    case rect(GeometryText)
    /// `NS.special` 4: `NS.rangeval.location` and `NS.rangeval.length`.
    case range(location: Int128, length: Int128)
    /// `NS.special` 10 (`CGAffineTransform`): `NS.atval.a`, `b`, `c`, `d`, `tx`, `ty`.
    case affineTransform(m11: Double, m12: Double, m21: Double, m22: Double, tX: Double, tY: Double)
    /// `NS.special` 12 (`NSEdgeInsets`), or 11 (`UIEdgeInsets`, `uiKit`): `NS.edgeval.top`,
    /// `left`, `bottom`, `right`.
    case edgeInsets(top: Double, left: Double, bottom: Double, right: Double, uiKit: Bool)
    /// `NS.special` 13 (`UIOffset`): `NS.offset.h` and `NS.offset.v`.
    case offset(horizontal: Double, vertical: Double)
    /// `NS.special` 14 (`NSDirectionalEdgeInsets`): `NS.dirEdgeVal.top`, `leading`, `bottom`,
    /// `trailing`.
    case directionalEdgeInsets(top: Double, leading: Double, bottom: Double, trailing: Double)

    /// The structure of a `special` node.
    init(_ node: TapeNode, in view: TapeView) {
        self = FoundationValues.specialStructure(of: node, in: view).value(FoundationValues.SpecialFields(node: node, view: view))
    }
}
