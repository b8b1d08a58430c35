/// A UIKit state-restoration archive (`data.data`), read into UIKit's terms.
///
/// Whatever the model does not interpret stays visible: keys it does not know are in `appState`,
/// and a known key whose value has an unexpected type is left there too, with a note.
public struct RestorationArchive: Hashable, Sendable {
    /// False for a keyed archive that is not a restoration archive; it is then described only
    /// by `appState` (all of its `$top` keys) and `notes`.
    public var isRestorationArchive: Bool
    public var majorVersion: Int128?
    public var minorVersion: Int128?
    public var bundleVersion: String?
    public var systemVersion: String?
    /// Seconds since 2001-01-01T00:00:00Z.
    public var timestamp: Double?
    public var userInterfaceIdiom: UserInterfaceIdiom?
    /// Identifier path → restoration class name, in archive order.
    public var restorationClassMap: OrderedFields<String>
    /// `kRootRestorationIdentifiersKey`, in the order UIKit saved the objects (duplicates kept).
    public var identifierPaths: [IdentifierPath]
    /// One object per distinct listed path, in listed order.
    public var objects: [RestorationObject]
    /// The remaining `$top` keys.
    public var appState: ArchiveFields
    /// What the model could not interpret, in words.
    public var notes: [String]
    /// The decoded archive the model was read from.
    public var archive: KeyedArchive
    /// What kind of saved-state file it was read from. A file of another kind than a keyed
    /// archive is shown as one: its content as `appState`, what it is in `notes`.
    public var kind: SavedStateKind = .keyedArchive
    /// What a file of another kind than a keyed archive was read into.
    public var content: SavedStateContent?

    /// Reads `archive` in UIKit's terms; with `interpret` false (`dump --raw`), or when it is not a
    /// restoration archive, every `$top` key is left as it is, in `appState`.
    public init(archive: KeyedArchive, interpret: Bool = true) {
        self.init(archive: archive, interpret: interpret, allowsConcurrency: true)
    }

    /// `allowsConcurrency` lets a large archive's objects be read on all processors (the result
    /// is the same either way; tests compare the two).
    init(archive: KeyedArchive, interpret: Bool, allowsConcurrency: Bool) {
        var pending: PendingObjects?
        self.init(archive: archive, interpret: interpret, pending: &pending)
        if let pending {
            readObjects(pending, allowsConcurrency: allowsConcurrency)
        }
    }

    /// The objects listed in `$top` (each path once, with its entry), which `readObjects` reads.
    struct PendingObjects {
        let listed: [(path: IdentifierPath, entry: ArchiveValue?)]
        /// By position in `listed`: where the entry is in `$top` (nil for a path without one).
        let positions: [Int?]
        fileprivate let reader: TopReader
        /// By position in `listed` (or empty): objects whose entry `DeferredStates` keeps, read
        /// without state, problem or undecoded entry.
        var deferred: [Bool] = []

        /// The positions in `$top` of the keys `readObjects` leaves in `appState`, in order.
        var appStatePositions: [Int] {
            reader.untakenPositions
        }
    }

    /// Reads the metadata and lists the objects, leaving `objects`, `appState` and `notes` to
    /// `readObjects(pending)` (see `DeferredStates`). `pending`
    /// stays nil for an archive that is not a restoration archive, which is then read whole.
    init(archive: KeyedArchive, interpret: Bool, pending: inout PendingObjects?) {
        pending = nil
        var reader = TopReader(top: archive.top)
        self.archive = archive
        isRestorationArchive = interpret && (archive.top[RestorationKeys.majorVersion] != nil
            || archive.top[RestorationKeys.identifierPaths] != nil)
        kind = isRestorationArchive ? .restorationArchive : .keyedArchive
        guard isRestorationArchive else {
            self.restorationClassMap = .empty
            self.identifierPaths = []
            self.objects = []
            self.appState = archive.top
            self.notes = [interpret
                ? "not a UIKit state-restoration archive (no \(RestorationKeys.majorVersion) or \(RestorationKeys.identifierPaths)): shown as a generic keyed archive"
                : "shown raw, as a generic keyed archive (--raw)"] + Self.rootNotes(archive)
            return
        }
        majorVersion = reader.take(RestorationKeys.majorVersion, as: "an integer") { $0.integerValue }
        minorVersion = reader.take(RestorationKeys.minorVersion, as: "an integer") { $0.integerValue }
        bundleVersion = reader.take(RestorationKeys.bundleVersion, as: "a string") { $0.stringValue }
        systemVersion = reader.take(RestorationKeys.systemVersion, as: "a string") { $0.stringValue }
        timestamp = reader.take(RestorationKeys.timestamp, as: "a date") { value in
            if case .date(let seconds) = value { return seconds }
            return nil
        }
        userInterfaceIdiom = reader.take(RestorationKeys.userInterfaceIdiom, as: "an integer") {
            $0.integerValue.map(UserInterfaceIdiom.init(rawValue:))
        }
        restorationClassMap = reader.take(RestorationKeys.classMap, as: "a dictionary of path strings to class-name strings") { value in
            // Keys and names gathered first: the map indexes its tens of thousands of paths once.
            guard case .dictionary(let dictionary) = value else { return nil }
            var (paths, names) = ([String](), [String]())
            paths.reserveCapacity(dictionary.count)
            names.reserveCapacity(dictionary.count)
            for entry in dictionary.entries {
                guard case .string(let path) = entry.key, case .string(let name) = entry.value else { return nil }
                paths.append(path)
                names.append(name)
            }
            return OrderedFields(keys: paths, values: names)
        } ?? .empty
        identifierPaths = reader.take(RestorationKeys.identifierPaths, as: "an array of path strings") { value in
            guard case .array(let elements) = value else { return nil }
            let paths = elements.compactMap(\.stringValue)
            guard paths.count == elements.count else { return nil }
            return paths.map(IdentifierPath.init)
        } ?? []

        // Each path once. A path with an entry is known by the entry's position (hashing every
        // path again for a set costs as much as the rest of the listing); only paths without
        // one go into a set. The entries are looked up on all processors: hashing the paths is
        // most of the listing's work.
        let (top, paths) = (archive.top, identifierPaths)
        let entryPositions = DeepStack.mapParts(of: paths.count, stackSize: 1 << 20) { range in
            range.map { top.position(of: paths[$0].rawValue) }
        }.joined()
        var listed: [(path: IdentifierPath, entry: ArchiveValue?)] = []
        var positions: [Int?] = []
        var listedPositions = [Bool](repeating: false, count: archive.top.count)
        var seenWithoutEntry = Set<IdentifierPath>()
        for (path, position) in zip(identifierPaths, entryPositions) {
            if let position {
                guard !listedPositions[position] else { continue }
                listedPositions[position] = true
                listed.append((path, reader.take(at: position)))
                positions.append(position)
            } else if seenWithoutEntry.insert(path).inserted {
                listed.append((path, nil))
                positions.append(nil)
            }
        }
        self.objects = []
        self.appState = .empty
        self.notes = []
        pending = PendingObjects(listed: listed, positions: positions, reader: reader)
    }

