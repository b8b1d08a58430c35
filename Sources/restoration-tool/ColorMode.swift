#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser

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

/// The `--color` option, shared by every command that writes styled text.
struct ColorOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Color the text output: auto (a terminal, unless NO_COLOR is set to a non-empty value or TERM is dumb), always, never.", valueName: "when"))
    var color: ColorMode = .auto

    var enabled: Bool { color.enabled }
}
