/// Compares two restoration archives as models, not bytes: a binary archive and its XML twin
/// are identical, dictionary key order does not matter, array order does. Paths, keys and
/// strings are the same when their bytes are (see `ExactText`).
public struct ArchiveDiffer: Sendable {
    /// Metadata fields (`timestamp`, `bundleVersion` …) and keys (at any depth) to leave out,
    /// matched by their bytes (see `ExactText`): "Café" composed does not leave out "Café"
    /// decomposed, a key of its own. (A `Set<String>` would hold only one of the two.)
    public var ignored: [String]

    public init(ignoring ignored: [String] = []) {
        self.ignored = ignored
    }

    /// Whether `name` is one of `ignored`, byte for byte.
    func isIgnored(_ name: String) -> Bool {
        !ignored.isEmpty && ignored.containsExactly(name)
    }

    public static let metadataFields = [
        "majorVersion", "minorVersion", "bundleVersion", "systemVersion", "timestamp", "userInterfaceIdiom",
        "restorationClassMap", "restorationClass", "identifierPaths",
    ]

    /// What changed from `a` to `b`, in the order `diff` lists it.
    ///
    /// Runs on the calling thread (walking values keeps a stack of its own), large archives'
    /// objects on the other processors too.
    public func diff(_ a: RestorationArchive, _ b: RestorationArchive) -> [ArchiveChange] {
        // Without a limit there are always changes.
        diff(a, b, outputLimit: .max)!
    }

    /// The changes, or nil once the least their text or JSON takes (`ArchiveChange.minimumSize`)
    /// passes `outputLimit`: the comparison stops there, so refusing costs no more work and
    /// memory than the limit allows (objects sharing one state, or a value shared at every
    /// level, can make millions of changes of a small file).
    package func diff(_ a: RestorationArchive, _ b: RestorationArchive, outputLimit: Int) -> [ArchiveChange]? {
        let budget = outputLimit == .max ? nil : SharedTextBudget(limit: outputLimit, spent: 0)
        var changes = ChangeList(budget: budget)
        metadata(a, b, into: &changes)
        compare(a, b) { values in
            values.appState(TapeObject.State(archive: a.tape.root, positions: a.appStatePositions),
                            TapeObject.State(archive: b.tape.root, positions: b.appStatePositions), into: &changes)
        }
        objects(a, b, into: &changes)
        changes.finish()
        return changes.isFull ? nil : changes.changes
    }

    // MARK: Archive level

    private func metadata(_ a: RestorationArchive, _ b: RestorationArchive, into changes: inout ChangeList) {
        func compare(_ name: String, _ old: DiffValue?, _ new: DiffValue?, differ: Bool? = nil) {
            guard !isIgnored(name), differ ?? (old != new) else { return }
            let kind: ArchiveChange.Kind = old == nil ? .added : (new == nil ? .removed : .changed)
            changes.append(ArchiveChange(kind, identifierPath: nil, path: [.key(name)], old: old, new: new))
        }
        compare("majorVersion", a.majorVersion.map { .value(.integer($0)) }, b.majorVersion.map { .value(.integer($0)) })
        compare("minorVersion", a.minorVersion.map { .value(.integer($0)) }, b.minorVersion.map { .value(.integer($0)) })
        compare("bundleVersion", a.bundleVersion.map { .value(.string($0)) }, b.bundleVersion.map { .value(.string($0)) })
        compare("systemVersion", a.systemVersion.map { .value(.string($0)) }, b.systemVersion.map { .value(.string($0)) })
        // Compared by bits, as every real is: -0.0 is not 0.0.
        compare("timestamp", a.timestamp.map(DiffValue.timestamp), b.timestamp.map(DiffValue.timestamp),
                differ: a.timestamp?.bitPattern != b.timestamp?.bitPattern)
        compare("userInterfaceIdiom", a.userInterfaceIdiom.map(DiffValue.idiom), b.userInterfaceIdiom.map(DiffValue.idiom))

        // Class-map entries of objects in both archives are reported with the object.
        let common = Set(a.objects.map(\.identifierPath)).intersection(b.objects.map(\.identifierPath))
        if !isIgnored("restorationClassMap") {
            var seen = ExactTextSet()
            for path in a.restorationClassMap.keys + b.restorationClassMap.keys where seen.insert(path) && !common.contains(IdentifierPath(path)) {
                let (old, new) = (a.restorationClassMap[path], b.restorationClassMap[path])
                guard !old.isExactly(new) else { continue }
                let kind: ArchiveChange.Kind = old == nil ? .added : (new == nil ? .removed : .changed)
                changes.append(ArchiveChange(kind, identifierPath: nil, path: [.key("restorationClassMap"), .key(path)],
                                             old: old.map { .value(.string($0)) }, new: new.map { .value(.string($0)) }))
            }
        }
        let (oldPaths, newPaths) = (a.identifierPaths, b.identifierPaths)
        // Paths saved in one archive only are reported as objects added or removed; what is left
        // is the same paths in another order, or listed another number of times.
        if !isIgnored("identifierPaths"), oldPaths != newPaths, Set(oldPaths) == Set(newPaths) {
            let summary = oldPaths.sorted() == newPaths.sorted() ? "save order changed" : "paths listed another number of times"
            changes.append(ArchiveChange(.changed, identifierPath: nil, path: [.key("identifierPaths")],
                old: .paths(oldPaths.map(\.rawValue)), new: .paths(newPaths.map(\.rawValue)), summary: summary))
        }
    }

