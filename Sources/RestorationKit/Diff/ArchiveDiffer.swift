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
            values.fields(TapeObject.State(archive: a.tape.root, positions: a.appStatePositions),
                          TapeObject.State(archive: b.tape.root, positions: b.appStatePositions), path: [.key("appState")], into: &changes)
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
private struct TapeValueDiffer {
    let differ: ArchiveDiffer
    let tapes: (old: ArchiveTape, new: ArchiveTape)
    let pair: TapePair
    /// The identifier path of the object compared; nil for the archive level.
    var object: String? = nil

    /// The changes of one object. Entries identical on the tapes have equal states and views:
    /// only the class can differ.
    mutating func object(_ a: RestorationObject, _ b: RestorationObject, into changes: inout ChangeList) {
        let path = a.identifierPath.rawValue
        object = path
        if !differ.isIgnored("restorationClassMap"), !differ.isIgnored("restorationClass"), !a.restorationClass.isExactly(b.restorationClass) {
            let kind: ArchiveChange.Kind = a.restorationClass == nil ? .added : (b.restorationClass == nil ? .removed : .changed)
            changes.append(ArchiveChange(kind, identifierPath: IdentifierPath(path), path: [.key("restorationClass")],
                old: a.restorationClass.map { .value(.string($0)) }, new: b.restorationClass.map { .value(.string($0)) },
                summary: kind == .added ? "restoration class set" : (kind == .removed ? "restoration class removed" : "restoration class changed")))
        }
        if a.hasIdenticalEntry(as: b) { return }
        let (old, new) = (TapeObject(a, in: pair.old), TapeObject(b, in: pair.new))
        switch (old.state, new.state) {
        case (let oldState?, let newState?):
            fields(oldState, newState, path: [.key("state")], into: &changes)
        case (nil, nil):
            switch (old.entry, new.entry) {
            case (let oldEntry?, let newEntry?): value(.node(oldEntry), .node(newEntry), path: [.key("state")], into: &changes)
            case (let oldEntry?, nil): changes.append(ArchiveChange(.removed, identifierPath: IdentifierPath(path), path: [.key("state")], oldSide: oldValue(.node(oldEntry))))
            case (nil, let newEntry?): changes.append(ArchiveChange(.added, identifierPath: IdentifierPath(path), path: [.key("state")], oldSide: nil, newSide: newValue(.node(newEntry))))
            case (nil, nil): break
            }
        default:
            changes.append(ArchiveChange(.changed, identifierPath: IdentifierPath(path), path: [.key("state")],
                old: a.undecodedEntry.map(DiffValue.value), new: b.undecodedEntry.map(DiffValue.value),
                summary: old.state == nil ? "state became decodable" : "state is no longer decodable: \(b.stateProblem ?? "")"))
        }
        let newByPath = Dictionary(new.views.map { (IdentifierPath(pair.new.string(of: $0.path)), $0.archive) }, uniquingKeysWith: { first, _ in first })
        var oldPaths = Set<IdentifierPath>()
        for view in old.views {
            let viewPath = pair.old.string(of: view.path)
            oldPaths.insert(IdentifierPath(viewPath))
            if let other = newByPath[IdentifierPath(viewPath)] {
                fields(TapeObject.State(whole: view.archive), TapeObject.State(whole: other), path: [.key("views"), .key(viewPath)], into: &changes)
            } else {
                changes.append(ArchiveChange(.removed, identifierPath: IdentifierPath(path), path: [.key("views"), .key(viewPath)], summary: "view removed"))
            }
        }
        for view in new.views {
            let viewPath = pair.new.string(of: view.path)
            if !oldPaths.contains(IdentifierPath(viewPath)) {
                changes.append(ArchiveChange(.added, identifierPath: IdentifierPath(path), path: [.key("views"), .key(viewPath)], summary: "view added"))
            }
        }
    }

    /// Two sets of string-keyed entries (a state, an archive's keys, an object's fields, a
    /// dictionary whose keys are all strings), key by key in the order of both.
    func fields(_ a: TapeObject.State, _ b: TapeObject.State, path: [ArchiveChange.PathComponent], into changes: inout ChangeList) {
        if let fields = fieldWalk(a, b, path: path) { walk(.fields(fields), into: &changes) }
    }

