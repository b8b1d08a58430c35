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

    /// Whether a large archive's objects are written in parts (see `objects`); the tests
    /// compare the parts with the text written in one piece.
    var writesInParts = true

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

    /// The text for `archive`, written on the calling thread (values are walked with a stack of
    /// their own), a large archive's objects on the other processors too.
    public func format(_ archive: RestorationArchive, file: String) -> String {
        format(archive, file: file, outputLimit: .max)!
    }

    /// The text for `archive`, or nil once it would be longer than `outputLimit` bytes: a small
    /// archive of shared values can print hundreds of megabytes, and the text is not built
    /// past the limit.
    public func format(_ archive: RestorationArchive, file: String, outputLimit: Int) -> String? {
        formatBytes(archive, file: file, outputLimit: outputLimit).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The text as UTF-8 bytes, or nil once it would be longer than `outputLimit` bytes.
    public func formatBytes(_ archive: RestorationArchive, file: String, outputLimit: Int) -> [UInt8]? {
        var text: [UInt8]?
        _ = withFormattedPieces(archive, file: file, outputLimit: outputLimit) { pieces in
            text = pieces.reduce(into: []) { $0.append(contentsOf: $1) }
        }
        return text
    }

    /// Calls `body` with the text as pieces of UTF-8 to be written in order, valid during the
    /// call, and returns true; false, without calling it, once the text would be longer than
    /// `outputLimit` bytes. What `dump` writes, without joining the pieces first.
    public func withFormattedPieces(
        _ archive: RestorationArchive, file: String, outputLimit: Int, _ body: (UnsafeBufferPointer<UnsafeRawBufferPointer>) -> Void
    ) -> Bool {
        let parts = formatParts(archive, file: file, outputLimit: outputLimit)
        guard parts.reduce(0, { $0 + $1.count }) <= outputLimit else { return false }
        withExtendedLifetime(parts) { parts.map(\.bytes).withUnsafeBufferPointer(body) }
        return true
    }

    /// The text in parts, in order: more than one when the saved objects were written on
    /// several processors.
    private func formatParts(_ archive: RestorationArchive, file: String, outputLimit: Int) -> [TextOutput] {
        let inParts = archive.isRestorationArchive && writesInParts && Parallel.parts(of: archive.objects.count).count > 1
        // Room taken at once: about 2 KiB per saved object when the objects are written here (a
        // large archive's dump takes about 1 KiB each), 256 bytes when only the class map and
        // the path list are. A buffer grown by doubling touches twice the memory and copies the
        // text again at each step; room never written costs no memory.
        let objectRoom = inParts ? 256 : 2048
        var out = TextOutput(limit: outputLimit, capacity: min(outputLimit, archive.objects.count * objectRoom) + (1 << 16))
        out.line(style.paint("File: " + RawPath.display(file), .bold))
        // Notes first: they say how to read what follows (a generic archive, keys left over).
        for note in archive.notes {
            out.line(style.paint("Note: ", .yellow) + TextEscaping.escape(note))
        }
        guard archive.isRestorationArchive else {
            out.blank()
            out.line("Top-Level Keys:")
            appStateFields(archive, into: &out)
            return [out]
        }
        header(archive, into: &out)
        classMap(archive, into: &out)
        identifierPaths(archive, into: &out)
        guard inParts, !out.isFull else {
            objects(archive.objects.indices, of: archive, into: &out)
            appState(archive, into: &out)
            return [out]
        }
        var parts = [out] + objects(of: archive, after: out.count, outputLimit: outputLimit)
        let written = parts.reduce(0) { $0 + $1.count }
        if written <= outputLimit, !archive.appState.isEmpty {
            var tail = TextOutput(limit: outputLimit - written)
            appState(archive, into: &tail)
            parts.append(tail)
        }
        return parts
    }

    /// The saved objects' text in parts (see `Parallel.parts(of:)`; each object's text depends
    /// on that object alone), written on all processors, after `spent` bytes of text; the parts
    /// stop soon after they pass `outputLimit` together.
    private func objects(of archive: RestorationArchive, after spent: Int, outputLimit: Int) -> [TextOutput] {
        let budget = SharedTextBudget(limit: outputLimit, spent: spent)
        return Parallel.mapParts(of: archive.objects.count) { range in
            var out = TextOutput(limit: outputLimit, capacity: min(outputLimit, range.count * 2048), sharing: budget)
            objects(range, of: archive, into: &out)
            return out
        }
    }

    /// The objects at `indices`, written from a tape (see `forEachObjectOnTape`).
    private func objects(_ indices: Range<Int>, of archive: RestorationArchive, into out: inout TextOutput) {
        var walker = TapeWalker()
        archive.forEachObjectOnTape(indices, while: { !out.isFull }) { object, onTape, view in
            let values = TextDumpValues(formatter: self, view: view)
            heading(of: object, into: &out)
            if let entry = onTape.entry {
                values.fields(1, indent: 1, into: &out, walker: &walker) { _ in (.text("Entry"), .node(entry)) }
            }
            if let state = onTape.state {
                values.fields(of: state, indent: 1, into: &out, walker: &walker)
            }
            for view in onTape.views where !out.isFull {
                out.line(Self.indentStep + style.paint("View: " + TextEscaping.escape(values.view.string(of: view.path)), .cyan))
                values.fields(of: view.archive, indent: 2, into: &out, walker: &walker)
            }
        }
    }

    private func appState(_ archive: RestorationArchive, into out: inout TextOutput) {
        guard !archive.appState.isEmpty else { return }
        out.blank()
        out.line("App State:")
        appStateFields(archive, into: &out)
    }

    /// The app state's keys (see `RestorationArchive.withAppStateOnTape`).
    private func appStateFields(_ archive: RestorationArchive, into out: inout TextOutput) {
        archive.withAppStateOnTape { state, view in
            var walker = TapeWalker()
            TextDumpValues(formatter: self, view: view).fields(of: state, indent: 1, into: &out, walker: &walker)
        }
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
            ("Bundle Version", archive.bundleVersion.map(Self.quoted) ?? "(none)"),
            ("System Version", archive.systemVersion.map(Self.quoted) ?? "(none)"),
            ("Timestamp", archive.timestamp.map(Self.dateText) ?? "(none)"),
            ("User Interface Idiom", idiom ?? "(none)"),
        ]
        aligned(rows, indent: 0, into: &out)
    }

    private func classMap(_ archive: RestorationArchive, into out: inout TextOutput) {
        out.blank()
        out.line("Restoration Class Map (\(archive.restorationClassMap.count)):")
        // Lines written in place: a large archive lists tens of thousands.
        for (path, className) in archive.restorationClassMap.entries where !out.isFull {
            out.append(Self.indentStep)
            out.appendEscaped(path)
            out.append(" → ")
            writeClassName(className, into: &out)
            out.endLine()
        }
    }

    private func identifierPaths(_ archive: RestorationArchive, into out: inout TextOutput) {
        out.blank()
        out.line("Identifier Paths (\(archive.identifierPaths.count), in save order):")
        for path in archive.identifierPaths where !out.isFull {
            out.append(Self.indentStep)
            out.appendEscaped(path.rawValue)
            out.endLine()
        }
    }

    /// An object's first lines: its path, restoration class and why it has no state.
    private func heading(of object: RestorationObject, into out: inout TextOutput) {
        out.blank()
        out.line(style.paint("Object: " + TextEscaping.escape(object.identifierPath.rawValue), .cyan))
        if let restorationClass = object.restorationClass {
            aligned([("Restoration Class", classNameText(restorationClass))], indent: 1, into: &out)
        }
        if let problem = object.stateProblem {
            out.line(Self.indentStep + "(no state: " + TextEscaping.escape(problem) + ")")
        }
    }

    // MARK: Text

    /// How many characters `label` takes, as `String.count` counts them; ASCII, the usual
    /// case, without breaking it into grapheme clusters.
    fileprivate static func width(_ label: String) -> Int {
        TextEscaping.isPlainASCII(label) || label.utf8.allSatisfy({ $0 < 0x80 }) ? label.utf8.count : label.count
    }

    /// The width of `key` once escaped; plain ASCII, the usual case, is not escaped.
    static func labelWidth(_ key: String) -> Int {
        TextEscaping.isPlainASCII(key) ? key.utf8.count : width(TextEscaping.escape(key))
    }

    private func aligned(_ rows: [(String, String)], indent: Int, into out: inout TextOutput) {
        let longest = rows.map(\.0.count).max() ?? 0
        for (label, value) in rows where !out.isFull {
            out.indent(indent)
            out.append(label)
            out.dots(max(min(longest, TextDumpValues.maximumAlignedLabel) - label.count, 0) + 4)
            out.append(value)
            out.endLine()
        }
    }

    /// The one-line description of a value, as `dump` writes it.
    func summary(_ value: ArchiveValue) -> String {
        value.tape.withView { TextDumpValues(formatter: self, view: $0).summary(.node(value.node)) }
    }

    /// A string as a value is written: between double quotes, escaped, its quotes too.
    static func quoted(_ string: String) -> String {
        var out = TextOutput(capacity: 64)
        out.append("\"")
        out.appendEscaped(string, quotes: true)
        out.append("\"")
        return out.string
    }

    func writeClassName(_ name: String, into out: inout TextOutput) {
        if demangle, let demangled = SwiftDemangler.demangle(name) {
            out.appendEscaped(demangled)
            out.append(" (")
            out.append(name)
            out.append(")")
        } else {
            out.appendEscaped(name)
        }
    }

    private func classNameText(_ name: String) -> String {
        var out = TextOutput(capacity: 64)
        writeClassName(name, into: &out)
        return out.string
    }

    static func dateText(_ seconds: Double) -> String {
        ReferenceDate.iso8601(seconds) ?? "date \(realText(seconds)) s from 2001-01-01T00:00:00Z (outside years 1-9999)"
    }

    /// A reference back to an object still being decoded, as `dump` and `diff` write it.
    static func cycleText(_ uid: UInt64) -> String {
        "(cycle: back to $objects[\(uid)], which contains this value)"
    }

    static func realText(_ real: Double) -> String {
        if real.isNaN { return "nan" }
        if real.isInfinite { return real < 0 ? "-inf" : "inf" }
        return real.description
    }
}

/// The dump's own pieces: labels, padding and indentation.
extension TextOutput {
    /// Appends `key` escaped, as a label; returns its width (see `TextDumpFormatter.width`).
    mutating func appendLabel(_ key: String) -> Int {
        if appendIfPlainASCII(key) {
            return key.utf8.count
        }
        let label = TextEscaping.escape(key)
        append(label)
        return TextDumpFormatter.width(label)
    }

    /// Spaces and dots are written from these, not byte by byte.
    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 4 * TextDumpFormatter.maximumIndent)
    private static let dotRun = [UInt8](repeating: UInt8(ascii: "."), count: TextDumpValues.maximumAlignedLabel + 4)

    /// `count` dots (at most `maximumAlignedLabel + 4`).
    mutating func dots(_ count: Int) {
        Self.dotRun.withUnsafeBytes { append(raw: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }

    /// The indentation of nesting `level`: four spaces a level up to `maximumIndent`, then the
    /// level in words.
    mutating func indent(_ level: Int) {
        let count = 4 * min(level, TextDumpFormatter.maximumIndent)
        Self.spaces.withUnsafeBytes { append(raw: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        if level > TextDumpFormatter.maximumIndent { append("(level \(level)) ") }
    }
}
