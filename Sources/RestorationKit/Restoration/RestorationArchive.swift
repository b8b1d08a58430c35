import Synchronization

/// A UIKit state-restoration archive (`data.data`), read into UIKit's terms.
///
/// Whatever the model does not interpret stays visible: keys it does not know are in `appState`,
/// and a known key whose value has an unexpected type is left there too, with a note.
public struct RestorationArchive: Hashable, Sendable {
    /// False for a keyed archive that is not a restoration archive; it is then described only
    /// by `appState` (all of its `$top` keys) and `notes`.
    public internal(set) var isRestorationArchive: Bool
    public internal(set) var majorVersion: Int128?
    public internal(set) var minorVersion: Int128?
    public internal(set) var bundleVersion: String?
    public internal(set) var systemVersion: String?
    /// Seconds since 2001-01-01T00:00:00Z.
    public internal(set) var timestamp: Double?
    public internal(set) var userInterfaceIdiom: UserInterfaceIdiom?
    /// Identifier path → restoration class name, in archive order.
    public internal(set) var restorationClassMap: OrderedFields<String>
    /// `kRootRestorationIdentifiersKey`, in the order UIKit saved the objects (duplicates kept).
    public internal(set) var identifierPaths: [IdentifierPath]
    /// One object per distinct listed path, in listed order.
    public internal(set) var objects: [RestorationObject] {
        didSet { objectIndex = ObjectIndex() }
    }
    /// The remaining `$top` keys.
    public internal(set) var appState: ArchiveFields
    /// What the model could not interpret, in words.
    public internal(set) var notes: [String]
    /// What kind of saved-state file it was read from. A file of another kind than a keyed
    /// archive is shown as one: its content as `appState`, what it is in `notes`.
    public internal(set) var kind: SavedStateKind = .keyedArchive
    /// What a file of another kind than a keyed archive was read into.
    public internal(set) var content: SavedStateContent?
    /// The tape the archive was read into: the objects' entries and `appState` are its nodes.
    let tape: ArchiveTape
    /// The limits it was read with.
    let limits: DecodingLimits
    /// The positions in `$top` of `appState`'s keys, in order.
    let appStatePositions: [Int]
    /// Each `$top` key that appears more than once, with its count (see `repeatedKeys`).
    let repeatedTopKeys: [(key: String, count: Int)]
    /// `objects`' positions by path, for `object(at:)`.
    private var objectIndex = ObjectIndex()

    /// The decoded archive the model was read from: its `$top` keys and their values (views).
    public var archive: KeyedArchive {
        tape.keyedArchive
    }

    /// Reads `archive` in UIKit's terms; with `interpret` false (`dump --raw`), or when it is not a
    /// restoration archive, every `$top` key is left as it is, in `appState`. Its values are put
    /// on a tape first, as the decoder would have; `limits` must allow their nesting.
    public init(archive: KeyedArchive, interpret: Bool = true, limits: DecodingLimits = .default) {
        self.init(tape: ArchiveTape.of(archive), limits: limits, interpret: interpret)
    }

