#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Demangles Swift class names as the Objective-C runtime sees them
/// (`_TtC20StateRestorationDemo18CityViewController` → `StateRestorationDemo.CityViewController`)
/// with the Swift runtime's own demangler.
public enum SwiftDemangler {
    /// The longest name handed to the runtime: class names are short, and the input is untrusted.
    static let maximumLength = 1024

    /// The demangled name, or nil when `name` is not a mangled Swift name of a plain nominal
    /// type (module, then classes, structs or enums nested in one another).
    ///
    /// Only that form reaches the runtime's demangler: other manglings may hold substitutions
    /// that expand exponentially (a few hundred bytes demangle to gigabytes), and the runtime
    /// builds its whole result before returning it. A name of that form demangles to at most its
    /// own length plus a separator per component.
    public static func demangle(_ name: String) -> String? {
        guard looksMangled(name) else { return nil }
        // The runtime demangles only the current mangling; Objective-C runtime names of Swift
        // classes still use the old `_Tt` form, so translate those first.
        let mangled = name.hasPrefix("_Tt") ? currentMangling(ofRuntimeName: name) : name
        guard let mangled, isPlainNominalType(mangled) else { return nil }
        // NUL-terminated even though a length is passed: the runtime's isSwiftSymbol calls
        // strlen on the name (found by the fuzzer as a heap overflow).
        guard let result = mangled.withCString({ name in
            swift_demangle(name, strlen(name), nil, nil, 0)
        }) else {
            return nil
        }
        defer { free(result) }
        let demangled = String(cString: result)
        return demangled.isEmpty || demangled == mangled ? nil : demangled
    }

    /// Whether `name` is `$s` (or `_$s`, `$S`, `_$S`), then `s` or a length-prefixed module
    /// name, then one or more length-prefixed names each followed by `C`, `V` or `O`, and
    /// nothing else: no substitution, no generic argument, no operator.
    static func isPlainNominalType(_ name: String) -> Bool {
        var rest = Substring(name)
        for prefix in ["_$s", "_$S", "$s", "$S"] where rest.hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
            break
        }
        guard rest.count < name.count else { return false }
        if rest.first == "s" {
            rest = rest.dropFirst()
        } else if identifier(&rest) == nil {
            return false
        }
        var types = 0
        while !rest.isEmpty {
            guard identifier(&rest) != nil, let kind = rest.first, "CVO".contains(kind) else { return false }
            rest = rest.dropFirst()
            types += 1
        }
        return types > 0
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

@_silgen_name("swift_demangle")
private func swift_demangle(
    _ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: Int,
    _ outputBuffer: UnsafeMutablePointer<CChar>?, _ outputBufferSize: UnsafeMutablePointer<Int>?,
    _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?
