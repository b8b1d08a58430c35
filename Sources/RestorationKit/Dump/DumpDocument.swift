/// The `dump --json` document for one file (schema version 1; documented in docs/json.md and
/// the man page). Absent metadata is written as null, never left out.
package struct DumpDocument: JSONRepresentable {
    public static let schemaVersion = 1

    public let file: String
    public let archive: RestorationArchive

    public init(file: String, archive: RestorationArchive) {
        self.file = file
        self.archive = archive
    }

    /// Reads the file at `path` (`-` for standard input), named `file` in the document, as
    /// `RestorationArchive(contentsOf:limits:interpret:)` reads it.
    public init(contentsOf path: String, file: String, limits: DecodingLimits = .default, interpret: Bool = true) throws(ArchiveError) {
        try self.init(contentsOf: path, file: file, limits: limits, interpret: interpret, options: .init())
    }

    package init(contentsOf path: String, file: String, limits: DecodingLimits, interpret: Bool, options: SavedStateReading.Options) throws(ArchiveError) {
        self.init(file: file, archive: try RestorationArchive.read(contentsOf: path, limits: limits, interpret: interpret, options: options))
    }

    /// The same document with only the objects at or below `prefix` (see
    /// `RestorationArchive.restricted(to:)`).
    public func restricted(to prefix: IdentifierPath) -> DumpDocument {
        DumpDocument(file: file, archive: archive.restricted(to: prefix))
    }

    package var jsonNode: JSONNode {
        .members([
            "schemaVersion": Self.schemaVersion,
            "file": file,
            "kind": archive.kind.rawValue,
            "archive": JSONNode.members([
                "majorVersion": archive.majorVersion.map { ArchiveValue.integer($0) },
                "minorVersion": archive.minorVersion.map { ArchiveValue.integer($0) },
            ]),
            "bundleVersion": archive.bundleVersion,
            "systemVersion": archive.systemVersion,
            "timestamp": archive.timestamp.map(JSONNode.timestamp),
            "userInterfaceIdiom": archive.userInterfaceIdiom.map(JSONNode.idiom),
            // Path → class name; a path a damaged archive repeats is repeated, as everywhere in
            // the JSON.
            "restorationClassMap": JSONNode.object(archive.restorationClassMap.entries.map { ($0.0, .string($0.1)) }),
            // The listed paths, the other `$top` keys and the objects, written when the writer
            // gets to them: there may be tens of thousands of each.
            "identifierPaths": JSONNode.deferred(.identifierPaths(archive.identifierPaths)),
            "objects": JSONNode.deferred(.savedObjects(archive)),
            "appState": JSONNode.deferred(.appState(archive)),
            "notes": archive.notes,
        ])
    }
}

extension JSONNode {
    /// A timestamp in ISO 8601 when the date has one; otherwise the tagged form of a date value.
    static func timestamp(_ seconds: Double) -> JSONNode {
        ReferenceDate.iso8601(seconds)?.jsonNode ?? ArchiveValue.date(seconds).jsonNode
    }

    /// An idiom's raw value and name.
    static func idiom(_ idiom: UserInterfaceIdiom) -> JSONNode {
        .members(["raw": ArchiveValue.integer(idiom.rawValue), "name": idiom.name])
    }
}

/// One entry of the document's `objects`, written only when the writer gets to it: an archive
/// holds tens of thousands of them.
enum ObjectDocument {
    /// The object's members, in the order the writer sorts them into: its state, views and
    /// undecoded entry from `onTape`, nodes of the tape `view` is of.
    static func write(_ object: RestorationObject, _ onTape: TapeObject, in view: TapeView, to writer: inout JSONTextWriter) {
        let tapeValue = JSONTapeValue(view: view)
        let keys = onTape.entry == nil ? members : members + ["entry"]
        tapeValue.writeMembers(keys.count, to: &writer, key: { JSONTapeValue.MemberKey(keys[$0]) }) { writer, index in
            switch index {
            case 0: writer.writeComponents(of: object.identifierPath)
            case 1: writer.writeString(object.identifierPath.rawValue)
            case 2: writer.writeString(object.restorationClass)
            case 3: writer.writeString(object.restorationClass.flatMap(SwiftDemangler.demangle))
            case 4:
                if let state = onTape.state { tapeValue.writeState(state, to: &writer) } else { writer.writeNull() }
            case 5: writer.writeString(object.stateProblem)
            case 6: tapeValue.writeViews(onTape.views, to: &writer)
            default: tapeValue.write(onTape.entry!, to: &writer)
            }
        }
    }

    /// The members of every object, in order; names of ours, so written without a check for
    /// escapes and sorted by their bytes at no cost (they come sorted).
    private static let members: [StaticString] = ["components", "identifierPath", "restorationClass", "restorationClassDemangled", "state", "stateProblem", "views"]
}
