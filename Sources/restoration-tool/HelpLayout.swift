/// The order of the help's sections. The argument parser puts titled option groups before
/// OPTIONS; the LIMITS group, which few runs need, goes after them, so that the options a user
/// looks for (`--json`, `--format`) come first.
enum HelpLayout {
    /// The help as it is shown: LIMITS last, and `-V` beside `--version` (the parser's version
    /// flag has no short name; `RestorationTool.main` takes `-V` for it), so that every option
    /// accepted is listed.
    static func shown(_ help: String) -> String {
        limitsLast(help).replacingFirst("\n  --version               Show the version.", with: "\n  -V, --version           Show the version.")
    }

    /// `help` with its LIMITS section moved to the end; any other text as it is.
    static func limitsLast(_ help: String) -> String {
        // Sections are separated by blank lines and start with a heading such as "LIMITS:".
        var sections = help.components(separatedBy: "\n\n")
        guard let limits = sections.firstIndex(where: { $0.hasPrefix("LIMITS:\n") }) else { return help }
        let trailingNewline = sections.last?.hasSuffix("\n") == true
        if trailingNewline { sections[sections.count - 1].removeLast() }
        let moved = sections.remove(at: limits)
        // After the last option section (OPTIONS, or SUBCOMMANDS in the root help).
        let last = sections.lastIndex(where: { $0.hasPrefix("OPTIONS:\n") }) ?? sections.count - 1
        sections.insert(moved, at: last + 1)
        return sections.joined(separator: "\n\n") + (trailingNewline ? "\n" : "")
    }
}

extension String {
    /// The text with the first `target` replaced by `replacement`; the text itself without it.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var replaced = self
        replaced.replaceSubrange(range, with: replacement)
        return replaced
    }
}
