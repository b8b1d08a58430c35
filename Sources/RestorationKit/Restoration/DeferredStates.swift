/// The saved objects' states of a restoration archive left on the decoder's tape, which the
/// commands read from its nodes (`object(at:in:)`), or make into values one at a time
/// (`object(at:of:)`, for `diff`): the whole archive's tree of values is never made.
///
/// Goes with the `RestorationArchive` it was read with (see `read(bytes:limits:)`), whose
/// objects with a deferred state have `state` nil and no problem; their entries in
/// `archive.archive` are placeholders (`ArchiveTape.deferredArchive`). `object(at:of:)` gives
/// each object whole, as `RestorationArchive(bytes:)` reads it.
package struct DeferredStates: Sendable {
    let tape: ArchiveTape
    /// The limits the archive was read with.
    let limits: DecodingLimits
    /// By object: the node of its entry, a nested archive, or nil for an object read whole.
    private(set) var entries: [TapeNode?]
    /// The positions in `$top` of the archive's `appState` keys, in order; nil for an archive
    /// read whole.
    private let appStatePositions: [Int]?

    /// Reads the file at `path` (`-` for standard input) as
    /// `RestorationArchive(contentsOf:limits:followingLinks:)` does, but leaves the saved
    /// objects' states on the tape.
    package static func read(
        contentsOf path: String, limits: DecodingLimits, followingLinks: Bool = true, interpret: Bool = true, deferring: Bool = true,
        options: SavedStateReading.Options = .init()
    ) throws(ArchiveError) -> (RestorationArchive, DeferredStates) {
        try read(bytes: InputFile.read(path, limit: limits.maxInputBytes, followingLinks: followingLinks)[...], limits: limits, interpret: interpret, deferring: deferring,
                 path: path == "-" ? nil : path, options: options)
    }

    /// Reads the files at `paths` at the same time, each as `read(contentsOf:limits:…)` does (what
    /// `RestorationArchive.read(contentsOf:limits:)` describes): results in the order of `paths`,
    /// a file that cannot be read an error in its place.
    package static func read(
        contentsOf paths: [String], limits: DecodingLimits, deferring: Bool = true
    ) -> [Result<(RestorationArchive, DeferredStates), ArchiveError>] {
        var results = [Result<(RestorationArchive, DeferredStates), ArchiveError>?](repeating: nil, count: paths.count)
        results.withUnsafeMutableBufferPointer { results in
            DeepStack.concurrentPerform(count: paths.count, threads: min(paths.count, DeepStack.availableThreads), stackSize: DeepStack.stackSize(for: limits)) { index in
                results[index] = Result { () throws(ArchiveError) in try read(contentsOf: paths[index], limits: limits, deferring: deferring) }
            }
        }
        return results.map { $0! }
    }

    /// Reads `bytes` as `RestorationArchive(bytes:limits:interpret:)` does, but leaves the
    /// saved objects' states on the tape (unless not `deferring`: then the archive is read whole).
    ///
    /// A file of a `.savedState` folder that is no keyed archive (see `SavedStateKind`) is shown
    /// as one; `path` (nil for standard input) finds the keys of macOS window records.
    static func read(
        bytes: ArraySlice<UInt8>, limits: DecodingLimits, interpret: Bool = true, deferring defers: Bool = true,
        path: String? = nil, options: SavedStateReading.Options = .init()
    ) throws(ArchiveError) -> (RestorationArchive, DeferredStates) {
        if let shown = try SavedStateReading.readUnlessPropertyList(bytes: bytes, path: path, limits: limits, options: options) {
            return shown
        }
        let tape = try KeyedArchiveDecoder(limits: limits).decodeTape(bytes, allowsPlain: true)
        if tape.isPlainPropertyList {
            return SavedStateReading.plain(tape, path: path, limits: limits)
        }
        let keyed = DeepStack.run(stackSize: DeepStack.stackSize(for: limits)) {
            tape.keyedArchive(concurrently: true, stackSize: DeepStack.stackSize(for: limits), deferringArchives: defers)
        }
        guard defers else {
            return (RestorationArchive(archive: keyed, interpret: interpret), DeferredStates(tape: tape, limits: limits, entries: [], appStatePositions: nil))
        }
        var pending: RestorationArchive.PendingObjects?
        var archive = RestorationArchive(archive: keyed, interpret: interpret, pending: &pending)
        var entries: [TapeNode?] = []
        if var pending {
            let nodes = pending.positions.map { position in position.map(tape.topNode(at:)) }
            pending.deferred = nodes.map { $0?.kind == .archive }
            archive.readObjects(pending, allowsConcurrency: true)
            entries = nodes.map { $0?.kind == .archive ? $0 : nil }
        }
        // Entries no object reads (a key repeated, an archive nobody listed, every key of an
        // archive that is not a restoration archive) are shown among the other keys: made
        // whole there.
        let positions = pending?.appStatePositions ?? Array(archive.appState.values.indices)
        for (index, position) in positions.enumerated() where tape.topNode(at: position).kind == .archive {
            archive.appState.replaceValue(at: index, with: tape.value(tape.topNode(at: position)))
        }
        return (archive, DeferredStates(tape: tape, limits: limits, entries: entries, appStatePositions: positions))
    }

    /// A file of another kind than a keyed archive, shown as one whose `$top` is `fields`.
    static func shown(kind: SavedStateKind, content: SavedStateContent?, fields: ArchiveFields, notes: [String], limits: DecodingLimits) -> (RestorationArchive, DeferredStates) {
        var archive = RestorationArchive(archive: KeyedArchive(top: fields), interpret: false)
        archive.kind = kind
        archive.content = content
        archive.notes = notes
        let (tape, _) = ArchiveTape.of(fields)
        return (archive, DeferredStates(tape: tape, limits: limits, entries: [], appStatePositions: Array(fields.values.indices)))
    }

    /// The archive's `appState` as nodes of the tape; nil for an archive read whole.
    var appState: TapeObject.State? {
        appStatePositions.map { TapeObject.State(archive: tape.root, positions: $0) }
    }

    /// The stack a reader of an archive read with `deferred` needs: as deep as its values nest
    /// (making a state whole recurses once per level, as printing and comparing do).
    static func stackSize(for deferred: DeferredStates?) -> Int {
        DeepStack.stackSize(for: deferred?.limits ?? .default)
    }

    /// The node of the object at `index`'s entry, when its state is left on the tape.
    func entry(at index: Int) -> TapeNode? {
        index < entries.count ? entries[index] : nil
    }

    /// Whether the state of the object at `index` is left on the tape.
    func defers(_ index: Int) -> Bool {
        entry(at: index) != nil
    }

    /// Whether the object at `index` and the one at `otherIndex` of `other` both have their
    /// states on their tapes, identical there (see `ArchiveTape.isIdentical`): their states and
    /// views are then equal.
    func hasIdenticalEntry(at index: Int, as otherIndex: Int, in other: DeferredStates) -> Bool {
        guard let node = entry(at: index), let otherNode = other.entry(at: otherIndex) else { return false }
        return tape.isIdentical(node, to: otherNode, in: other.tape)
    }

    /// The object at `index` of `archive` (the archive read with these states, or restricted
    /// with them), whole.
    func object(at index: Int, of archive: RestorationArchive) -> RestorationObject {
        var strings = RepeatedStrings()
        return object(at: index, of: archive, sharing: &strings)
    }

    /// The same, its repeated strings (keys, class names) shared with the objects made before
    /// through `strings`: a reader that makes many objects on one thread keeps one.
    func object(at index: Int, of archive: RestorationArchive, sharing strings: inout RepeatedStrings) -> RestorationObject {
        whole(archive.objects[index], at: index, sharing: &strings)
    }

    /// `object`, the object at `index` of the archive read with these states (or restricted
    /// with them), whole.
    func whole(_ object: RestorationObject, at index: Int, sharing strings: inout RepeatedStrings) -> RestorationObject {
        guard let node = entry(at: index) else { return object }
        var whole = tape.restorationObject(path: object.identifierPath, splitting: node, sharing: &strings)
        whole.restorationClass = object.restorationClass
        return whole
    }

    /// The states of the objects `archive.restricted(to: prefix)` keeps.
    package func restricted(to prefix: IdentifierPath, in archive: RestorationArchive) -> DeferredStates {
        var copy = self
        copy.entries = entries.indices.filter { archive.objects[$0].identifierPath.hasPrefix(prefix) }.map { entries[$0] }
        return copy
    }
}
