/// `scan --timeline`: the archives as events on a time line, in the form Timesketch and plaso
/// import (`datetime`, `timestamp`, `timestamp_desc`, `message`, then attributes). Each archive
/// gives up to two events: when it says its state was saved, and when its file was last
/// modified. Events are oldest first.
package struct ScanTimelineEvent: Sendable {
    public enum Kind: Sendable {
        /// The time stamp inside the archive (`kApplicationStateTimestampKey`'s date).
        case saved
        /// The archive file's modification time.
        case modified
    }

    public var kind: Kind
    public var row: ScanRow
    /// ISO 8601 with an offset, `2024-06-03T09:41:00+00:00`, as Timesketch's examples write it.
    public var datetime: String
    /// Microseconds since 1970-01-01T00:00:00Z.
    public var timestamp: Int64

    public var timestampDescription: String {
        switch kind {
        case .saved: "State Saved Time"
        case .modified: "Content Modification Time"
        }
    }

    /// One line about the archive, as a time line shows it: what happened, to which app, and
    /// what `validate` makes of the archive now.
    public var message: String {
        var subject = RawPath.display(row.bundleIdentifier)
        if let scene = row.sceneSession { subject += " scene " + RawPath.display(scene) }
        if let window = row.windowText { subject += " " + window }
        var facts = [TextEscaping.escape(row.status) + (row.restoreNote.map { ", " + $0 } ?? "")]
        if let objects = row.objectCount { facts.append("\(objects) object\(objects == 1 ? "" : "s")") }
        if let system = row.systemVersion { facts.append("system " + TextEscaping.escape(system)) }
        if let bundle = row.bundleVersion { facts.append("bundle version " + TextEscaping.escape(bundle)) }
        let what = kind == .saved ? "state restoration archive saved" : "state restoration archive file modified"
        return subject + " " + what + ": " + facts.joined(separator: ", ")
    }

    /// The events of `rows`, oldest first (then by path, saved before modified).
    public static func events(_ rows: [ScanRow]) -> [ScanTimelineEvent] {
        var events: [ScanTimelineEvent] = []
        for row in rows {
            if let saved = row.timestamp, let time = FileTime(referenceDate: saved), let text = ReferenceDate.iso8601(saved) {
                events.append(ScanTimelineEvent(kind: .saved, row: row, datetime: withOffset(text), timestamp: time.microseconds))
            }
            if let modified = row.modificationTime, let text = modified.iso8601 {
                events.append(ScanTimelineEvent(kind: .modified, row: row, datetime: withOffset(text), timestamp: modified.microseconds))
            }
        }
        return events.enumerated().sorted { a, b in
            if a.element.timestamp != b.element.timestamp { return a.element.timestamp < b.element.timestamp }
            if a.element.row.path != b.element.row.path { return a.element.row.path < b.element.row.path }
            return a.offset < b.offset
        }.map(\.element)
    }

    private static func withOffset(_ iso8601: String) -> String {
        iso8601.hasSuffix("Z") ? String(iso8601.dropLast()) + "+00:00" : iso8601
    }

    /// `column`'s value for this event's archive; the time columns (`saved`, `modified`) in
    /// `datetime`'s form, so that a time line writes every time one way.
    public func value(of column: ScanColumn) -> ScanColumn.Value? {
        let value = column.value(row)
        guard ["saved", "modified"].contains(column.name), case .text(let time) = value else { return value }
        return .text(Self.withOffset(time))
    }
}

/// `scan --timeline --format json`: the events in one document.
package struct ScanTimelineDocument: JSONRepresentable {
    public static let schemaVersion = 1
    public let directories: [String]
    public let events: [ScanTimelineEvent]

    public init(directories: [String], events: [ScanTimelineEvent]) {
        self.directories = directories
        self.events = events
    }

    package var jsonNode: JSONNode {
        .members(["schemaVersion": Self.schemaVersion, "directories": directories, "events": events.map(ScanTimelineEventDocument.init)])
    }
}

/// One event of `scan --timeline --format json`, and one line of `--timeline --format jsonl`
/// (Timesketch's JSONL): the four fields Timesketch needs, then the columns of `--format csv`
/// under the same names.
package struct ScanTimelineEventDocument: JSONRepresentable {
    let event: ScanTimelineEvent

    public init(_ event: ScanTimelineEvent) {
        self.event = event
    }

    package var jsonNode: JSONNode {
        var members: [(key: String, value: JSONNode)] = [
            ("datetime", .string(event.datetime)),
            ("timestamp", event.timestamp.jsonNode),
            ("timestamp_desc", .string(event.timestampDescription)),
            ("message", .string(event.message)),
        ]
        for column in ScanColumn.all {
            switch event.value(of: column) {
            case .text(let text): members.append((column.name, .string(text)))
            case .number(let number): members.append((column.name, number.jsonNode))
            case .none: members.append((column.name, .null))
            }
        }
        return .object(members)
    }
}
