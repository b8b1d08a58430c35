/// `scan`'s table for people: one archive a line, newest first, columns padded to line up. The
/// warnings about the files beside each archive go to standard error (see `scan`).
package enum ScanTextFormatter {
    public static func format(_ rows: [ScanRow], style: TextStyle = .plain) -> String {
        let header = ["SAVED", "BUNDLE ID", "SCENE", "SYSTEM", "OBJECTS", "STATUS", "PATH"]
        let cells: [[String]] = rows.map { row in
            [
                row.timestamp.flatMap(ReferenceDate.iso8601) ?? "-",
                Self.cut(RawPath.display(row.bundleIdentifier)),
                row.sceneSession.map { Self.cut(RawPath.display($0)) } ?? row.windowText.map(Self.cut) ?? "-",
                row.systemVersion.map { Self.cut(TextEscaping.escape($0)) } ?? "-",
                row.objectCount.map(String.init) ?? "-",
                Self.cut(TextEscaping.escape(row.status) + (row.restoreNote.map { ", " + $0 } ?? "")),
                RawPath.display(row.path),
            ]
        }
        // Padded by the cells a terminal gives each character: a Korean title takes two a
        // character, a combining mark none.
        var widths = header.map(\.displayWidth)
        for line in cells {
            for (column, cell) in line.enumerated() { widths[column] = max(widths[column], cell.displayWidth) }
        }
        func render(_ line: [String], statusColor: TextStyle.Tone? = nil) -> String {
            var text = ""
            for (column, cell) in line.enumerated() {
                let padded = column == line.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.displayWidth + 2)
                text += column == 5 ? statusColor.map { style.paint(padded, $0) } ?? padded : padded
            }
            return text + "\n"
        }
        var text = render(header)
        for (row, line) in zip(rows, cells) {
            text += render(line, statusColor: severityColor(of: row))
        }
        return text
    }

    /// The status's color by its worst severity, as `validate` colors its lines: red for an
    /// archive that is invalid or unreadable, yellow for warnings or an interrupted or pending
    /// restore, green for one with nothing to report.
    static func severityColor(of row: ScanRow) -> TextStyle.Tone {
        if row.reason != nil || row.isUnreadable || (row.errors ?? 0) > 0 { return .red }
        if (row.warnings ?? 0) > 0 || row.restoreNote != nil { return .yellow }
        return .green
    }

    /// Cells are cut to 60 characters: the columns are as wide as their widest cell, and one long
    /// value (an unreadable archive's reason, a 100 KB system version) would pad every row of
    /// thousands with spaces (the other formats have every value in full).
    private static func cut(_ text: String) -> String {
        text.shortened(to: 60)
    }
}