    // MARK: Objects

    private func objects(_ a: RestorationArchive, _ b: RestorationArchive, into changes: inout ChangeList) {
        let newObjects = Dictionary(b.objects.indices.map { (b.objects[$0].identifierPath, $0) }, uniquingKeysWith: { first, _ in first })
        var oldPaths = Set<IdentifierPath>()
        // Each object's changes depend on that object and its namesake alone: parts of the old
        // archive's objects are compared apart, on all processors, and their changes joined in order.
        let budget = changes.budget
        let parts = Parallel.mapParts(of: a.objects.count, first: {
            oldPaths = Set(a.objects.map(\.identifierPath))
        }) { range in
            var changes = ChangeList(budget: budget)
            compare(a, b) { values in
                for index in range where !changes.isFull {
                    let path = a.objects[index].identifierPath
                    guard let newIndex = newObjects[path] else {
                        changes.append(ArchiveChange(.removed, identifierPath: path, path: [], summary: "object removed"))
                        continue
                    }
                    values.object(a.objects[index], b.objects[newIndex], into: &changes)
                }
            }
            changes.finish()
            return changes
        }
        for part in parts { changes.append(contentsOf: part) }
        for new in b.objects where !oldPaths.contains(new.identifierPath) {
            changes.append(ArchiveChange(.added, identifierPath: new.identifierPath, path: [], summary: "object added"))
        }
    }

    /// Calls `body` with a comparer of the values of `a`'s tape with those of `b`'s.
    private func compare<Result>(_ a: RestorationArchive, _ b: RestorationArchive, _ body: (inout TapeValueDiffer) -> Result) -> Result {
        a.tape.withView { old in
            b.tape.withView { new in
                var differ = TapeValueDiffer(differ: self, tapes: (a.tape, b.tape), pair: TapePair(old: old, new: new))
                return body(&differ)
            }
        }
    }
}

/// Compares the values of two tapes for `ArchiveDiffer`, on the tapes (see `TapePair`): values
/// are made only of what changed, and only when a library user reads a change.
///
/// Two values are compared in a walk of the old one (see `TapeWalker`) that keeps its
/// counterpart in the new one in step, in the order of the keys and elements, each member's
/// changes before those of the members after it. Two unequal values are compared inside when
/// both have fields (archives, objects of one class, dictionaries of string keys: key by key)
/// or are arrays or ordered sets (element by element); otherwise they are one change, as are
/// sets whose members differ. What only the old side has is removed where it is met; what only
/// the new side has is added at the container's exit.
private struct TapeValueDiffer: TapeVisitor {
    let differ: ArchiveDiffer
    let tapes: (old: ArchiveTape, new: ArchiveTape)
    let pair: TapePair
    /// The identifier path of the object compared; nil for the archive level.
    private var object: IdentifierPath?
    /// The caller's changes, moved here while a comparison adds to them.
    private var changes = ChangeList(budget: nil)
    /// The new value a walk's start is compared with, and its path.
    private var start: (value: TapeValue, path: [ArchiveChange.PathComponent])?
    /// The containers being compared inside, innermost last.
    private var open: [Open] = []