    /// Reads the keyed archive `tape` holds. `allowsConcurrency` lets a large archive's objects
    /// be read on all processors (the result is the same either way; tests compare the two).
    init(tape: ArchiveTape, limits: DecodingLimits, interpret: Bool, allowsConcurrency: Bool = true) {
        self.tape = tape
        self.limits = limits
        // `$top`'s keys, indexed once; the model takes their values as views.
        var reader = TopReader(tape: tape)
        let top = reader.keys
        isRestorationArchive = interpret && (top.position(of: RestorationKeys.majorVersion) != nil || top.position(of: RestorationKeys.identifierPaths) != nil)
        kind = isRestorationArchive ? .restorationArchive : .keyedArchive
        repeatedTopKeys = Self.repeatedKeys(top)
        let rootNotes = tape.repeatedRootKeys.map { key, count in
            "the root dictionary holds \(key) \(count) times: the first is read, the others are not"
        }
        guard isRestorationArchive else {
            restorationClassMap = .empty
            identifierPaths = []
            objects = []
            appStatePositions = reader.untakenPositions
            appState = reader.remaining
            notes = [interpret
                ? "not a UIKit state-restoration archive (no \(RestorationKeys.majorVersion) or \(RestorationKeys.identifierPaths)): shown as a generic keyed archive"
                : "shown raw, as a generic keyed archive (--raw)"] + rootNotes
            return
        }
        majorVersion = reader.take(RestorationKeys.majorVersion, as: "an integer") { $0.integerValue }
        minorVersion = reader.take(RestorationKeys.minorVersion, as: "an integer") { $0.integerValue }
        bundleVersion = reader.take(RestorationKeys.bundleVersion, as: "a string") { $0.stringValue }
        systemVersion = reader.take(RestorationKeys.systemVersion, as: "a string") { $0.stringValue }
        timestamp = reader.take(RestorationKeys.timestamp, as: "a date") { $0.dateValue }
        userInterfaceIdiom = reader.take(RestorationKeys.userInterfaceIdiom, as: "an integer") {
            $0.integerValue.map(UserInterfaceIdiom.init(rawValue:))
        }
        let classMap = reader.take(RestorationKeys.classMap, as: "a dictionary of path strings to class-name strings") { value -> OrderedFields<String>? in
            // Keys and names gathered first: the map indexes its tens of thousands of paths once.
            let (map, count) = (value.node, value.node.memberCount)
            guard map.kind == .dictionary else { return nil }
            var (paths, names) = ([String](), [String]())
            paths.reserveCapacity(count)
            names.reserveCapacity(count)
            for position in 0..<count {
                let (path, name) = (tape.nodes[map.first + position], tape.nodes[map.first + count + position])
                guard path.kind == .string, name.kind == .string else { return nil }
                paths.append(tape.string(path))
                names.append(tape.string(name))
            }
            return OrderedFields(keys: paths, values: names)
        } ?? .empty
        restorationClassMap = classMap
        identifierPaths = reader.take(RestorationKeys.identifierPaths, as: "an array of path strings") { value in
            guard value.kind == .array, let elements = value.elements else { return nil }
            let paths = elements.compactMap(\.stringValue)
            guard paths.count == elements.count else { return nil }
            return paths.map { IdentifierPath($0) }
        } ?? []

        // Each path once. A path with an entry is known by the entry's position (hashing every
        // path again for a set costs as much as the rest of the listing); only paths without
        // one go into a set. The entries are looked up on all processors: hashing the paths is
        // most of the listing's work.
        let paths = identifierPaths
        let entryPositions = Parallel.mapParts(of: paths.count) { range in
            range.map { top.position(of: paths[$0].rawValue) }
        }.joined()
        var listed: [(path: IdentifierPath, position: Int?)] = []
        var listedPositions = [Bool](repeating: false, count: top.count)
        var seenWithoutEntry = Set<IdentifierPath>()
        for (path, position) in zip(identifierPaths, entryPositions) {
            if let position {
                guard !listedPositions[position] else { continue }
                listedPositions[position] = true
                reader.take(at: position)
                listed.append((path, position))
            } else if seenWithoutEntry.insert(path).inserted {
                listed.append((path, nil))
            }
        }
        // An object is a view of its entry; looking up its class in the map, which hashes its
        // path, is the work spread over the processors.
        objects = Parallel.map(listed, concurrently: allowsConcurrency) { path, position in
            var object = RestorationObject(identifierPath: path, entry: position.map { tape.value(tape.topNode(at: $0)) })
            object.restorationClass = classMap[path.rawValue]
            return object
        }
        appStatePositions = reader.untakenPositions
        appState = reader.remaining
        notes = rootNotes + reader.notes + repeatedTopKeys.map { key, count in
            "$top holds \(key) \(count) times: the first value is read, the others are shown among the other keys"
        }
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.isRestorationArchive == b.isRestorationArchive && a.majorVersion == b.majorVersion && a.minorVersion == b.minorVersion
            && a.bundleVersion == b.bundleVersion && a.systemVersion == b.systemVersion && a.timestamp?.bitPattern == b.timestamp?.bitPattern
            && a.userInterfaceIdiom == b.userInterfaceIdiom && a.restorationClassMap == b.restorationClassMap
            && a.identifierPaths == b.identifierPaths && a.objects == b.objects && a.appState == b.appState && a.notes == b.notes
            && a.kind == b.kind && a.content == b.content
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifierPaths)
        hasher.combine(objects)
        hasher.combine(notes)
    }

    /// Each `$top` key that appears more than once, with its count, in first-appearance order;
    /// keys are the same when their bytes are (see `ExactText`).
    static func repeatedKeys<Value>(_ top: OrderedFields<Value>) -> [(key: String, count: Int)] {
        guard top.hasRepeatedKeys else { return [] }
        var counts: [ExactText: Int] = [:]
        for key in top.keys { counts[ExactText(key), default: 0] += 1 }
        var reported = Set<ExactText>()
        return top.keys.compactMap { key in
            guard let count = counts[ExactText(key)], count > 1, reported.insert(ExactText(key)).inserted else { return nil }
            return (key, count)
        }
    }

    /// The same archive with only the objects at or below `prefix` (and their listed paths and
    /// class-map entries); metadata and app-level keys stay.
    public func restricted(to prefix: IdentifierPath) -> RestorationArchive {
        var copy = self
        copy.objects = objects.filter { $0.identifierPath.hasPrefix(prefix) }
        copy.identifierPaths = identifierPaths.filter { $0.hasPrefix(prefix) }
        let kept = restorationClassMap.entries.filter { IdentifierPath($0.0).hasPrefix(prefix) }
        copy.restorationClassMap = OrderedFields(keys: kept.map(\.0), values: kept.map(\.1))
        copy.notes.append(copy.objects.isEmpty
            ? "no saved object at or below \(prefix.rawValue)"
            : "only the objects at or below \(prefix.rawValue) are shown (--path)")
        return copy
    }

    /// The object saved under `path`, if it is listed: looked up in an index of the objects'
    /// paths, made by the first call (most commands never ask).
    public func object(at path: IdentifierPath) -> RestorationObject? {
        objectIndex.position(of: path, in: objects).map { objects[$0] }
    }
}