    func value(_ a: TapeValue, _ b: TapeValue, path: [ArchiveChange.PathComponent], into changes: inout ChangeList) {
        walk(.value(a, b, path: path), into: &changes)
    }

    /// What is left to compare: two values, the rest of two sets of fields, or the rest of two
    /// arrays from an element on.
    private enum Step {
        case value(TapeValue, TapeValue, path: [ArchiveChange.PathComponent])
        case fields(FieldWalk)
        case elements(TapeNode, TapeNode, path: [ArchiveChange.PathComponent], from: Int)
    }

    /// Compares depth first with a stack of its own, so that values nested as deeply as the
    /// limits allow are compared on any thread; the changes come in the order of the keys and
    /// elements, each member's before those of the members after it.
    private func walk(_ first: Step, into changes: inout ChangeList) {
        var steps = [first]
        while !changes.isFull, let step = steps.popLast() {
            switch step {
            case .value(let a, let b, let path):
                if pair.equal(a, b) || sameSets(a, b) { continue }
                if let inside = self.steps(inside: a, b, path: path) {
                    steps.append(inside)
                } else {
                    changes.append(ArchiveChange(.changed, identifierPath: object.map { IdentifierPath($0) }, path: path, oldSide: oldValue(a), newSide: newValue(b)))
                }
            case .fields(let fields):
                keys: while let key = fields.nextKey(), !changes.isFull {
                    let keyPath = fields.path + [.key(key)]
                    switch fields.values(of: key, in: pair) {
                    case (let old?, let new?):
                        if key.isExactly(RestorationKeys.children), let reorder = childrenReordered(old, new) {
                            changes.append(ArchiveChange(.changed, identifierPath: object.map { IdentifierPath($0) }, path: keyPath, oldSide: oldValue(old), newSide: newValue(new), summary: reorder))
                        } else {
                            // The rest of the keys after this value's changes.
                            steps += [.fields(fields), .value(old, new, path: keyPath)]
                            break keys
                        }
                    case (let old?, nil):
                        changes.append(ArchiveChange(.removed, identifierPath: object.map { IdentifierPath($0) }, path: keyPath, oldSide: oldValue(old)))
                    case (nil, let new?):
                        changes.append(ArchiveChange(.added, identifierPath: object.map { IdentifierPath($0) }, path: keyPath, oldSide: nil, newSide: newValue(new)))
                    case (nil, nil):
                        break
                    }
                }
            case .elements(let a, let b, let path, let from):
                for index in from..<max(a.memberCount, b.memberCount) where !changes.isFull {
                    let elementPath = path + [.index(index)]
                    if index >= b.memberCount {
                        changes.append(ArchiveChange(.removed, identifierPath: object.map { IdentifierPath($0) }, path: elementPath, oldSide: oldValue(.node(pair.old.member(index, of: a)))))
                    } else if index >= a.memberCount {
                        changes.append(ArchiveChange(.added, identifierPath: object.map { IdentifierPath($0) }, path: elementPath, oldSide: nil, newSide: newValue(.node(pair.new.member(index, of: b)))))
                    } else {
                        // The rest of the elements after this one's changes.
                        steps += [.elements(a, b, path: path, from: index + 1), .value(.node(pair.old.member(index, of: a)), .node(pair.new.member(index, of: b)), path: elementPath)]
                        break
                    }
                }
            }
        }
    }

