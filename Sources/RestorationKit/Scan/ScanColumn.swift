/// The columns of `scan --format csv|tsv` and the attributes of `--timeline` events: what a
/// forensic time line records about each archive. Text from the archive or the file system is
/// escaped as everywhere else (control characters as `\n`, `\u{…}`; bytes that are not UTF-8
/// in names as `\xNN`), so that a cell is one line and shows what is there.
package struct ScanColumn: Sendable {
    public enum Value: Equatable, Sendable {
        case text(String)
        case number(Int)
    }

    public let name: String
    public let value: @Sendable (ScanRow) -> Value?

    public static let all: [ScanColumn] = [
        ScanColumn(name: "saved") { row in row.timestamp.flatMap(ReferenceDate.iso8601).map(Value.text) },
        ScanColumn(name: "modified") { row in row.modificationTime?.iso8601.map(Value.text) },
        ScanColumn(name: "bundle_id") { row in .text(RawPath.display(row.bundleIdentifier)) },
        ScanColumn(name: "scene") { row in row.sceneSession.map { .text(RawPath.display($0)) } ?? row.windowText.map { .text($0) } },
        ScanColumn(name: "bundle_version") { row in row.bundleVersion.map { .text(TextEscaping.escape($0)) } },
        ScanColumn(name: "system_version") { row in row.systemVersion.map { .text(TextEscaping.escape($0)) } },
        ScanColumn(name: "objects") { row in row.objectCount.map(Value.number) },
        ScanColumn(name: "status") { row in .text(row.verdict) },
        ScanColumn(name: "errors") { row in row.errors.map(Value.number) },
        ScanColumn(name: "warnings") { row in row.warnings.map(Value.number) },
        ScanColumn(name: "findings") { row in .text(row.findings.joined(separator: " ")) },
        ScanColumn(name: "reason") { row in row.reason.map { .text(TextEscaping.escape($0)) } },
        ScanColumn(name: "size") { row in row.size.map(Value.number) },
        ScanColumn(name: "sha256") { row in row.sha256.map(Value.text) },
        ScanColumn(name: "path") { row in .text(RawPath.display(row.path)) },
    ]
}

/// `scan --format csv|tsv`, with and without `--timeline`: a header row, then one row per
/// archive (or event).
///
/// CSV follows RFC 4180: fields separated by commas, lines ended by CRLF, a field quoted when it
/// holds a comma or a double quote, a double quote inside doubled. TSV separates by tabs and ends
/// lines with LF; after escaping no field holds a tab or a line break, and TSV keeps every value
/// as it is. In CSV, which spreadsheets open, a text field that begins with `=`, `+`, `-` or `@`
/// gets a leading `'` (`formulaGuard`, on unless `--no-formula-guard`), so that a spreadsheet
/// shows a directory named `=HYPERLINK(…)` instead of evaluating it (OWASP's advice on CSV
/// injection).
package enum ScanDelimitedFormatter {
    public enum Dialect: Sendable {
        case csv, tsv

        var separator: String { self == .csv ? "," : "\t" }
        var lineEnd: String { self == .csv ? "\r\n" : "\n" }
    }

    public static func format(_ rows: [ScanRow], dialect: Dialect, formulaGuard: Bool = true) -> String {
        var text = line(ScanColumn.all.map { .text($0.name) }, dialect, formulaGuard)
        for row in rows {
            text += line(ScanColumn.all.map { $0.value(row) }, dialect, formulaGuard)
        }
        return text
    }

    public static func format(_ events: [ScanTimelineEvent], dialect: Dialect, formulaGuard: Bool = true) -> String {
        let leading = ["datetime", "timestamp", "timestamp_desc", "message"]
        var text = line((leading + ScanColumn.all.map(\.name)).map(ScanColumn.Value.text), dialect, formulaGuard)
        for event in events {
            let fields: [ScanColumn.Value?] = [.text(event.datetime), .text(String(event.timestamp)), .text(event.timestampDescription), .text(event.message)]
            text += line(fields + ScanColumn.all.map(event.value(of:)), dialect, formulaGuard)
        }
        return text
    }

    private static func line(_ values: [ScanColumn.Value?], _ dialect: Dialect, _ formulaGuard: Bool) -> String {
        values.map { field($0, dialect, formulaGuard: formulaGuard) }.joined(separator: dialect.separator) + dialect.lineEnd
    }

    static func field(_ value: ScanColumn.Value?, _ dialect: Dialect, formulaGuard: Bool = true) -> String {
        switch value {
        case nil: return ""
        case .number(let number): return String(number)
        case .text(var text):
            if dialect == .csv, formulaGuard, let first = text.unicodeScalars.first, "=+-@".unicodeScalars.contains(first) {
                text = "'" + text
            }
            guard dialect == .csv, text.contains(where: { $0 == "," || $0 == "\"" }) else { return text }
            return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
        }
    }
}
