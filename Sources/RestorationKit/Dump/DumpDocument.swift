/// The `dump --json` document for one file (schema version 1; documented in docs/json.md and
/// the man page). Absent metadata is written as null, never left out.
package struct DumpDocument: Encodable {
    public static let schemaVersion = 1

    public let file: String
    /// The archive shown. In a document read by `init(contentsOf:…)`, an object whose state
    /// was rendered straight from the file (see `StreamedDump`) has neither `state` nor `views`
    /// here: the document's JSON has them.
    public let archive: RestorationArchive
    /// The streamed objects, one per object of `archive` (nil for one that was decoded), or
    /// empty when none was streamed.
    let streamed: [StreamedObject?]

    public init(file: String, archive: RestorationArchive) {
        self.init(file: file, archive: archive, streamed: [])
    }

    init(file: String, archive: RestorationArchive, streamed: [StreamedObject?]) {
        precondition(streamed.isEmpty || streamed.count == archive.objects.count, "streamed objects do not match the archive's")
        self.file = file
        self.archive = archive
        self.streamed = streamed
    }

    /// Reads the file at `path` (`-` for standard input), named `file` in the document, for
    /// `dump --json`: as `RestorationArchive(contentsOf:limits:interpret:)` reads it, but a
    /// plain archive's objects are rendered straight from the bytes, which is several times
    /// faster on a large archive. The JSON is the same either way.
    public init(contentsOf path: String, file: String, limits: DecodingLimits = .default, interpret: Bool = true) throws(ArchiveError) {
        let bytes = try InputFile.read(path, limit: limits.maxInputBytes)
        try self.init(bytes: bytes[...], file: file, limits: limits, interpret: interpret)
    }

    /// The document of a file already read (see `init(contentsOf:file:limits:interpret:)`);
    /// `allowsConcurrency` and `minimumAheadBytes` as `StreamedDump.read` takes them.
    init(
        bytes: ArraySlice<UInt8>, file: String, limits: DecodingLimits, interpret: Bool = true, allowsConcurrency: Bool = true,
        minimumAheadBytes: Int = 64 * 1024
    ) throws(ArchiveError) {
        if let (archive, streamed) = StreamedDump.read(
            bytes, limits: limits, interpret: interpret, allowsConcurrency: allowsConcurrency, minimumAheadBytes: minimumAheadBytes) {
            self.init(file: file, archive: archive, streamed: streamed)
        } else {
            self.init(file: file, archive: try RestorationArchive(bytes: bytes, limits: limits, interpret: interpret))
        }
    }

    /// How many objects were rendered straight from the file.
    package var streamedObjectCount: Int {
        streamed.lazy.filter { $0 != nil }.count
    }

    /// The same document with only the objects at or below `prefix` (see
    /// `RestorationArchive.restricted(to:)`).
    public func restricted(to prefix: IdentifierPath) -> DumpDocument {
        let kept = streamed.indices.filter { archive.objects[$0].identifierPath.hasPrefix(prefix) }
        return DumpDocument(file: file, archive: archive.restricted(to: prefix), streamed: kept.map { streamed[$0] })
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
        try container.encode(ObjectList(objects: archive.objects, streamed: streamed), forKey: .objects)
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
        let streamed: [StreamedObject?]

        func encode(to encoder: any Encoder) throws {
            try jsonNode.encode(to: encoder)
        }

        var jsonNode: JSONNode {
            // Usually every object was rendered ahead: then one node for them all.
            if !objects.isEmpty, streamed.count == objects.count, streamed.allSatisfy({ $0 != nil }) {
                return .deferred(.streamedObjects(streamed, objects))
            }
            return .array(objects.indices.map { index in
                guard !streamed.isEmpty, let object = streamed[index] else { return ObjectDocument(objects[index]).jsonNode }
                return .deferred(.streamedObject(object, objects[index]))
            })
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

    static func node(_ object: RestorationObject) -> JSONNode {
        func string(_ text: String?) -> JSONNode { text.map { .string($0) } ?? .null }
        var members: [(key: String, value: JSONNode)] = [
            ("identifierPath", .string(object.identifierPath.rawValue)),
            ("components", .array(object.identifierPath.rawComponents.map { .string($0) })),
            ("restorationClass", string(object.restorationClass)),
            ("restorationClassDemangled", string(object.restorationClass.flatMap(SwiftDemangler.demangle))),
            ("state", object.state.map { .deferred(.fields($0)) } ?? .null),
            ("views", .object(object.views.map { ($0.identifierPath.rawValue, .deferred(.fields($0.state))) })),
            ("stateProblem", string(object.stateProblem)),
        ]
        if let entry = object.undecodedEntry {
            members.append(("entry", .deferred(.value(entry))))
        }
        return .object(members)
    }
}
