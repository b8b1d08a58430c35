/// `scan --json` (schema version 1).
public struct ScanDocument: Encodable {
    public static let schemaVersion = 1
    public let directories: [String]
    public let rows: [ScanRow]

    public init(directories: [String], rows: [ScanRow]) {
        self.directories = directories
        self.rows = rows
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        try container.encode(Self.schemaVersion, forKey: "schemaVersion")
        try container.encode(directories, forKey: "directories")
        try container.encode(rows.map(RowDocument.init), forKey: "archives")
    }

    private struct RowDocument: Encodable {
        let row: ScanRow

        init(_ row: ScanRow) {
            self.row = row
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(row.path, forKey: "path")
            try container.encode(row.bundleIdentifier, forKey: "bundleIdentifier")
            try container.encode(row.sceneSession, forKey: "sceneSession")
            try container.encode(row.timestamp.flatMap(ReferenceDate.iso8601), forKey: "timestamp")
            try container.encode(row.systemVersion, forKey: "systemVersion")
            try container.encode(row.objectCount, forKey: "objects")
            try container.encode(row.errors, forKey: "errors")
            try container.encode(row.warnings, forKey: "warnings")
            try container.encode(row.problem == nil && row.errors == 0, forKey: "valid")
            try container.encode(row.problem, forKey: "problem")
            try container.encode(row.sidecarNotes, forKey: "restoreWarnings")
        }
    }
}

/// `scan`'s text: a table, newest first, then the notes about pending discards.
public enum ScanTextFormatter {
    public static func format(_ rows: [ScanRow], style: TextStyle = .plain) -> String {
        let header = ["SAVED", "BUNDLE ID", "SCENE", "SYSTEM", "OBJECTS", "STATUS", "PATH"]
        let cells: [[String]] = rows.map { row in
            [
                row.timestamp.flatMap(ReferenceDate.iso8601) ?? "-",
                Self.cut(RawPath.display(row.bundleIdentifier)),
                row.sceneSession.map { Self.cut(RawPath.display($0)) } ?? "-",
                row.systemVersion.map { Self.cut(TextEscaping.escape($0)) } ?? "-",
                row.objectCount.map(String.init) ?? "-",
                Self.cut(TextEscaping.escape(row.status) + (row.restoreNote.map { ", " + $0 } ?? "")),
                RawPath.display(row.path),
            ]
        }
        var widths = header.map(\.count)
        for line in cells {
            for (column, cell) in line.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        func render(_ line: [String], status: String? = nil) -> String {
            var text = ""
            for (column, cell) in line.enumerated() {
                let padded = column == line.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
                text += column == 5 && status != nil ? style.paint(padded, status == "valid" ? .green : .red) : padded
            }
            return text + "\n"
        }
        var text = render(header)
        for (row, line) in zip(rows, cells) {
            text += render(line, status: row.problem == nil && row.errors == 0 ? "valid" : "invalid")
        }
        for row in rows where !row.sidecarNotes.isEmpty {
            for note in row.sidecarNotes {
                text += style.paint("warning", .yellow) + ": " + RawPath.display(row.path) + ": " + TextEscaping.escape(note) + "\n"
            }
        }
        text += "\(rows.count) archive\(rows.count == 1 ? "" : "s")\n"
        return text
    }

    /// Cells are cut to 60 characters: the columns are as wide as their widest cell, and one long
    /// value (an unreadable archive's reason, a 100 KB system version) would pad every row of
    /// thousands with spaces (`--json` has every value in full).
    private static func cut(_ text: String) -> String {
        text.shortened(to: 60)
    }
}
