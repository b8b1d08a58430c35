
/// Demangles Swift class names as the Objective-C runtime sees them
/// (`_TtC20StateRestorationDemo18CityViewController` → `StateRestorationDemo.CityViewController`).
///
/// Class names in archives are plain nominal types: a module, then classes, structs or enums
/// nested in one another, each a length-prefixed identifier. That form demangles to its
/// identifiers joined by dots (the module `s` is `Swift`), exactly as the Swift runtime's
/// demangler gives it, so it is read here. Every other form is shown as stored: generic,
/// private and substituted names may expand exponentially (a few hundred bytes demangle to
/// gigabytes), and the input is untrusted.
package enum SwiftDemangler {
    /// The longest name demangled: class names are short.
    static let maximumLength = 1024

    /// The demangled name, or nil when `name` is not a mangled Swift name of a plain nominal
    /// type.
    package static func demangle(_ name: String) -> String? {
        guard looksMangled(name) else { return nil }
        // Objective-C runtime names of Swift classes still use the old `_Tt` form: translated
        // to the current mangling first.
        let mangled = name.hasPrefix("_Tt") ? currentMangling(ofRuntimeName: name) : name
        guard let mangled, let components = plainNominalType(mangled) else { return nil }
        return components.joined(separator: ".")
    }

    /// Whether `name` is a plain nominal type (see `plainNominalType`).
    static func isPlainNominalType(_ name: String) -> Bool {
        plainNominalType(name) != nil
    }

    /// The module and type names of `name` when it is `$s` (or `_$s`, `$S`, `_$S`), then `s`
    /// or a length-prefixed module name, then one or more length-prefixed names each followed
    /// by `C`, `V` or `O`, and nothing else: no substitution, no generic argument, no operator.
    static func plainNominalType(_ name: String) -> [Substring]? {
        var rest = Substring(name)
        for prefix in ["_$s", "_$S", "$s", "$S"] where rest.hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
            break
        }
        guard rest.count < name.count else { return nil }
        var components: [Substring] = []
        if rest.first == "s" {
            components.append("Swift")
            rest = rest.dropFirst()
        } else if let module = identifier(&rest) {
            components.append(module)
        } else {
            return nil
        }
        while !rest.isEmpty {
            guard let type = identifier(&rest), let kind = rest.first, "CVO".contains(kind) else { return nil }
            components.append(type)
            rest = rest.dropFirst()
        }
        return components.count > 1 ? components : nil
    }

    /// Translates an old-style runtime name, `_Tt` + kinds + module + names, into the current
    /// mangling: `_TtCC3App5Outer5Inner` (class Inner in class Outer in module App) becomes
    /// `$s3App5OuterC5InnerC`. The kinds are listed innermost first, the names outermost first.
    /// Private, generic and other forms are left alone (nil): they are shown raw.
    static func currentMangling(ofRuntimeName name: String) -> String? {
        var rest = Substring(name.dropFirst(3))
        let kinds = rest.prefix { $0 == "C" || $0 == "V" || $0 == "O" }
        guard !kinds.isEmpty else { return nil }
        rest = rest.dropFirst(kinds.count)
        var result = "$s"
        if rest.first == "s" {
            result += "s"
            rest = rest.dropFirst()
        } else {
            guard let module = identifier(&rest) else { return nil }
            result += "\(module.count)" + module
        }
        for kind in kinds.reversed() {
            guard let identifier = identifier(&rest) else { return nil }
            result += "\(identifier.count)" + identifier + String(kind)
        }
        return rest.isEmpty ? result : nil
    }

    /// Reads one length-prefixed identifier (`18CityViewController`).
    private static func identifier(_ text: inout Substring) -> Substring? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.first != "0", digits.count <= 4, let length = Int(digits) else { return nil }
        let body = text.dropFirst(digits.count)
        guard body.count >= length else { return nil }
        let identifier = body.prefix(length)
        guard identifier.first.map({ !$0.isNumber }) ?? false else { return nil }
        text = body.dropFirst(length)
        return identifier
    }

    private static func looksMangled(_ name: String) -> Bool {
        guard name.utf8.count <= maximumLength else { return false }
        let prefixes = ["_Tt", "$s", "_$s", "$S", "_$S"]
        guard prefixes.contains(where: name.hasPrefix) else { return false }
        return name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
        }
    }
}