    private enum Open {
        /// Fields matched by key; the keys only the new side has are added at the exit, unless
        /// the caller adds them after what it compares itself (a state's view data).
        case fields(FieldMatch, reportsAdded: Bool)
        /// The new array or ordered set, and the old one's path.
        case elements(TapeNode, path: [ArchiveChange.PathComponent])
    }

    init(differ: ArchiveDiffer, tapes: (old: ArchiveTape, new: ArchiveTape), pair: TapePair) {
        (self.differ, self.tapes, self.pair) = (differ, tapes, pair)
    }

    /// The changes of one object. Entries identical on the tapes have equal states and views:
    /// only the class can differ.
    mutating func object(_ a: RestorationObject, _ b: RestorationObject, into list: inout ChangeList) {
        swap(&changes, &list)
        defer { swap(&changes, &list) }
        object = a.identifierPath
        if !differ.isIgnored("restorationClassMap"), !differ.isIgnored("restorationClass"), !a.restorationClass.isExactly(b.restorationClass) {
            let kind: ArchiveChange.Kind = a.restorationClass == nil ? .added : (b.restorationClass == nil ? .removed : .changed)
            changes.append(ArchiveChange(kind, identifierPath: object, path: [.key("restorationClass")],
                old: a.restorationClass.map { .value(.string($0)) }, new: b.restorationClass.map { .value(.string($0)) },
                summary: kind == .added ? "restoration class set" : (kind == .removed ? "restoration class removed" : "restoration class changed")))
        }
        if a.hasIdenticalEntry(as: b) { return }
        let (old, new) = (TapeObject(a, in: pair.old), TapeObject(b, in: pair.new))
        switch (old.state, new.state) {
        case (let oldState?, let newState?):
            fields(oldState, newState, path: [.key("state")])
        case (nil, nil):
            switch (old.entry, new.entry) {
            case (let oldEntry?, let newEntry?): value(.node(oldEntry), .node(newEntry), path: [.key("state")])
            case (let oldEntry?, nil): removed(.node(oldEntry), path: [.key("state")])
            case (nil, let newEntry?): added(.node(newEntry), path: [.key("state")])
            case (nil, nil): break
            }
        default:
            changes.append(ArchiveChange(.changed, identifierPath: object, path: [.key("state")],
                old: a.undecodedEntry.map(DiffValue.value), new: b.undecodedEntry.map(DiffValue.value),
                summary: old.state == nil ? "state became decodable" : "state is no longer decodable: \(b.stateProblem ?? "")"))
        }
        let newByPath = Dictionary(new.views.map { (IdentifierPath(pair.new.string(of: $0.path)), $0.archive) }, uniquingKeysWith: { first, _ in first })
        var oldPaths = Set<IdentifierPath>()
        for view in old.views {
            let viewPath = pair.old.string(of: view.path)
            oldPaths.insert(IdentifierPath(viewPath))
            if let other = newByPath[IdentifierPath(viewPath)] {
                fields(TapeObject.State(whole: view.archive), TapeObject.State(whole: other), path: [.key("views"), .key(viewPath)])
            } else {
                changes.append(ArchiveChange(.removed, identifierPath: object, path: [.key("views"), .key(viewPath)], summary: "view removed"))
            }
        }
        for view in new.views {
            let viewPath = pair.new.string(of: view.path)
            if !oldPaths.contains(IdentifierPath(viewPath)) {
                changes.append(ArchiveChange(.added, identifierPath: object, path: [.key("views"), .key(viewPath)], summary: "view added"))
            }
        }
    }

