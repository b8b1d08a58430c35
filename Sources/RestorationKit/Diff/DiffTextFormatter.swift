/// `diff`'s text: a header naming both files, then the changes grouped by identifier path,
/// one line each: `-` removed, `+` added, `~` changed.
package struct DiffTextFormatter: Sendable {
    public var color: Bool
    /// Values longer than this are cut with `…`.
    public var valueWidth: Int

    public init(color: Bool = false, valueWidth: Int = 160) {
        self.color = color
        self.valueWidth = valueWidth
    }

    public func format(_ changes: [ArchiveChange], a: String, b: String) -> String {
        format(changes, a: a, b: b, outputLimit: .max)!
    }

    /// The text, or nil once it would be longer than `outputLimit` bytes (it is not built further).
    /// Values are written in their compact form, which keeps a stack of its own.
    public func format(_ changes: [ArchiveChange], a: String, b: String, outputLimit: Int) -> String? {
        var text = paint("--- " + RawPath.display(a), .bold) + "\n" + paint("+++ " + RawPath.display(b), .bold) + "\n"
        var groups: [IdentifierPath?] = []
        var byGroup: [IdentifierPath?: [ArchiveChange]] = [:]
        for change in changes {
            if byGroup[change.identifierPath] == nil { groups.append(change.identifierPath) }
            byGroup[change.identifierPath, default: []].append(change)
        }
        for group in groups {
            text += paint(group.map { TextEscaping.escape($0.rawValue) } ?? "(archive)", .cyan) + "\n"
            for change in byGroup[group] ?? [] {
                text += line(change) + "\n"
                if text.utf8.count > outputLimit { return nil }
            }
        }
        return text
    }

    private func line(_ change: ArchiveChange) -> String {
        let place = change.path.isEmpty ? "" : Self.pathText(change.path)
        var body: String
        switch change.kind {
        case .added:
            body = "+ " + place
            if let new = change.newSide { body += (place.isEmpty ? "" : ": ") + render(new) }
        case .removed:
            body = "- " + place
            if let old = change.oldSide { body += (place.isEmpty ? "" : ": ") + render(old) }
        case .changed:
            body = "~ " + place + ": "
            if let summary = change.summary, change.oldSide != nil || change.newSide != nil {
                body += summary + ": "
            }
            body += (change.oldSide.map(render) ?? "(none)") + " → " + (change.newSide.map(render) ?? "(none)")
        }
        if let summary = change.summary, change.kind != .changed {
            body += (body.hasSuffix(" ") ? "" : " ") + "(" + summary + ")"
        }
        let tone: TextStyle.Tone = switch change.kind {
        case .added: .green
        case .removed: .red
        case .changed: .yellow
        }
        return paint(body, tone)
    }

    /// A key longer than this is cut with `…` in a change line: one 50 KB key repeated on each of
    /// 10 000 lines made half a gigabyte.
    public static let keyWidth = 120

    /// `state.preferences.sync[0]`: keys joined with dots, indices in brackets; a key that is
    /// not a plain identifier is quoted, and one longer than `keyWidth` is cut.
    public static func pathText(_ path: [ArchiveChange.PathComponent]) -> String {
        var text = ""
        for component in path {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let whole):
                let key = whole.shortened(to: keyWidth)
                let plain = !key.isEmpty && key.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "$" }
                let shown = plain ? key : "\"" + TextEscaping.escape(key).replacingQuotes() + "\""
                text += (text.isEmpty ? "" : ".") + shown
            }
        }
        return text
    }

    private func render(_ side: ChangeSide) -> String {
        guard case .given(let value) = side else {
            guard case .onTape(let reference) = side, case .node(let node) = reference.value else { return render(.given(side.diffValue)) }
            return reference.tape.withView { view in TextDumpValues(formatter: TextDumpFormatter(), view: view).compact(node, limit: valueWidth) }
        }
        let text: String
        switch value {
        case .value(let archived): text = Self.compact(archived, limit: valueWidth)
        case .timestamp(let seconds): text = ReferenceDate.iso8601(seconds) ?? Self.compact(.date(seconds), limit: valueWidth)
        case .idiom(let idiom): text = "\(idiom.name ?? "unknown") (\(idiom.rawValue))"
        case .paths(let paths): text = "[" + paths.map(TextEscaping.escape).joined(separator: ", ") + "]"
        }
        return text.shortened(to: valueWidth)
    }

    /// A value's compact text (see `TextDumpValues.compact`).
    static func compact(_ value: ArchiveValue, limit: Int) -> String {
        value.tape.withView { TextDumpValues(formatter: TextDumpFormatter(), view: $0).compact(value.node, limit: limit) }
    }

    private func paint(_ text: String, _ tone: TextStyle.Tone) -> String {
        TextStyle(enabled: color).paint(text, tone)
    }
}