    /// How two unequal values are compared inside: by their fields or their elements; nil when
    /// they are one change (of other kinds, or sets whose members differ).
    private func steps(inside a: TapeValue, _ b: TapeValue, path: [ArchiveChange.PathComponent]) -> Step? {
        switch (a, b) {
        case (.node(let x), .node(let y)) where x.kind != .dictionary || y.kind != .dictionary:
            switch (x.kind, y.kind) {
            case (.archive, .archive):
                return fieldWalk(TapeObject.State(whole: x), TapeObject.State(whole: y), path: path).map(Step.fields)
            case (.array, .array), (.orderedSet, .orderedSet):
                return .elements(x, y, path: path, from: 0)
            default:
                // Sets whose members differ (see `sameSets`) are one change, as are values of
                // other kinds.
                guard x.kind.layout == .object, y.kind.layout == .object, pair.sameClass(x, y) else { return nil }
                return fieldWalk(TapeObject.State(whole: x), TapeObject.State(whole: y), path: path).map(Step.fields)
            }
        default:
            // Two dictionaries (a node's entries, or the view data's entries left in a state).
            guard let old = stringKeyed(a, in: pair.old), let new = stringKeyed(b, in: pair.new) else { return nil }
            return fieldWalk(old, new, path: path).map(Step.fields)
        }
    }

    /// Whether two values are sets of the same members in another order (a set has no order).
    private func sameSets(_ a: TapeValue, _ b: TapeValue) -> Bool {
        guard case .node(let x) = a, case .node(let y) = b, x.kind == .set, y.kind == .set else { return false }
        return pair.sameMembers(x, y)
    }

    /// The keys of two sets of fields to compare one by one; nil when they are the same keys in
    /// the same order with equal values, the usual case, found in one pass without a union of
    /// the keys and a search for each.
    private func fieldWalk(_ a: TapeObject.State, _ b: TapeObject.State, path: [ArchiveChange.PathComponent]) -> FieldWalk? {
        if a.count == b.count, (0..<a.count).allSatisfy({ index in
            let (x, y) = (a.entry(index, in: pair.old), b.entry(index, in: pair.new))
            return sameKey(x.key, y.key) && pair.equal(x.value, y.value)
        }) { return nil }
        return FieldWalk(a, b, keys: (keys(of: a, in: pair.old), keys(of: b, in: pair.new)), path: path, ignoring: differ)
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

    /// "children reordered" when both lists hold the same children in another order.
    private func childrenReordered(_ a: TapeValue, _ b: TapeValue) -> String? {
        guard case .node(let old) = a, case .node(let new) = b, old.kind == .array, new.kind == .array,
              !pair.equal(old, new), pair.sameMembers(old, new) else { return nil }
        return "children reordered"
    }

    private func sameKey(_ a: TapeNode?, _ b: TapeNode?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let x?, let y?): pair.old.bytes(of: x).hasSameBytes(as: pair.new.bytes(of: y))
        default: false
        }
    }

    private func keys(of state: TapeObject.State, in view: TapeView) -> [String] {
        (0..<state.count).map { index in state.entry(index, in: view).key.map(view.string(of:)) ?? RestorationKeys.viewRestorationData }
    }

    private func oldValue(_ value: TapeValue) -> ChangeSide { .onTape(tapes.old, value) }
    private func newValue(_ value: TapeValue) -> ChangeSide { .onTape(tapes.new, value) }
}

/// Two sets of fields compared key by key, in the order of the old keys then the new ones,
/// each key once (its first value on each side), keys left out as `diff --ignore` asks.
private final class FieldWalk {
    let a: TapeObject.State
    let b: TapeObject.State
    let path: [ArchiveChange.PathComponent]
    private let keys: [String]
    private let first: (old: KeyPositions, new: KeyPositions)
    private let differ: ArchiveDiffer
    private var position = 0
    private var seen = ExactTextSet()

    init(_ a: TapeObject.State, _ b: TapeObject.State, keys: (old: [String], new: [String]), path: [ArchiveChange.PathComponent], ignoring differ: ArchiveDiffer) {
        (self.a, self.b, self.path, self.differ) = (a, b, path, differ)
        self.keys = keys.old + keys.new
        first = (KeyPositions(keys.old), KeyPositions(keys.new))
    }

    /// The next key to compare, or nil after the last.
    func nextKey() -> String? {
        while position < keys.count {
            let key = keys[position]
            position += 1
            if seen.insert(key), !differ.isIgnored(key) { return key }
        }
        return nil
    }

    /// The key's first value on each side.
    func values(of key: String, in pair: TapePair) -> (old: TapeValue?, new: TapeValue?) {
        (first.old[key].map { a.entry($0, in: pair.old).value }, first.new[key].map { b.entry($0, in: pair.new).value })
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
