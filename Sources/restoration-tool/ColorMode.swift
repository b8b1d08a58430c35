#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import RestorationKit

/// `--color auto|always|never`. Auto colors only a terminal, and not when NO_COLOR is set to a
/// non-empty value (https://no-color.org) or TERM is `dumb` (a terminal that shows escape
/// sequences as text); an explicit `always` wins over both.
enum ColorMode: String, ExpressibleByArgument, CaseIterable {
    case auto
    case always
    case never

    var enabled: Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
            if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
            return isatty(1) != 0
        }
    }
}

/// `--charset auto|utf-8|ascii`: the characters text output may use. Auto follows the locale
/// (LC_ALL, LC_CTYPE, LANG), as tree(1) does: UTF-8 when it names UTF-8, ASCII otherwise.
enum Charset: String, ExpressibleByArgument, CaseIterable {
    case auto
    case utf8 = "utf-8"
    case ascii

    var isASCII: Bool {
        switch self {
        case .utf8: return false
        case .ascii: return true
        case .auto: return !ASCIIText.localeIsUTF8 { name in getenv(name).map { String(cString: $0) } }
        }
    }
}

/// The options of text output, shared by every command that writes text for people.
struct TextOutputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Color the text output: auto (a terminal, unless NO_COLOR is set to a non-empty value or TERM is dumb), always, never.", valueName: "when"))
    var color: ColorMode = .auto

    @Option(name: .long, help: ArgumentHelp("Characters of the text output: auto (UTF-8 when the locale is, ASCII otherwise), utf-8, ascii (tree lines as |--, other characters as \\u{…}).", valueName: "charset"))
    var charset: Charset = .auto

    var enabled: Bool { color.enabled }

    /// Sets what every later write uses; called once, before the command writes.
    func apply() {
        Console.asciiOnly.store(charset.isASCII, ordering: .relaxed)
    }
}
