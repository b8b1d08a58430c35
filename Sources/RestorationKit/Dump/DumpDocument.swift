/// The `dump --json` document for one file (schema version 1; documented in docs/json.md and
/// the man page). Absent metadata is written as null, never left out.
package struct DumpDocument: Encodable {
    public static let schemaVersion = 1

    public let file: String
    /// The archive shown. In a document read by `init(contentsOf:…)`, an object whose state
    /// is left on the decoder's tape (see `DeferredStates`) has neither `state` nor `views`
    /// here: the document's JSON has them.
    public let archive: RestorationArchive
    /// The states left on the tape, for a document read by `init(contentsOf:…)`.
    let deferred: DeferredStates?

    public init(file: String, archive: RestorationArchive) {
        self.init(file: file, archive: archive, deferred: nil)
    }

    init(file: String, archive: RestorationArchive, deferred: DeferredStates?) {
        self.file = file
        self.archive = archive
        self.deferred = deferred
    }

    /// Reads the file at `path` (`-` for standard input), named `file` in the document, for
    /// `dump --json`: as `RestorationArchive(contentsOf:limits:interpret:)` reads it, but each
    /// saved object's state stays on the decoder's tape and is written from there. The JSON is
    /// the same either way.
    public init(contentsOf path: String, file: String, limits: DecodingLimits = .default, interpret: Bool = true) throws(ArchiveError) {
        let bytes = try InputFile.read(path, limit: limits.maxInputBytes)
        try self.init(bytes: bytes[...], file: file, limits: limits, interpret: interpret)
    }

    /// The document of a file already read (see `init(contentsOf:file:limits:interpret:)`).
    init(bytes: ArraySlice<UInt8>, file: String, limits: DecodingLimits, interpret: Bool = true) throws(ArchiveError) {
        let (archive, deferred) = try DeferredStates.read(bytes: bytes, limits: limits, interpret: interpret)
        self.init(file: file, archive: archive, deferred: deferred)
    }

    /// The same document with only the objects at or below `prefix` (see
    /// `RestorationArchive.restricted(to:)`).
    public func restricted(to prefix: IdentifierPath) -> DumpDocument {
        DumpDocument(file: file, archive: archive.restricted(to: prefix), deferred: deferred?.restricted(to: prefix, in: archive))
    }

    private enum Key: String, CodingKey {
        case schemaVersion, file, kind, archive, bundleVersion, systemVersion, timestamp
        case userInterfaceIdiom, restorationClassMap, identifierPaths, objects, appState, notes
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(Self.schemaVersion, forKey: .schemaVersion)
        try container.encode(file, forKey: .file)
        try container.encode(archive.isRestorationArchive ? "restorationArchive" : "keyedArchive", forKey: .kind)
        try container.encode(ArchiveVersion(archive), forKey: .archive)
        try container.encode(archive.bundleVersion, forKey: .bundleVersion)
        try container.encode(archive.systemVersion, forKey: .systemVersion)
        try container.encode(archive.timestamp.map(Timestamp.init), forKey: .timestamp)
        try container.encode(archive.userInterfaceIdiom.map(Idiom.init), forKey: .userInterfaceIdiom)
        try container.encode(ClassMap(map: archive.restorationClassMap), forKey: .restorationClassMap)
        try container.encode(PathList(paths: archive.identifierPaths), forKey: .identifierPaths)
        try container.encode(ObjectList(objects: archive.objects, deferred: deferred), forKey: .objects)
        try container.encode(AppState(archive: archive, deferred: deferred), forKey: .appState)
        try container.encode(archive.notes, forKey: .notes)
    }

    /// Path → class name; a path a damaged archive repeats is repeated, as everywhere in the JSON.
    private struct ClassMap: Encodable {
        let map: OrderedFields<String>

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: JSONKey.self)
            for (path, className) in map.entries {
                try container.encode(className, forKey: JSONKey(path))
            }
        }
    }

    /// The listed paths as nodes directly: there may be tens of thousands, and encoding each
    /// through `Encoder` containers costs more than writing it.
    private struct PathList: JSONNodeConvertible {
        let paths: [IdentifierPath]

        var jsonNode: JSONNode {
            .deferred(.identifierPaths(paths))
        }
    }

    /// The other `$top` keys, written when the writer gets to them.
    private struct AppState: JSONNodeConvertible {
        let archive: RestorationArchive
        let deferred: DeferredStates?

        var jsonNode: JSONNode {
            .deferred(.appState(archive, deferred))
        }
    }

    /// The objects, written when the writer gets to them (see `ObjectDocument`).
    private struct ObjectList: JSONNodeConvertible {
        let objects: [RestorationObject]
        let deferred: DeferredStates?

        var jsonNode: JSONNode {
            .deferred(.savedObjects(deferred, objects))
        }
    }

    private struct ArchiveVersion: Encodable {
        let majorVersion: Int128?
        let minorVersion: Int128?

        init(_ archive: RestorationArchive) {
            majorVersion = archive.majorVersion
            minorVersion = archive.minorVersion
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(majorVersion.map { JSONArchiveValue(.integer($0)) }, forKey: "majorVersion")
            try container.encode(minorVersion.map { JSONArchiveValue(.integer($0)) }, forKey: "minorVersion")
        }
    }

    /// ISO 8601 when the date has one; otherwise the tagged form of a date value.
    private struct Timestamp: Encodable {
        let seconds: Double

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if let iso = ReferenceDate.iso8601(seconds) {
                try container.encode(iso)
            } else {
                try container.encode(JSONArchiveValue(.date(seconds)))
            }
        }
    }

    private struct Idiom: Encodable {
        let idiom: UserInterfaceIdiom

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(JSONArchiveValue(.integer(idiom.rawValue)), forKey: "raw")
            try container.encode(idiom.name, forKey: "name")
        }
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
