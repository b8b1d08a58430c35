/// A value on a tape: a node, or some of a dictionary node's entries (a saved object's view data
/// left in its state, see `TapeObject.State`).
enum TapeValue: Sendable {
    case node(TapeNode)
    case entries(of: TapeNode, positions: [Int])
}

/// A value of an archive's tape, held with the tape: a library value handed to the JSON writer,
/// or a side of a change `diff` found, which its text and JSON write from the tape and a library
/// user reads as a value made when asked.
package struct TapeValueReference {
    let tape: ArchiveTape
    let value: TapeValue
}

/// A saved object's state and views as nodes of its archive's tape: what the readers of nodes
/// (the text and JSON dumps, the validation rules, the tree) take of an object.
struct TapeObject {
    /// The state: `archive`'s entries at `positions`, then, when there are any, the view data's
    /// entries that are not views, under the view data's key (see `init(splitting:in:)`).
    struct State {
        let archive: TapeNode
        var positions: [Int]
        var leftovers: (dictionary: TapeNode, positions: [Int])?

        var count: Int { positions.count + (leftovers == nil ? 0 : 1) }

        /// All the entries of `archive` (an archive, an object or a dictionary node).
        init(whole archive: TapeNode) {
            self.init(archive: archive, positions: Array(0..<archive.memberCount))
        }

        init(archive: TapeNode, positions: [Int], leftovers: (dictionary: TapeNode, positions: [Int])? = nil) {
            self.archive = archive
            self.positions = positions
            self.leftovers = leftovers
        }

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

    /// The state and views of `object`, nodes of its archive's tape (`view` is of it).
    init(_ object: RestorationObject, in view: TapeView) {
        if let node = object.entry?.node, node.kind == .archive {
            self.init(splitting: node, in: view)
        } else {
            self.init(state: nil, views: [])
            entry = object.entry?.node
        }
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
    /// one place the split is made: `RestorationObject.state` and `views` are made from it too.
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

extension RestorationArchive {
    /// Calls `body` with each object at `indices`, its state and views on the archive's tape, and
    /// that tape's view: what the readers of nodes read objects with, on any thread. Stops before
    /// an object once `proceeding` is false (a text past its limit).
    func forEachObjectOnTape(_ indices: Range<Int>, while proceeding: () -> Bool = { true }, _ body: (RestorationObject, TapeObject, TapeView) -> Void) {
        tape.withView { view in
            for index in indices where proceeding() {
                assert(objects[index].entry.map { $0.tape === tape } ?? true, "an object of another archive")
                body(objects[index], TapeObject(objects[index], in: view), view)
            }
        }
    }

    /// Calls `body` with the archive's `appState` as nodes of its tape, and that tape's view.
    func withAppStateOnTape<Result>(_ body: (TapeObject.State, TapeView) -> Result) -> Result {
        tape.withView { body(TapeObject.State(archive: tape.root, positions: appStatePositions), $0) }
    }
}
