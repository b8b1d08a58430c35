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
        try container.encode(JSONFields(archive.appState), forKey: .appState)
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
    private struct PathList: Encodable, JSONNodeConvertible {
        let paths: [IdentifierPath]

        func encode(to encoder: any Encoder) throws {
            try jsonNode.encode(to: encoder)
        }

        var jsonNode: JSONNode {
            .deferred(.identifierPaths(paths))
        }
    }

    /// The objects, each deferred until written (see `ObjectDocument`).
    private struct ObjectList: Encodable, JSONNodeConvertible {
        let objects: [RestorationObject]
        let deferred: DeferredStates?

        func encode(to encoder: any Encoder) throws {
            try jsonNode.encode(to: encoder)
        }

        var jsonNode: JSONNode {
            guard let deferred else { return .array(objects.map { ObjectDocument($0).jsonNode }) }
            return .deferred(.savedObjects(deferred, objects))
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
            if let iso = ReferenceDate.iso8601(seconds) {
                var container = encoder.singleValueContainer()
                try container.encode(iso)
            } else {
                try JSONArchiveValue(.date(seconds)).encode(to: encoder)
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

/// One entry of the document's `objects`, built as nodes directly and only when written: an
/// archive holds tens of thousands of them.
struct ObjectDocument: Encodable, JSONNodeConvertible {
    let object: RestorationObject

    init(_ object: RestorationObject) {
        self.object = object
    }

    func encode(to encoder: any Encoder) throws {
        try jsonNode.encode(to: encoder)
    }

    var jsonNode: JSONNode {
        .deferred(.restorationObject(object))
    }

    /// The object's members, in the order the writer sorts them into. `stateAndViews`, when
    /// given, writes the object's state (or, told `true`, its views) left on a tape, for its
    /// `state` and `views`.
    static func write<Sink: JSONSink>(_ object: RestorationObject, to sink: inout Sink, stateAndViews: ((inout Sink, _ views: Bool) -> Void)? = nil) {
        let entry = object.undecodedEntry
        sink.writeObject(keys: entry == nil ? keys : keys + ["entry"]) { sink, index in
            switch index {
            case 0: sink.writeComponents(of: object.identifierPath)
            case 1: sink.writeString(object.identifierPath.rawValue)
            case 2: sink.writeString(object.restorationClass)
            case 3: sink.writeString(object.restorationClass.flatMap(SwiftDemangler.demangle))
            case 4:
                if let stateAndViews { stateAndViews(&sink, false) } else if let state = object.state { JSONFields.write(state, to: &sink) } else { sink.writeNull() }
            case 5: sink.writeString(object.stateProblem)
            case 6:
                if let stateAndViews { stateAndViews(&sink, true) } else { writeViews(object.views, to: &sink) }
            default: JSONArchiveValue.write(entry!, to: &sink)
            }
        }
    }

    /// The members of every object, in order.
    private static let keys = ["components", "identifierPath", "restorationClass", "restorationClassDemangled", "state", "stateProblem", "views"]

    /// Views by path.
    static func writeViews<Sink: JSONSink>(_ views: [RestorationView], to sink: inout Sink) {
        sink.writeObject(keys: views.map(\.identifierPath.rawValue)) { sink, index in JSONFields.write(views[index].state, to: &sink) }
    }
}
