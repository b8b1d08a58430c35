/// `scan --format json` (schema version 1): the directories searched, one object per archive,
/// and the directories that could not be read, each with the system's reason.
package struct ScanDocument: JSONRepresentable {
    public static let schemaVersion = 1
    public let directories: [String]
    public let rows: [ScanRow]
    public let unreadable: [(path: String, reason: String)]

    public init(directories: [String], rows: [ScanRow], unreadable: [(path: String, reason: String)] = []) {
        self.directories = directories
        self.rows = rows
        self.unreadable = unreadable
    }

    package var jsonNode: JSONNode {
        .members([
            "schemaVersion": Self.schemaVersion, "directories": directories, "archives": rows.map(ScanArchiveDocument.init),
            "unreadableDirectories": unreadable.map { JSONNode.members(["path": $0.path, "error": $0.reason]) },
        ])
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
            "windowID": row.windowID.map { Int($0) },
            "record": row.record,
            "title": row.title,
            "timestamp": row.timestamp.flatMap(ReferenceDate.iso8601),
            "modified": row.modificationTime?.iso8601,
            "bundleVersion": row.bundleVersion,
            "systemVersion": row.systemVersion,
            "objects": row.objectCount,
            "status": row.verdict,
            "errors": row.errors,
            "warnings": row.warnings,
            "findings": row.findings,
            "valid": row.reason == nil && row.errors == 0,
            "reason": row.reason,
            "restoreWarnings": row.sidecarNotes,
            "size": row.size,
            "sha256": row.sha256,
        ])
    }
}