/// The positions of an archive's objects by identifier path, made when first asked for and shared
/// by the archive's copies until one changes its objects.
private final class ObjectIndex: Sendable {
    private let positions = Mutex<[IdentifierPath: Int]?>(nil)

    func position(of path: IdentifierPath, in objects: [RestorationObject]) -> Int? {
        positions.withLock { positions in
            if positions == nil {
                var index: [IdentifierPath: Int] = [:]
                index.reserveCapacity(objects.count)
                // Paths are distinct; the first is kept all the same.
                for (position, object) in objects.enumerated() where index[object.identifierPath] == nil {
                    index[object.identifierPath] = position
                }
                positions = index
            }
            return positions![path]
        }
    }
}

/// Takes the keys the model understands out of the tape's `$top`, leaving the rest.
private struct TopReader {
    let tape: ArchiveTape
    /// `$top`'s keys, each with its position: what the model looks keys up in.
    let keys: OrderedFields<Int>
    /// By position.
    var taken: [Bool]
    var notes: [String] = []

    init(tape: ArchiveTape) {
        self.tape = tape
        let (first, count) = (tape.root.first, tape.root.memberCount)
        keys = OrderedFields(keys: (0..<count).map { tape.string(tape.nodes[first + $0]) }, values: Array(0..<count))
        taken = [Bool](repeating: false, count: count)
    }

    /// The value at `position`.
    func value(at position: Int) -> ArchiveValue {
        ArchiveValue(tape.topNode(at: position), on: tape)
    }

    /// The value of `key` converted by `convert`; a value that does not convert stays in the
    /// remaining keys and gets a note.
    mutating func take<T>(_ key: String, as expected: String, _ convert: (ArchiveValue) -> T?) -> T? {
        guard let position = keys.position(of: key) else { return nil }
        let value = value(at: position)
        guard let converted = convert(value) else {
            notes.append("\(key) is \(value.kindDescription), not \(expected): left among the other keys")
            return nil
        }
        taken[position] = true
        return converted
    }

    /// Takes the entry at `position`, which the model reads from the tape.
    mutating func take(at position: Int) {
        taken[position] = true
    }

    /// The positions of the entries not taken, in order.
    var untakenPositions: [Int] {
        taken.indices.filter { !taken[$0] }
    }

    /// The entries not taken, as values: nested archives no object reads (a key repeated, an
    /// archive nobody listed, every key of an archive that is no restoration archive) included.
    var remaining: ArchiveFields {
        let positions = untakenPositions
        return ArchiveFields(keys: positions.map { keys.keys[$0] }, values: positions.map(value(at:)))
    }
}
