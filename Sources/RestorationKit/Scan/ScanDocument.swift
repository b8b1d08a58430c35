/// `scan --format json` (schema version 1): the directories searched and one object per archive.
package struct ScanDocument: JSONRepresentable {
    public static let schemaVersion = 1
    public let directories: [String]
    public let rows: [ScanRow]

    public init(directories: [String], rows: [ScanRow]) {
        self.directories = directories
        self.rows = rows
    }

    package var jsonNode: JSONNode {
        .members(["schemaVersion": Self.schemaVersion, "directories": directories, "archives": rows.map(ScanArchiveDocument.init)])
    }
}

/// One archive of `scan --format json`, and one line of `--format jsonl`.
package struct ScanArchiveDocument: JSONRepresentable {
    let row: ScanRow

    public init(_ row: ScanRow) {
        self.row = row
    }

    package var jsonNode: JSONNode {
        .members([
            "path": row.path,
            "bundleIdentifier": row.bundleIdentifier,
            "sceneSession": row.sceneSession,
            "kind": row.kind.rawValue,
            "window": row.window,
            "timestamp": row.timestamp.flatMap(ReferenceDate.iso8601),
            "modified": row.modificationTime?.iso8601,
            "bundleVersion": row.bundleVersion,
            "systemVersion": row.systemVersion,
            "objects": row.objectCount,
            "status": row.verdict,
            "errors": row.errors,
            "warnings": row.warnings,
            "findings": row.findings,
            "valid": row.problem == nil && row.errors == 0,
            "problem": row.problem,
            "restoreWarnings": row.sidecarNotes,
            "size": row.size,
            "sha256": row.sha256,
        ])
    }
}
