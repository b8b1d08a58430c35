/// The `dump --json` document for one file (schema version 1; documented in the README and
/// the man page). Absent metadata is written as null, never left out.
public struct DumpDocument: Encodable {
    public static let schemaVersion = 1

    public let file: String
    public let archive: RestorationArchive

    public init(file: String, archive: RestorationArchive) {
        self.file = file
        self.archive = archive
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
        try container.encode(ObjectList(objects: archive.objects), forKey: .objects)
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
            .array(paths.map { .string($0.rawValue) })
        }
    }

    /// The objects, each deferred until written (see `ObjectDocument`).
    private struct ObjectList: Encodable, JSONNodeConvertible {
        let objects: [RestorationObject]

        func encode(to encoder: any Encoder) throws {
            try jsonNode.encode(to: encoder)
        }

        var jsonNode: JSONNode {
            .array(objects.map { ObjectDocument($0).jsonNode })
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