    /// Reads the objects listed by `init(archive:interpret:pending:)`, and the remaining keys.
    mutating func readObjects(_ pending: PendingObjects, allowsConcurrency: Bool) {
        let classMap = restorationClassMap
        let (listed, deferred) = (pending.listed, pending.deferred)
        // Reading an object's views copies its state: shallow work (no recursion into values),
        // for which a small stack is enough.
        objects = DeepStack.map(Array(listed.indices), concurrently: allowsConcurrency, stackSize: 1 << 20) { position in
            let path = listed[position].path
            var object = !deferred.isEmpty && deferred[position]
                ? RestorationObject(identifierPath: path, state: nil)
                : Self.object(path: path, entry: listed[position].entry)
            object.restorationClass = classMap[path.rawValue]
            return object
        }
        appState = pending.reader.remaining
        notes = Self.rootNotes(archive) + pending.reader.notes + Self.repeatedKeys(archive.top).map { key, count in
            "$top holds \(key) \(count) times: the first value is read, the others are shown among the other keys"
        }
    }

    /// What the root dictionary repeats: the first value of each key is read, the others are
    /// not (they are not part of the archive NSKeyedUnarchiver reads either).
    static func rootNotes(_ archive: KeyedArchive) -> [String] {
        archive.rootKeyRepeats.map { key, count in
            "the root dictionary holds \(key) \(count) times: the first is read, the others are not"
        }
    }

    /// Each `$top` key that appears more than once, with its count, in first-appearance order;
    /// keys are the same when their bytes are (see `ExactText`).
    static func repeatedKeys(_ top: ArchiveFields) -> [(key: String, count: Int)] {
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

    /// The object saved under `path`, if it is listed.
    public func object(at path: IdentifierPath) -> RestorationObject? {
        objects.first { $0.identifierPath == path }
    }

    static func object(path: IdentifierPath, entry: ArchiveValue?) -> RestorationObject {
        switch entry {
        case .archive(let archive)?:
            // Split on a tape, as an object whose state is left on the decoder's tape is.
            let (tape, node) = ArchiveTape.of(archive.top)
            var strings = RepeatedStrings()
            return tape.restorationObject(path: path, splitting: node, sharing: &strings)
        case .data(let data)?:
            let problem = data.archiveError.map { "its entry is data that failed to decode as a keyed archive: \($0)" }
                ?? "its entry is \(data.bytes.count) bytes of data that are not a keyed archive"
            return RestorationObject(identifierPath: path, state: nil, stateProblem: problem, undecodedEntry: entry)
        case let value?:
            return RestorationObject(identifierPath: path, state: nil, stateProblem: "its entry is \(value.kindDescription), not a keyed archive", undecodedEntry: value)
        case nil:
            return RestorationObject(identifierPath: path, state: nil, stateProblem: "the archive has no entry for this path")
        }
    }
}

/// Takes the keys the model understands out of `$top`, leaving the rest.
private struct TopReader {
    let top: ArchiveFields
    /// By position in `top`.
    var taken: [Bool]
    var notes: [String] = []

    init(top: ArchiveFields) {
        self.top = top
        taken = [Bool](repeating: false, count: top.count)
    }

    /// The value of `key` converted by `convert`; a value that does not convert stays in the
    /// remaining keys and gets a note.
    mutating func take<T>(_ key: String, as expected: String, _ convert: (ArchiveValue) -> T?) -> T? {
        guard let position = top.position(of: key) else { return nil }
        let value = top.values[position]
        guard let converted = convert(value) else {
            notes.append("\(key) is \(value.kindDescription), not \(expected): left among the other keys")
            return nil
        }
        taken[position] = true
        return converted
    }

    /// The value at `position` (the first under its key).
    mutating func take(at position: Int) -> ArchiveValue {
        taken[position] = true
        return top.values[position]
    }

    var remaining: ArchiveFields {
        top.removing(positions: taken)
    }

    /// The positions in `top` of the `remaining` entries, in order.
    var untakenPositions: [Int] {
        taken.indices.filter { !taken[$0] }
    }
}
