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
    private func isIgnored(_ name: String) -> Bool {
        !ignored.isEmpty && ignored.containsExactly(name)
    }

    public static let metadataFields = [
        "majorVersion", "minorVersion", "bundleVersion", "systemVersion", "timestamp", "userInterfaceIdiom",
        "restorationClassMap", "restorationClass", "identifierPaths",
    ]

    /// What changed from `a` to `b`, in the order `diff` lists it.
    ///
    /// Runs on a thread of the library's pool whose stack fits the deepest nesting the limits
    /// allow (walking values recurses), large archives on all processors; the call waits for it.
    public func diff(_ a: RestorationArchive, _ b: RestorationArchive) -> [ArchiveChange] {
        // Without a limit there are always changes.
        diff(a, b, outputLimit: .max)!
    }

    /// The changes, or nil once the least their text or JSON takes (`ArchiveChange.minimumSize`)
    /// passes `outputLimit`: the comparison stops there, so refusing costs no more work and
    /// memory than the limit allows (objects sharing one state, or a value shared at every
    /// level, can make millions of changes of a small file).
    package func diff(_ a: RestorationArchive, _ b: RestorationArchive, outputLimit: Int) -> [ArchiveChange]? {
        // Comparing values recurses once per nesting level (see `DeepStack`), and so does making
        // an object's state into values.
        DeepStack.run(stackSize: Self.stackSize(a, b)) {
            let budget = outputLimit == .max ? nil : SharedTextBudget(limit: outputLimit, spent: 0)
            var changes = ChangeList(budget: budget)
            metadata(a, b, into: &changes)
            fields(a.appState, b.appState, object: nil, path: [.key("appState")], into: &changes)
            objects(a, b, into: &changes)
            changes.finish()
            return changes.isFull ? nil : changes.changes
        }
    }

    private static func stackSize(_ a: RestorationArchive, _ b: RestorationArchive) -> Int {
        max(DeepStack.stackSize(for: a.limits), DeepStack.stackSize(for: b.limits))
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
            for path in orderedUnion(a.restorationClassMap.keys, b.restorationClassMap.keys) where !common.contains(IdentifierPath(path)) {
                compareScalar(a.restorationClassMap[path].map(ArchiveValue.string), b.restorationClassMap[path].map(ArchiveValue.string),
                              object: nil, path: [.key("restorationClassMap"), .key(path)], into: &changes)
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
        let parts = DeepStack.mapParts(of: a.objects.count, stackSize: Self.stackSize(a, b), first: {
            oldPaths = Set(a.objects.map(\.identifierPath))
        }) { range in
            var changes = ChangeList(budget: budget)
            var strings = RepeatedStrings()
            for index in range where !changes.isFull {
                let path = a.objects[index].identifierPath
                guard let newIndex = newObjects[path] else {
                    changes.append(ArchiveChange(.removed, identifierPath: path.rawValue, path: [], summary: "object removed"))
                    continue
                }
                object(a.objects[index], b.objects[newIndex], sharing: &strings, into: &changes)
            }
            changes.finish()
            return changes
        }
        for part in parts { changes.append(contentsOf: part) }
        for new in b.objects where !oldPaths.contains(new.identifierPath) {
            changes.append(ArchiveChange(.added, identifierPath: new.identifierPath.rawValue, path: [], summary: "object added"))
        }
    }

    /// The changes of one object; its state and views are made into values (their repeated
    /// strings shared through `strings`) unless their entries are identical on the tapes, and
    /// dropped after unless a change holds their values.
    private func object(_ a: RestorationObject, _ b: RestorationObject, sharing strings: inout RepeatedStrings, into changes: inout ChangeList) {
        let path = a.identifierPath.rawValue
        if !isIgnored("restorationClassMap"), !isIgnored("restorationClass"), !a.restorationClass.isExactly(b.restorationClass) {
            let kind: ArchiveChange.Kind = a.restorationClass == nil ? .added : (b.restorationClass == nil ? .removed : .changed)
            changes.append(ArchiveChange(kind, identifierPath: path, path: [.key("restorationClass")],
                old: a.restorationClass.map { .value(.string($0)) }, new: b.restorationClass.map { .value(.string($0)) },
                summary: kind == .added ? "restoration class set" : (kind == .removed ? "restoration class removed" : "restoration class changed")))
        }
        // Identical on the tapes, states and views are equal: only the class can differ.
        if a.hasIdenticalEntry(as: b) { return }
        let (old, new) = (a.content(sharing: &strings), b.content(sharing: &strings))
        switch (old, new) {
        case (let old?, let new?):
            fields(old.state, new.state, object: path, path: [.key("state")], into: &changes)
        case (nil, nil):
            compareScalar(a.undecodedEntry, b.undecodedEntry, object: path, path: [.key("state")], into: &changes)
        default:
            changes.append(ArchiveChange(.changed, identifierPath: path, path: [.key("state")],
                old: a.undecodedEntry.map(DiffValue.value), new: b.undecodedEntry.map(DiffValue.value),
                summary: old == nil ? "state became decodable" : "state is no longer decodable: \(b.stateProblem ?? "")"))
        }
        let (oldViews, newViews) = (old?.views ?? [], new?.views ?? [])
        let newByPath = Dictionary(newViews.map { ($0.identifierPath, $0) }, uniquingKeysWith: { first, _ in first })
        let oldPaths = Set(oldViews.map(\.identifierPath))
        for view in oldViews {
            let viewPath = view.identifierPath.rawValue
            if let other = newByPath[view.identifierPath] {
                fields(view.state, other.state, object: path, path: [.key("views"), .key(viewPath)], into: &changes)
            } else {
                changes.append(ArchiveChange(.removed, identifierPath: path, path: [.key("views"), .key(viewPath)], summary: "view removed"))
            }
        }
        for view in newViews where !oldPaths.contains(view.identifierPath) {
            changes.append(ArchiveChange(.added, identifierPath: path, path: [.key("views"), .key(view.identifierPath.rawValue)], summary: "view added"))
        }
    }

    // MARK: Values

    private func fields(_ a: ArchiveFields, _ b: ArchiveFields, object: String?, path: [ArchiveChange.PathComponent], into changes: inout ChangeList) {
        // The same keys in the same order with equal values, the usual case, differ nowhere:
        // found in one pass, without a union of the keys and a search for each.
        if a.keys.isExactly(b.keys), a.values == b.values { return }
        for key in orderedUnion(a.keys, b.keys) where !isIgnored(key) && !changes.isFull {
            let keyPath = path + [.key(key)]
            switch (a[key], b[key]) {
            case (let old?, let new?):
                if key.isExactly(RestorationKeys.children), let reorder = childrenReordered(old, new) {
                    changes.append(ArchiveChange(.changed, identifierPath: object, path: keyPath, old: .value(old), new: .value(new), summary: reorder))
                } else {
                    value(old, new, object: object, path: keyPath, into: &changes)
                }
            case (let old?, nil):
                changes.append(ArchiveChange(.removed, identifierPath: object, path: keyPath, old: .value(old)))
            case (nil, let new?):
                changes.append(ArchiveChange(.added, identifierPath: object, path: keyPath, new: .value(new)))
            case (nil, nil):
                break
            }
        }
    }

    private func value(_ a: ArchiveValue, _ b: ArchiveValue, object: String?, path: [ArchiveChange.PathComponent], into changes: inout ChangeList) {
        // Exact equality: reals by their bits (see ArchiveValueEquality.swift).
        if changes.isFull || a == b { return }
        switch (a, b) {
        case (.dictionary(let x), .dictionary(let y)):
            if let old = x.stringKeyed, let new = y.stringKeyed {
                return fields(old, new, object: object, path: path, into: &changes)
            }
        case (.object(let x), .object(let y)) where x.hasSameClass(as: y):
            return fields(x.fields, y.fields, object: object, path: path, into: &changes)
        case (.archive(let x), .archive(let y)):
            return fields(x.top, y.top, object: object, path: path, into: &changes)
        case (.array(let x), .array(let y)), (.orderedSet(let x), .orderedSet(let y)):
            if sameKind(a, b) { return elements(x, y, object: object, path: path, into: &changes) }
        case (.set(let x), .set(let y)):
            // A set has no order: only its members count.
            if multiset(x) == multiset(y) { return }
        default:
            break
        }
        changes.append(ArchiveChange(.changed, identifierPath: object, path: path, old: .value(a), new: .value(b)))
    }

    private func elements(_ a: [ArchiveValue], _ b: [ArchiveValue], object: String?, path: [ArchiveChange.PathComponent], into changes: inout ChangeList) {
        for index in 0..<max(a.count, b.count) where !changes.isFull {
            let elementPath = path + [.index(index)]
            if index >= b.count {
                changes.append(ArchiveChange(.removed, identifierPath: object, path: elementPath, old: .value(a[index])))
            } else if index >= a.count {
                changes.append(ArchiveChange(.added, identifierPath: object, path: elementPath, new: .value(b[index])))
            } else {
                value(a[index], b[index], object: object, path: elementPath, into: &changes)
            }
        }
    }

    private func compareScalar(_ a: ArchiveValue?, _ b: ArchiveValue?, object: String?, path: [ArchiveChange.PathComponent], into changes: inout ChangeList) {
        switch (a, b) {
        case (let old?, let new?): value(old, new, object: object, path: path, into: &changes)
        case (let old?, nil): changes.append(ArchiveChange(.removed, identifierPath: object, path: path, old: .value(old)))
        case (nil, let new?): changes.append(ArchiveChange(.added, identifierPath: object, path: path, new: .value(new)))
        case (nil, nil): break
        }
    }

    /// "children reordered" when both lists hold the same children in another order.
    private func childrenReordered(_ a: ArchiveValue, _ b: ArchiveValue) -> String? {
        guard case .array(let old) = a, case .array(let new) = b, old != new, multiset(old) == multiset(new) else { return nil }
        return "children reordered"
    }

    private func sameKind(_ a: ArchiveValue, _ b: ArchiveValue) -> Bool {
        switch (a, b) {
        case (.array, .array), (.orderedSet, .orderedSet): true
        default: false
        }
    }

    private func multiset(_ values: [ArchiveValue]) -> [ArchiveValue: Int] {
        values.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }

    private func orderedUnion(_ a: [String], _ b: [String]) -> [String] {
        var seen = ExactTextSet()
        return (a + b).filter { seen.insert($0) }
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