    /// The changes of the archives' app state.
    mutating func appState(_ a: TapeObject.State, _ b: TapeObject.State, into list: inout ChangeList) {
        swap(&changes, &list)
        defer { swap(&changes, &list) }
        object = nil
        fields(a, b, path: [.key("appState")])
    }

    /// Two sets of string-keyed entries (a state, a view's archive), key by key: the old keys'
    /// values (a state's view data left in it last), then the keys only the new one has.
    private mutating func fields(_ a: TapeObject.State, _ b: TapeObject.State, path: [ArchiveChange.PathComponent]) {
        guard let match = FieldMatch(a, b, path: path, in: pair, ignoring: differ) else { return }
        open.append(.fields(match, reportsAdded: false))
        var walker = TapeWalker()
        walker.walkMembers(of: a.archive, .values(order: walker.appendOrder(match.oldPositions)), in: pair.old, &self)
        if match.comparesLeftovers, !changes.isFull {
            let keyPath = path + [.key(RestorationKeys.viewRestorationData)]
            let old = a.entry(a.positions.count, in: pair.old).value
            if let new = match.newValue(forKey: RestorationKeys.viewRestorationData, in: pair) {
                value(old, new, path: keyPath)
            } else {
                removed(old, path: keyPath)
            }
        }
        addKeysOnlyNew(match)
    }

    /// Two values: nothing when they are equal, otherwise their changes.
    private mutating func value(_ a: TapeValue, _ b: TapeValue, path: [ArchiveChange.PathComponent]) {
        var walker = TapeWalker()
        switch a {
        case .node(let node):
            start = (b, path)
            walker.walk(node, in: pair.old, &self)
        case .entries(let dictionary, _):
            // The view data left in a state: the entries are compared as fields.
            guard !pair.equal(a, b) else { return }
            guard case .fields(let match, _)? = inside(a, b, path: path) else { return changed(a, b, path: path) }
            open.append(.fields(match, reportsAdded: true))
            walker.walkMembers(of: dictionary, .values(order: walker.appendOrder(match.oldPositions)), in: pair.old, &self)
        }
    }

    // MARK: The walk

    var isFinished: Bool { changes.isFull }

    mutating func enter(_ node: TapeNode, at place: TapePlace, walker: inout TapeWalker) -> TapeDescent {
        let (counterpart, path): (TapeValue, [ArchiveChange.PathComponent])
        switch (place.role, open.last) {
        case (.start, _):
            (counterpart, path) = start!
        case (.element, .elements(let other, let elementsPath)?):
            path = elementsPath + [.index(place.position)]
            guard place.position < other.memberCount else {
                removed(.node(node), path: path)
                return .none
            }
            counterpart = .node(pair.new.member(place.position, of: other))
        case (.value, .fields(let match, _)?):
            let key = pair.old.string(of: pair.old.member(place.position, of: place.container))
            path = match.path + [.key(key)]
            guard let found = match.newValue(forKey: key, in: pair) else {
                removed(.node(node), path: path)
                return .none
            }
            if key.isExactly(RestorationKeys.children), let reorder = childrenReordered(node, found) {
                changed(.node(node), found, path: path, summary: reorder)
                return .none
            }
            counterpart = found
        default:
            preconditionFailure("the walk visits the values of fields and the elements of arrays")
        }
        if pair.equal(.node(node), counterpart) || sameSets(node, counterpart) { return .none }
        switch inside(.node(node), counterpart, path: path) {
        case .fields(let match, _)?:
            open.append(.fields(match, reportsAdded: true))
            return .values(order: walker.appendOrder(match.oldPositions))
        case let elements?:
            open.append(elements)
            return .all()
        case nil:
            changed(.node(node), counterpart, path: path)
            return .none
        }
    }

    mutating func exit(_ node: TapeNode, at place: TapePlace, mark: Int) {
        switch open.removeLast() {
        case .fields(let match, let reportsAdded):
            if reportsAdded { addKeysOnlyNew(match) }
        case .elements(let other, let path):
            for index in min(node.memberCount, other.memberCount)..<other.memberCount {
                added(.node(pair.new.member(index, of: other)), path: path + [.index(index)])
            }
        }
    }

