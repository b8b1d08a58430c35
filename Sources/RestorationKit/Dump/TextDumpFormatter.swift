/// Renders a `RestorationArchive` as text for people, in the spirit of Apple's
/// `restorationArchiveTool`: keys padded with dots so their values line up, references shown as
/// the path they point to, views under their view controller, nested values indented.
package struct TextDumpFormatter: Sendable {
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
        formatBytes(archive, file: file, outputLimit: outputLimit).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The text as UTF-8 bytes, or nil once it would be longer than `outputLimit` bytes: what
    /// `dump` writes, without making a `String` of it first.
    public func formatBytes(_ archive: RestorationArchive, file: String, outputLimit: Int) -> [UInt8]? {
        DeepStack.run(stackSize: DeepStack.stackSize(for: .default)) { formatOnCurrentStack(archive, file: file, outputLimit: outputLimit) }
    }

    private func formatOnCurrentStack(_ archive: RestorationArchive, file: String, outputLimit: Int) -> [UInt8]? {
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
                fields(archive.appState.entries, indent: 1, into: &out)
            }
        } else {
            out.blank()
            out.line("Top-Level Keys:")
            fields(archive.appState.entries, indent: 1, into: &out)
        }
        return out.isFull ? nil : out.bytes
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
            fields(CollectionOfOne(("Entry", entry)), indent: 1, into: &out)
        }
        if let state = object.state {
            fields(state.entries, indent: 1, into: &out)
        }
        for view in object.views {
            out.line(Self.indentStep + style.paint("View: " + TextEscaping.escape(view.identifierPath.rawValue), .cyan))
            fields(view.state.entries, indent: 2, into: &out)
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

    /// Writes each entry on a line of its own: indentation, its label, dots up to the longest
    /// label's end, the value's summary; then a container's children, one level deeper.
    private func fields<Entries: Sequence>(_ entries: Entries, indent: Int, into out: inout TextOutput) where Entries.Element == (String, ArchiveValue) {
        var longest = 0
        for (key, _) in entries {
            longest = max(longest, Self.width(TextEscaping.escape(key)))
        }
        for (key, value) in entries where !out.isFull {
            let label = TextEscaping.escape(key)
            out.indent(indent)
            out.append(label)
            out.repeating(UInt8(ascii: "."), max(min(longest, Self.maximumAlignedLabel) - Self.width(label), 0) + 4)
            writeSummary(value, into: &out)
            out.endLine()
            children(of: value, indent: indent + 1, into: &out)
        }
    }

    /// The children of a container, as `fields` writes them.
    private func children(of value: ArchiveValue, indent: Int, into out: inout TextOutput) {
        switch value {
        case .array(let elements), .set(let elements), .orderedSet(let elements):
            guard !elements.isEmpty else { return }
            fields(elements.indices.lazy.map { ("[\($0)]", elements[$0]) }, indent: indent, into: &out)
        case .dictionary(let dictionary):
            guard dictionary.count > 0 else { return }
            fields(dictionary.entries.lazy.map { entry in
                if case .string(let key) = entry.key { return (key, entry.value) }
                return ("(" + summary(entry.key) + ")", entry.value)
            }, indent: indent, into: &out)
        case .object(let object):
            fields(object.fields.entries, indent: indent, into: &out)
        case .archive(let archive):
            fields(archive.top.entries, indent: indent, into: &out)
        case .url(let url) where url.base != .null:
            fields(CollectionOfOne(("base", url.base)), indent: indent, into: &out)
        default:
            return
        }
    }

    /// How many characters `label` takes, as `String.count` counts them; ASCII, the usual
    /// case, without breaking it into grapheme clusters.
    private static func width(_ label: String) -> Int {
        TextEscaping.isPlainASCII(label) || label.utf8.allSatisfy({ $0 < 0x80 }) ? label.utf8.count : label.count
    }

    private func aligned(_ rows: [(String, String)], indent: Int, into out: inout TextOutput) {
        let longest = rows.map(\.0.count).max() ?? 0
        for (label, value) in rows {
            out.line(Self.indentation(indent) + label + Self.dots(after: label, longest: longest) + value)
        }
    }

    /// Writes `summary(value)`, the common kinds without making a string first.
    private func writeSummary(_ value: ArchiveValue, into out: inout TextOutput) {
        switch value {
        case .string(let string):
            out.append("\"")
            out.append(TextEscaping.escape(string).replacingQuotes())
            out.append("\"")
        case .integer(let integer):
            out.append(String(integer))
        case .boolean(let boolean):
            out.append(boolean ? "Yes" : "No")
        default:
            out.append(summary(value))
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

/// The text being written, as UTF-8 bytes.
private struct TextOutput {
    private(set) var bytes: [UInt8] = []
    /// The most bytes the text may take; past it, lines are dropped and `isFull` is true.
    let limit: Int
    private(set) var isFull = false

    init(limit: Int) {
        self.limit = limit
    }

    mutating func line(_ line: String) {
        guard !isFull else { return }
        append(line)
        endLine()
    }

    mutating func blank() {
        line("")
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func repeating(_ byte: UInt8, _ count: Int) {
        bytes.append(contentsOf: repeatElement(byte, count: count))
    }

    /// The indentation of nesting `level` (see `TextDumpFormatter.indentation`).
    mutating func indent(_ level: Int) {
        repeating(UInt8(ascii: " "), 4 * min(level, TextDumpFormatter.maximumIndent))
        if level > TextDumpFormatter.maximumIndent { append("(level \(level)) ") }
    }

    mutating func endLine() {
        bytes.append(UInt8(ascii: "\n"))
        isFull = bytes.count > limit
    }
}
