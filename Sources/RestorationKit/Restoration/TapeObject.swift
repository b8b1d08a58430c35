/// A value on a tape: a node, or some of a dictionary node's entries (a saved object's view data
/// left in its state, see `TapeObject.State`).
enum TapeValue {
    case node(TapeNode)
    case entries(of: TapeNode, positions: [Int])
}

/// A saved object's state and views on a tape: what the readers of nodes (the text and JSON
/// dumps, the validation rules, the tree) take of an object, whether its state was left on the
/// decoder's tape (`DeferredStates.object(at:in:)`) or it was read whole and put on a tape
/// (`init(_:into:)`).
struct TapeObject {
    /// The state: `archive`'s entries at `positions`, then, when there are any, the view data's
    /// entries that are not views, under the view data's key (see `init(splitting:in:)`).
    struct State {
        let archive: TapeNode
        var positions: [Int]
        var leftovers: (dictionary: TapeNode, positions: [Int])?

        var count: Int { positions.count + (leftovers == nil ? 0 : 1) }

        /// Entry `index`: its key (nil for the leftovers', the view data's key) and its value.
        func entry(_ index: Int, in view: TapeView) -> (key: TapeNode?, value: TapeValue) {
            guard index < positions.count else { return (nil, .entries(of: leftovers!.dictionary, positions: leftovers!.positions)) }
            return (view.member(positions[index], of: archive), .node(view.value(positions[index], of: archive)))
        }

        /// The first value under `key`, in the order the entries are shown.
        func value(forKey key: StaticString, in view: TapeView) -> TapeValue? {
            for position in positions where view.textEquals(view.member(position, of: archive), key) {
                return .node(view.value(position, of: archive))
            }
            guard let leftovers, key.bytes.hasSameBytes(as: RestorationKeys.viewRestorationDataKey.bytes) else { return nil }
            return .entries(of: leftovers.dictionary, positions: leftovers.positions)
        }
    }

    /// Nil for an object without state.
    var state: State?
    /// Each view's path (a string node) and archive.
    var views: [(path: TapeNode, archive: TapeNode)] = []
    /// An entry that is not a keyed archive (see `RestorationObject.undecodedEntry`).
    var entry: TapeNode?

    /// An object read whole, its state, views and undecoded entry put on `builder`'s tape.
    init(_ object: RestorationObject, into builder: inout TapeBuilder) {
        entry = object.undecodedEntry.map { builder.append($0) }
        state = object.state.map { state in
            let archive = builder.appendFields(state, as: .archive)
            return State(archive: archive, positions: Array(0..<archive.memberCount))
        }
        views = object.views.map { view in
            let path = builder.append(.string(view.identifierPath.rawValue))
            return (path, builder.appendFields(view.state, as: .archive))
        }
    }

    /// Calls `body` with `object` read whole put on a tape of its own, and that tape's view.
    static func withWhole<Result>(_ object: RestorationObject, _ body: (TapeObject, TapeView) -> Result) -> Result {
        var builder = TapeBuilder()
        let onTape = TapeObject(object, into: &builder)
        return ArchiveTape(builder, root: .null).withView { body(onTape, $0) }
    }

    init(state: State?, views: [(path: TapeNode, archive: TapeNode)]) {
        self.state = state
        self.views = views
    }
}

extension TapeObject {
    /// The state and views of a saved object whose entry is `archive` (a nested archive's node
    /// of the tape `view` is of): the view archives under `kViewRestorationDataKey` split off
    /// its state, as UIKit reads them. Entries under that key that are not view archives stay
    /// in the state, under that key, after its other entries. Of a repeated key, the first is
    /// split and the others stay in the state where they are, shown as any repeated key is. The
    /// one place the split is made: an object read whole is split on a tape too (see
    /// `RestorationArchive.object(path:entry:)`).
    init(splitting archive: TapeNode, in view: TapeView) {
        let count = archive.memberCount
        var positions: [Int] = []
        positions.reserveCapacity(count)
        var viewDataPosition: Int?
        for position in 0..<count {
            if viewDataPosition == nil, view.textEquals(view.member(position, of: archive), RestorationKeys.viewRestorationDataKey) {
                viewDataPosition = position
            } else {
                positions.append(position)
            }
        }
        guard let viewDataPosition, case let viewData = view.value(viewDataPosition, of: archive), viewData.kind == .dictionary else {
            self.init(state: State(archive: archive, positions: Array(0..<count)), views: [])
            return
        }
        var state = State(archive: archive, positions: positions)
        var views: [(path: TapeNode, archive: TapeNode)] = []
        var leftovers: [Int] = []
        for entry in 0..<viewData.memberCount {
            let (key, value) = (view.member(entry, of: viewData), view.value(entry, of: viewData))
            if key.kind == .string, value.kind == .archive {
                views.append((key, value))
            } else {
                leftovers.append(entry)
            }
        }
        if !leftovers.isEmpty { state.leftovers = (viewData, leftovers) }
        self.init(state: state, views: views)
    }
}

extension DeferredStates {
    /// The state and views of the object at `index` as nodes of the tape (`view` is of the
    /// tape); nil unless its state is left on the tape.
    func object(at index: Int, in view: TapeView) -> TapeObject? {
        entry(at: index).map { TapeObject(splitting: $0, in: view) }
    }
}

extension RestorationArchive {
    /// Calls `body` with each object at `indices` (whose own state and views are not read), its
    /// state and views on a tape, and that tape's view: the decoder's tape for an object whose
    /// state `deferred` left there, otherwise a tape of the object's values. What the readers of
    /// nodes read objects with, on any thread. Stops before an object once `proceeding` is false
    /// (a text past its limit).
    func forEachObjectOnTape(
        _ indices: Range<Int>, deferred: DeferredStates?, while proceeding: () -> Bool = { true }, _ body: (RestorationObject, TapeObject, TapeView) -> Void
    ) {
        func whole(_ object: RestorationObject) {
            TapeObject.withWhole(object) { body(object, $0, $1) }
        }
        guard let deferred else {
            for index in indices where proceeding() { whole(objects[index]) }
            return
        }
        deferred.tape.withView { view in
            for index in indices where proceeding() {
                guard let onTape = deferred.object(at: index, in: view) else {
                    whole(objects[index])
                    continue
                }
                body(objects[index], onTape, view)
            }
        }
    }

    /// Calls `body` with the archive's `appState` on a tape and that tape's view: the decoder's
    /// tape when the archive was read with `deferred` (not whole), otherwise a tape of its values.
    func withAppStateOnTape<Result>(deferred: DeferredStates?, _ body: (TapeObject.State, TapeView) -> Result) -> Result {
        if let deferred, let state = deferred.appState {
            return deferred.tape.withView { body(state, $0) }
        }
        let (tape, top) = ArchiveTape.of(appState)
        return tape.withView { body(TapeObject.State(archive: top, positions: Array(0..<top.memberCount)), $0) }
    }
}
