/// `scan --format json` (schema version 1): the directories searched and one object per archive.
package struct ScanDocument: Encodable {
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
        try container.encode(rows.map(ScanArchiveDocument.init), forKey: "archives")
    }
}

/// One archive of `scan --format json`, and one line of `--format jsonl`.
package struct ScanArchiveDocument: Encodable {
    let row: ScanRow

    public init(_ row: ScanRow) {
        self.row = row
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        try container.encode(row.path, forKey: "path")
        try container.encode(row.bundleIdentifier, forKey: "bundleIdentifier")
        try container.encode(row.sceneSession, forKey: "sceneSession")
        try container.encode(row.timestamp.flatMap(ReferenceDate.iso8601), forKey: "timestamp")
        try container.encode(row.modificationTime?.iso8601, forKey: "modified")
        try container.encode(row.bundleVersion, forKey: "bundleVersion")
        try container.encode(row.systemVersion, forKey: "systemVersion")
        try container.encode(row.objectCount, forKey: "objects")
        try container.encode(row.verdict, forKey: "status")
        try container.encode(row.errors, forKey: "errors")
        try container.encode(row.warnings, forKey: "warnings")
        try container.encode(row.findings, forKey: "findings")
        try container.encode(row.problem == nil && row.errors == 0, forKey: "valid")
        try container.encode(row.problem, forKey: "problem")
        try container.encode(row.sidecarNotes, forKey: "restoreWarnings")
        try container.encode(row.size, forKey: "size")
        try container.encode(row.sha256, forKey: "sha256")
    }
}
