/// Renders a `RestorationArchive` as text for people, in the spirit of Apple's
/// `restorationArchiveTool`: keys padded with dots so their values line up, references shown as
/// the path they point to, views under their view controller, nested values indented.
public struct TextDumpFormatter: Sendable {
    /// Show Swift mangled class names demangled, with the raw name beside them.
    public var demangle: Bool
    /// How many bytes of data to show in hex.
    public var previewBytes: Int
    /// Colors for section headings and notes (only on a terminal; the command decides).
    public var style: TextStyle

    public init(demangle: Bool = true, previewBytes: Int = 16, style: TextStyle = .plain) {
        self.demangle = demangle
        self.previewBytes = previewBytes
        self.style = style
    }

    static let indentStep = "    "
    /// Lines indent by nesting level up to this depth and no further: otherwise hostile input
    /// nested hundreds of levels deep would print hundreds of spaces per value, and the output
    /// would grow with values × depth instead of with values. Deeper lines say their level.
    static let maximumIndent = 16

    static func indentation(_ level: Int) -> String {
        guard level > maximumIndent else { return String(repeating: indentStep, count: level) }
        return String(repeating: indentStep, count: maximumIndent) + "(level \(level)) "
    }

    /// The text for `archive`. Printing recurses once per nesting level, so it runs on a deep
    /// stack (see `DeepStack`).
    public func format(_ archive: RestorationArchive, file: String) -> String {
        format(archive, file: file, outputLimit: .max)!
    }

    /// The text for `archive`, or nil once it would be longer than `outputLimit` bytes: a small
    /// archive of shared values can print hundreds of megabytes, and the text is not built
    /// past the limit.
    public func format(_ archive: RestorationArchive, file: String, outputLimit: Int) -> String? {
        DeepStack.run(stackSize: DeepStack.stackSize(for: .default)) { formatOnCurrentStack(archive, file: file, outputLimit: outputLimit) }
    }

    private func formatOnCurrentStack(_ archive: RestorationArchive, file: String, outputLimit: Int) -> String? {
        var out = TextOutput(limit: outputLimit)
        out.line(style.paint("File: " + RawPath.display(file), .bold))
        // Notes first: they say how to read what follows (a generic archive, keys left over).
        for note in archive.notes {
            out.line(style.paint("Note: ", .yellow) + TextEscaping.escape(note))
        }
        if archive.isRestorationArchive {
            header(archive, into: &out)
            classMap(archive, into: &out)
            identifierPaths(archive, into: &out)
            for object in archive.objects where !out.isFull {
                self.object(object, into: &out)
            }
            if !archive.appState.isEmpty {
                out.blank()
                out.line("App State:")
                fields(archive.appState.entries.map { ($0, $1) }, indent: 1, into: &out)
            }
        } else {
            out.blank()
            out.line("Top-Level Keys:")
            fields(archive.appState.entries.map { ($0, $1) }, indent: 1, into: &out)
        }
        return out.isFull ? nil : out.text
    }

    // MARK: Sections

    private func header(_ archive: RestorationArchive, into out: inout TextOutput) {
        let version: String
        switch (archive.majorVersion, archive.minorVersion) {
        case (let major?, let minor?): version = "\(major).\(minor)"
        case (let major?, nil): version = "\(major) (no minor version)"
        case (nil, let minor?): version = "(no major version).\(minor)"
        case (nil, nil): version = "(none)"
        }
        let idiom = archive.userInterfaceIdiom.map { idiom in
            "\(idiom.name ?? "unknown") (\(idiom.rawValue))"
        }
        let rows: [(String, String)] = [
            ("Archive Version", version),
            ("Bundle Version", archive.bundleVersion.map(quoted) ?? "(none)"),
            ("System Version", archive.systemVersion.map(quoted) ?? "(none)"),
            ("Timestamp", archive.timestamp.map(dateText) ?? "(none)"),
            ("User Interface Idiom", idiom ?? "(none)"),
        ]
        aligned(rows, indent: 0, into: &out)
    }

    private func classMap(_ archive: RestorationArchive, into out: inout TextOutput) {
        out.blank()
        out.line("Restoration Class Map (\(archive.restorationClassMap.count)):")
        for (path, className) in archive.restorationClassMap.entries {
            out.line(Self.indentStep + TextEscaping.escape(path) + " → " + classNameText(className))
        }
    }

    private func identifierPaths(_ archive: RestorationArchive, into out: inout TextOutput) {
        out.blank()
        out.line("Identifier Paths (\(archive.identifierPaths.count), in save order):")
        for path in archive.identifierPaths {
            out.line(Self.indentStep + TextEscaping.escape(path.rawValue))
        }
    }

    private func object(_ object: RestorationObject, into out: inout TextOutput) {
        out.blank()
        out.line(style.paint("Object: " + TextEscaping.escape(object.identifierPath.rawValue), .cyan))
        if let restorationClass = object.restorationClass {
            aligned([("Restoration Class", classNameText(restorationClass))], indent: 1, into: &out)
        }
        if let problem = object.stateProblem {
            out.line(Self.indentStep + "(no state: " + TextEscaping.escape(problem) + ")")
        }
        if let entry = object.undecodedEntry {
            fields([("Entry", entry)], indent: 1, into: &out)
        }
        if let state = object.state {
            fields(state.entries.map { ($0, $1) }, indent: 1, into: &out)
        }
        for view in object.views {
            out.line(Self.indentStep + style.paint("View: " + TextEscaping.escape(view.identifierPath.rawValue), .cyan))
            fields(view.state.entries.map { ($0, $1) }, indent: 2, into: &out)
        }
    }