    /// How two unequal values are compared inside; nil when they are one change.
    private func inside(_ a: TapeValue, _ b: TapeValue, path: [ArchiveChange.PathComponent]) -> Open? {
        let match: FieldMatch?
        if case .node(let x) = a, case .node(let y) = b, x.kind != .dictionary || y.kind != .dictionary {
            if x.kind == y.kind, x.kind == .array || x.kind == .orderedSet { return .elements(y, path: path) }
            let hasFields = x.kind == y.kind && x.kind == .archive || x.kind.layout == .object && y.kind.layout == .object && pair.sameClass(x, y)
            guard hasFields else { return nil }
            match = FieldMatch(TapeObject.State(whole: x), TapeObject.State(whole: y), path: path, in: pair, ignoring: differ)
        } else {
            // Two dictionaries (a node's entries, or the view data's entries left in a state).
            guard let old = stringKeyed(a, in: pair.old), let new = stringKeyed(b, in: pair.new) else { return nil }
            match = FieldMatch(old, new, path: path, in: pair, ignoring: differ)
        }
        return match.map { .fields($0, reportsAdded: true) }
    }

    /// The keys only the new side of `match` has, added in their order.
    private mutating func addKeysOnlyNew(_ match: FieldMatch) {
        for position in match.added {
            added(match.new.entry(position, in: pair.new).value, path: match.path + [.key(match.newKeys[position])])
        }
    }

    /// Whether two values are sets of the same members in another order (a set has no order).
    private func sameSets(_ a: TapeNode, _ b: TapeValue) -> Bool {
        guard case .node(let y) = b, a.kind == .set, y.kind == .set else { return false }
        return pair.sameMembers(a, y)
    }

    /// "children reordered" when both lists hold the same children in another order.
    private func childrenReordered(_ old: TapeNode, _ b: TapeValue) -> String? {
        guard case .node(let new) = b, old.kind == .array, new.kind == .array,
              !pair.equal(old, new), pair.sameMembers(old, new) else { return nil }
        return "children reordered"
    }

    /// A dictionary's entries as string-keyed fields, or nil when a key is not a string.
    private func stringKeyed(_ value: TapeValue, in view: TapeView) -> TapeObject.State? {
        let (dictionary, positions): (TapeNode, [Int]) = switch value {
        case .entries(let dictionary, let positions): (dictionary, positions)
        case .node(let node): (node, Array(0..<node.memberCount))
        }
        guard dictionary.kind == .dictionary, positions.allSatisfy({ view.member($0, of: dictionary).kind == .string }) else { return nil }
        return TapeObject.State(archive: dictionary, positions: positions)
    }

    private mutating func removed(_ value: TapeValue, path: [ArchiveChange.PathComponent]) {
        changes.append(ArchiveChange(.removed, identifierPath: object, path: path, oldSide: .onTape(TapeValueReference(tape: tapes.old, value: value))))
    }

    private mutating func added(_ value: TapeValue, path: [ArchiveChange.PathComponent]) {
        changes.append(ArchiveChange(.added, identifierPath: object, path: path, oldSide: nil, newSide: .onTape(TapeValueReference(tape: tapes.new, value: value))))
    }

    private mutating func changed(_ a: TapeValue, _ b: TapeValue, path: [ArchiveChange.PathComponent], summary: String? = nil) {
        changes.append(ArchiveChange(.changed, identifierPath: object, path: path, oldSide: .onTape(TapeValueReference(tape: tapes.old, value: a)),
                                     newSide: .onTape(TapeValueReference(tape: tapes.new, value: b)), summary: summary))
    }
}

/// Two sets of fields matched by key for `TapeValueDiffer`: each key once (its first value on each
/// side), keys left out as `diff --ignore` asks; the old keys in their order, then the keys
/// only the new side has.
private final class FieldMatch {
    let new: TapeObject.State
    let path: [ArchiveChange.PathComponent]
    let newKeys: [String]
    /// The positions in the old fields' node of the values to compare, in order.
    private(set) var oldPositions: [Int] = []
    /// Whether the old side's view data left in its state is compared (after `oldPositions`).
    private(set) var comparesLeftovers = false
    /// The new entries whose key the old side lacks, in order.
    private(set) var added: [Int] = []
    private let newFirst: KeyPositions