    // MARK: Values

    /// Labels longer than this do not widen their siblings' dots: one long key (an archive may
    /// hold one of 100 KB) would otherwise pad every other line of its container to its length.
    static let maximumAlignedLabel = 64

    /// The dots after `label` in a column of labels at most `longest` long.
    private static func dots(after label: String, longest: Int) -> String {
        String(repeating: ".", count: max(min(longest, maximumAlignedLabel) - label.count, 0) + 4)
    }

    private func fields(_ entries: [(String, ArchiveValue)], indent: Int, into out: inout TextOutput) {
        let labels = entries.map { TextEscaping.escape($0.0) }
        let longest = labels.map(\.count).max() ?? 0
        for (label, (_, value)) in zip(labels, entries) where !out.isFull {
            out.line(Self.indentation(indent) + label + Self.dots(after: label, longest: longest) + summary(value))
            let nested = children(value)
            if !nested.isEmpty {
                fields(nested, indent: indent + 1, into: &out)
            }
        }
    }

    private func aligned(_ rows: [(String, String)], indent: Int, into out: inout TextOutput) {
        let longest = rows.map(\.0.count).max() ?? 0
        for (label, value) in rows {
            out.line(Self.indentation(indent) + label + Self.dots(after: label, longest: longest) + value)
        }
    }

    /// The one-line description of a value; containers are followed by their `children`.
    func summary(_ value: ArchiveValue) -> String {
        switch value {
        case .null: return "nil"
        case .string(let string): return quoted(string)
        case .integer(let integer): return String(integer)
        case .real(let real): return realText(real)
        case .float(let float): return float.isFinite ? float.description : realText(Double(float))
        case .boolean(let boolean): return boolean ? "Yes" : "No"
        case .date(let seconds): return dateText(seconds)
        case .data(let data):
            var text = "\(data.bytes.count) bytes"
            if !data.bytes.isEmpty {
                text += ": " + ByteFormatting.hexPreview(data.bytes, limit: previewBytes)
            }
            if let error = data.archiveError {
                text += " (not a readable keyed archive: " + TextEscaping.escape(error) + ")"
            }
            return text
        case .array(let elements): return "Array (\(count(elements.count, "item")))"
        case .set(let elements): return "Set (\(count(elements.count, "item")))"
        case .orderedSet(let elements): return "Ordered Set (\(count(elements.count, "item")))"
        case .dictionary(let dictionary): return "Dictionary (\(count(dictionary.count, "entry", "entries")))"
        case .uuid(let bytes): return "UUID " + ByteFormatting.uuidString(bytes)
        case .url(let url): return "URL " + quoted(url.relative) + (url.base == .null ? "" : " relative to:")
        case .object(let object):
            let superclasses = object.classChain.dropFirst().map { TextEscaping.escape($0) }
            let hints = object.classHints.map { " (class hints: " + $0.map { TextEscaping.escape($0) }.joined(separator: ", ") + ")" } ?? ""
            return classNameText(object.className) + (superclasses.isEmpty ? "" : " : " + superclasses.joined(separator: " : ")) + hints
        case .reference(let path): return "Object Identifier Proxy: " + TextEscaping.escape(path)
        case .archive(let archive): return "Keyed Archive (\(count(archive.top.count, "key")))"
        case .cycle(let uid): return "(cycle: back to $objects[\(uid)], which contains this value)"
        }
    }

    private func children(_ value: ArchiveValue) -> [(String, ArchiveValue)] {
        switch value {
        case .array(let elements), .set(let elements), .orderedSet(let elements):
            return elements.enumerated().map { ("[\($0.offset)]", $0.element) }
        case .dictionary(let dictionary):
            return dictionary.entries.map { entry in
                if case .string(let key) = entry.key { return (key, entry.value) }
                return ("(" + summary(entry.key) + ")", entry.value)
            }
        case .object(let object):
            return object.fields.entries.map { ($0, $1) }
        case .archive(let archive):
            return archive.top.entries.map { ($0, $1) }
        case .url(let url) where url.base != .null:
            return [("base", url.base)]
        default:
            return []
        }
    }

    private func classNameText(_ name: String) -> String {
        if demangle, let demangled = SwiftDemangler.demangle(name) {
            return TextEscaping.escape(demangled) + " (" + name + ")"
        }
        return TextEscaping.escape(name)
    }

    private func quoted(_ string: String) -> String {
        "\"" + TextEscaping.escape(string).replacingQuotes() + "\""
    }

    private func dateText(_ seconds: Double) -> String {
        ReferenceDate.iso8601(seconds) ?? "date \(realText(seconds)) s from 2001-01-01T00:00:00Z (outside years 1-9999)"
    }

    private func realText(_ real: Double) -> String {
        if real.isNaN { return "nan" }
        if real.isInfinite { return real < 0 ? "-inf" : "inf" }
        return real.description
    }

    private func count(_ number: Int, _ noun: String, _ plural: String? = nil) -> String {
        "\(number) " + (number == 1 ? noun : plural ?? noun + "s")
    }
}

/// Accumulates output lines.
private struct TextOutput {
    var text = ""
    /// The most bytes the text may take; past it, lines are dropped and `isFull` is true.
    let limit: Int
    private(set) var isFull = false

    init(limit: Int) {
        self.limit = limit
    }

    mutating func line(_ line: String) {
        guard !isFull else { return }
        text += line
        text += "\n"
        isFull = text.utf8.count > limit
    }

    mutating func blank() {
        line("")
    }
}