    /// Nil when the two are the same keys in the same order with equal values, the usual case,
    /// found in one pass without a union of the keys and a search for each.
    init?(_ a: TapeObject.State, _ b: TapeObject.State, path: [ArchiveChange.PathComponent], in pair: TapePair, ignoring differ: ArchiveDiffer) {
        if a.count == b.count, (0..<a.count).allSatisfy({ index in
            let (x, y) = (a.entry(index, in: pair.old), b.entry(index, in: pair.new))
            return Self.sameKey(x.key, y.key, in: pair) && pair.equal(x.value, y.value)
        }) { return nil }
        let oldKeys = Self.keys(of: a, in: pair.old)
        (new, self.path, newKeys) = (b, path, Self.keys(of: b, in: pair.new))
        newFirst = KeyPositions(newKeys)
        var seen = ExactTextSet()
        for (index, key) in oldKeys.enumerated() where seen.insert(key) && !differ.isIgnored(key) {
            if index < a.positions.count { oldPositions.append(a.positions[index]) } else { comparesLeftovers = true }
        }
        for (index, key) in newKeys.enumerated() where seen.insert(key) && !differ.isIgnored(key) {
            added.append(index)
        }
    }

    /// The new side's first value under `key`.
    func newValue(forKey key: String, in pair: TapePair) -> TapeValue? {
        newFirst[key].map { new.entry($0, in: pair.new).value }
    }

    private static func sameKey(_ a: TapeNode?, _ b: TapeNode?, in pair: TapePair) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let x?, let y?): pair.old.bytes(of: x).hasSameBytes(as: pair.new.bytes(of: y))
        default: false
        }
    }

    private static func keys(of state: TapeObject.State, in view: TapeView) -> [String] {
        (0..<state.count).map { index in state.entry(index, in: view).key.map(view.string(of:)) ?? RestorationKeys.viewRestorationData }
    }
}

/// Each key's first position, as a lookup finds it: searched for among a few keys (a state holds
/// a dozen), looked up in an index among many.
private struct KeyPositions {
    let keys: [String]
    let index: [ExactText: Int]?

    init(_ keys: [String]) {
        self.keys = keys
        guard keys.count > 64 else { index = nil; return }
        var index: [ExactText: Int] = [:]
        for (position, key) in keys.enumerated().reversed() { index[ExactText(key)] = position }
        self.index = index
    }

    subscript(key: String) -> Int? {
        index.map { $0[ExactText(key)] } ?? keys.firstIndex { $0.isExactly(key) }
    }
}

/// The changes found so far, and what the least of their text or JSON takes, counted against
/// a budget shared by the parts compared on other processors: once it is spent, `isFull`, and
/// the comparison stops.
struct ChangeList {
    private(set) var changes: [ArchiveChange] = []
    let budget: SharedTextBudget?
    /// Bytes counted here and not yet told to `budget` (told a step at a time, so that the
    /// threads do not wait on its lock for every change).
    private var unreported = 0
    private(set) var isFull = false

    init(budget: SharedTextBudget?) {
        self.budget = budget
    }

    mutating func append(_ change: ArchiveChange) {
        guard !isFull else { return }
        changes.append(change)
        guard budget != nil else { return }
        unreported += change.minimumSize
        if unreported >= SharedTextBudget.step { report() }
    }

    /// A part's changes, counted there already.
    mutating func append(contentsOf part: ChangeList) {
        changes += part.changes
        isFull = isFull || part.isFull
    }

    /// Tells the budget what is left; the list is full if the budget is spent, here or by
    /// another part.
    mutating func finish() {
        report()
        if let budget, budget.isSpent { isFull = true }
    }

    private mutating func report() {
        guard let budget else { return }
        if unreported > 0, budget.spend(unreported) { isFull = true }
        unreported = 0
    }
}
