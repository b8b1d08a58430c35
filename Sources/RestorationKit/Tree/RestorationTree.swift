/// The saved objects as the hierarchy their identifier paths describe, for `tree`.
///
/// The nodes are stored flat, depth first (a node, then each of its children's subtrees in
/// order), each with where its subtree ends; a `Node` is a view of one of them. So a tree as deep
/// as its paths is built, walked and freed without recursing.
public struct RestorationTree: Sendable {
    /// What the tree shows of one object.
    public struct Line: Sendable {
        public var identifierPath: IdentifierPath
        /// How the node is named under its parent: its own components (`[1] NavigationController`),
        /// or the whole path for a root.
        public var label: String
        public var restorationClass: String?
        public var views: [IdentifierPath]
        /// The parent's `kPresentedViewControllerKey` names this node.
        public var presented: Bool
        /// The parent's `kTabBarSelectedViewControllerKey` names this node.
        public var selected: Bool
        /// Listed, but with no decodable state.
        public var stateProblem: String?
        /// References from this node (or its views) to paths with no saved object.
        public var dangling: [(key: String, target: IdentifierPath)]

        public init(identifierPath: IdentifierPath, label: String, restorationClass: String? = nil, views: [IdentifierPath] = [],
                    presented: Bool = false, selected: Bool = false, stateProblem: String? = nil, dangling: [(key: String, target: IdentifierPath)] = []) {
            (self.identifierPath, self.label, self.restorationClass, self.views) = (identifierPath, label, restorationClass, views)
            (self.presented, self.selected, self.stateProblem, self.dangling) = (presented, selected, stateProblem, dangling)
        }
    }

    /// One node of the tree: its line (`node.label`, `node.dangling`…) and its children.
    @dynamicMemberLookup
    public struct Node: Sendable {
        public let tree: RestorationTree
        /// Its place among `tree.lines`.
        public let index: Int

        public var line: Line { tree.lines[index] }

        public subscript<Value>(dynamicMember member: KeyPath<Line, Value>) -> Value {
            tree.lines[index][keyPath: member]
        }

        public var children: [Node] { tree.nodes(in: (index + 1)..<tree.subtreeEnds[index]) }
    }

    /// Every node's line, depth first.
    public let lines: [Line]
    /// For each line, the index one past the last line of its subtree.
    let subtreeEnds: [Int]
    /// References from app-level keys (outside every object) to paths with no saved object.
    public let appDangling: [(key: String, target: IdentifierPath)]

    public var roots: [Node] { nodes(in: 0..<lines.count) }

    /// The nodes whose subtrees follow one another from the start of `range` to its end.
    private func nodes(in range: Range<Int>) -> [Node] {
        var nodes: [Node] = []
        var index = range.lowerBound
        while index < range.upperBound {
            nodes.append(Node(tree: self, index: index))
            index = subtreeEnds[index]
        }
        return nodes
    }

    /// A tree of `lines` given depth first, each with its depth (0 for a root; a child one more
    /// than its parent).
    public init(depthFirst lines: [(line: Line, depth: Int)], appDangling: [(key: String, target: IdentifierPath)] = []) {
        self.init(lines: lines.map(\.line), depths: lines.map(\.depth), appDangling: appDangling)
    }

    /// The same, the lines and their depths apart: the lines are kept, not copied.
    private init(lines: [Line], depths: [Int], appDangling: [(key: String, target: IdentifierPath)]) {
        var ends = [Int](repeating: lines.count, count: lines.count)
        var open: [Int] = []
        for (index, depth) in depths.enumerated() {
            while let last = open.last, depths[last] >= depth {
                ends[last] = index
                open.removeLast()
            }
            open.append(index)
        }
        self.lines = lines
        subtreeEnds = ends
        self.appDangling = appDangling
    }

    /// Where a walk of the tree is: entering a node (`parent` is its parent's index; `isLast`,
    /// whether nothing is drawn after it under that parent: no later child and no dangling
    /// reference), or leaving one once its subtree has been walked.
    package enum Step {
        case enter(Int, parent: Int?, isLast: Bool)
        case leave(Int)
    }

    /// Calls `visit` for each step of a depth-first walk, without recursing, while it returns
    /// true.
    package func walk(_ visit: (Step) -> Bool) {
        var open: [Int] = []
        for index in lines.indices {
            while let parent = open.last, subtreeEnds[parent] <= index {
                open.removeLast()
                guard visit(.leave(parent)) else { return }
            }
            let parent = open.last
            let isLast = parent.map { subtreeEnds[index] == subtreeEnds[$0] && lines[$0].dangling.isEmpty } ?? false
            guard visit(.enter(index, parent: parent, isLast: isLast)) else { return }
            open.append(index)
        }
        while let parent = open.popLast() {
            guard visit(.leave(parent)) else { return }
        }
    }

    /// The hierarchy of `archive`'s identifier paths, with each node's marks and the dangling
    /// references. Large archives are read on all processors; the call waits for them.
    public init(_ archive: RestorationArchive) {
        // Without a limit there is always a tree.
        self.init(archive, outputLimit: .max)!
    }

    /// The tree, or nil once the objects' dangling references, their targets and keys, together
    /// pass `outputLimit` bytes: every drawing of the tree writes them, so it could not be
    /// written within that many bytes, and objects that share one state (a small file can make
    /// thousands of them) repeat its references, each costing memory.
    package init?(_ archive: RestorationArchive, outputLimit: Int) {
        guard let built = Self.build(archive, outputLimit: outputLimit) else { return nil }
        self = built
    }

    /// Fewer bytes than any drawing of the tree takes: every form writes each node's label and
    /// each dangling reference's target and key.
    package var minimumOutputSize: Int {
        (lines.lazy.map { $0.label.utf8.count + 1 + Self.size(of: $0.dangling) }.reduce(0, +)) + Self.size(of: appDangling)
    }

    private static func size(of references: [(key: String, target: IdentifierPath)]) -> Int {
        references.reduce(0) { $0 + $1.key.utf8.count + $1.target.rawValue.utf8.count }
    }

    /// What the tree shows of one object: its parent's path and, from its state, the rest.
    private struct StateSummary {
        var parent: String?
        var views: [IdentifierPath] = []
        /// The paths its `kPresentedViewControllerKey` and `kTabBarSelectedViewControllerKey` name.
        var presented: String?
        var selected: String?
        /// Its dangling references (see `ArchiveValidator`) and, for each, the path the validator
        /// reports it under: the object's or one of its views'.
        var dangling: [(path: String, key: String, target: String)] = []
    }

    private static func build(_ archive: RestorationArchive, outputLimit: Int) -> RestorationTree? {
        let objects = archive.objects
        let context = ValidationContext(archive)
        let drawn = SharedTextBudget(limit: outputLimit, spent: 0)
        // Each object's parent path and what the tree shows of its state, in parts on all
        // processors; the calling thread indexes the objects by path meanwhile (paths are
        // distinct: one object per listed path).
        var indexOfPath: [ExactText: Int] = [:]
        let summaries = Array(Parallel.mapParts(of: objects.count, first: {
            indexOfPath = Dictionary(objects.indices.lazy.map { (ExactText(objects[$0].identifierPath.rawValue), $0) }, uniquingKeysWith: { first, _ in first })
        }) { range in
            var summaries: [StateSummary] = []
            summaries.reserveCapacity(range.count)
            // Told when this part counts references (see `ArchiveValidator.validate`).
            var pastLimit = false
            var scan = ReferenceScan(saved: context.saved)
            archive.forEachObjectOnTape(range, while: { !pastLimit }) { object, onTape, view in
                var summary = StateSummary(parent: object.identifierPath.parent?.rawValue, views: onTape.views.map { IdentifierPath(view.string(of: $0.path)) })
                func reference(_ key: StaticString) -> String? {
                    guard case .node(let node)? = onTape.state?.value(forKey: key, in: view), node.kind == .reference else { return nil }
                    return view.string(of: node)
                }
                summary.presented = reference(RestorationKeys.presentedViewControllerKey)
                summary.selected = reference(RestorationKeys.tabBarSelectedViewControllerKey)
                // The references alone, without the findings' messages, and no more than the
                // drawing could hold: one children list can name a million paths.
                var dangling = DanglingReferences(limit: outputLimit)
                ReferenceRules.check(object, onTape, in: view, context, scan: &scan, into: &dangling)
                summary.dangling = dangling.references.map { ($0.path ?? "", $0.key, $0.target) }
                if !summary.dangling.isEmpty {
                    pastLimit = drawn.spend(dangling.bytes)
                }
                summaries.append(summary)
            }
            return summaries
        }.joined())
        guard !drawn.isSpent else { return nil }
        // The tree by object index: each path is looked up once, for its parent, on all
        // processors.
        let parents = Array(Parallel.mapParts(of: objects.count) { range in
            range.map { index in summaries[index].parent.flatMap { indexOfPath[ExactText($0)] } }
        }.joined())
        var children = [[Int]](repeating: [], count: objects.count)
        var rootIndices: [Int] = []
        for index in objects.indices {
            if let parent = parents[index] { children[parent].append(index) } else { rootIndices.append(index) }
        }
        // A node's label depends on its own path and whether it has a parent: made in parts on
        // all processors.
        let labels = Array(Parallel.mapParts(of: objects.count) { range in
            range.map { index -> String in
                let path = objects[index].identifierPath.rawValue
                guard parents[index] != nil, let parent = summaries[index].parent else { return path }
                return Self.label(path, belowParentOfLength: parent.utf8.count)
            }
        }.joined())
        // Dangling references as the validator reports them, attached to the object they are in:
        // one reported under a view's path goes to the object that saved the view (the first, if
        // two saved one path). Most archives have none, and need no map of the views.
        var viewOwner: [ExactText: String] = [:]
        if summaries.contains(where: { !$0.dangling.isEmpty }) {
            viewOwner = Dictionary(objects.indices.flatMap { index in summaries[index].views.map { (ExactText($0.rawValue), objects[index].identifierPath.rawValue) } },
                                   uniquingKeysWith: { first, _ in first })
        }
        var dangling: [ExactText: [(key: String, target: IdentifierPath)]] = [:]
        for summary in summaries {
            for (path, key, target) in summary.dangling {
                dangling[ExactText(viewOwner[ExactText(path)] ?? path), default: []].append((key, IdentifierPath(target)))
            }
        }
        var appReferences = DanglingReferences(limit: .max)
        ReferenceRules.checkApp(context, into: &appReferences)
        let appDangling = appReferences.references.map { (key: $0.key, target: IdentifierPath($0.target)) }

        // Depth first, each object's children in path order after it.
        var (lines, depths): ([Line], [Int]) = ([], [])
        lines.reserveCapacity(objects.count)
        depths.reserveCapacity(objects.count)
        var pending: [(index: Int, parent: Int?, depth: Int)] = rootIndices.reversed().map { ($0, nil, 0) }
        while let (index, parent, depth) = pending.popLast() {
            let object = objects[index]
            let path = object.identifierPath.rawValue
            lines.append(Line(
                identifierPath: object.identifierPath, label: labels[index], restorationClass: object.restorationClass,
                views: summaries[index].views,
                presented: parent.flatMap { summaries[$0].presented }.map { $0.isExactly(path) } ?? false,
                selected: parent.flatMap { summaries[$0].selected }.map { $0.isExactly(path) } ?? false,
                stateProblem: object.stateProblem, dangling: dangling.isEmpty ? [] : dangling[ExactText(path)] ?? []))
            depths.append(depth)
            for child in children[index].reversed() { pending.append((child, index, depth + 1)) }
        }
        return RestorationTree(lines: lines, depths: depths, appDangling: appDangling)
    }
}

extension RestorationTree {
    /// How a node is named under its parent: the components of `path` after its parent's
    /// `parentLength` bytes and the `/` that follows them, an index component as `[n]`, spaces
    /// between them (`Tabs/:[1]:/NavigationController` → `[1] NavigationController`).
    ///
    /// The path is cut at the byte, as `IdentifierPath` splits it: a combining mark after the `/`
    /// belongs to the child's component. ASCII, the usual case, is read from its bytes.
    static func label(_ path: String, belowParentOfLength parentLength: Int) -> String {
        var path = path
        return path.withUTF8 { bytes in
            let rest = UnsafeBufferPointer(rebasing: bytes[(parentLength + 1)...])
            guard UnsafeRawBufferPointer(rest).isASCII else {
                return IdentifierPath(String(decoding: rest, as: UTF8.self)).components.map { component in
                    switch component {
                    case .identifier(let name): name
                    case .index(let index): "[\(index)]"
                    case .malformedIndex(let text): text
                    }
                }.joined(separator: " ")
            }
            // Never longer than `rest`: a `/` becomes a space, `:[007]:` becomes `[7]`.
            return String(unsafeUninitializedCapacity: rest.count) { label in
                var count = 0
                func append(_ bytes: some Collection<UInt8>) {
                    for byte in bytes {
                        label[count] = byte
                        count += 1
                    }
                }
                var start = 0
                while start <= rest.count {
                    let end = rest[start...].firstIndex(of: UInt8(ascii: "/")) ?? rest.count
                    if start > 0 { append(CollectionOfOne(UInt8(ascii: " "))) }
                    let component = UnsafeBufferPointer(rebasing: rest[start..<end])
                    if IdentifierPath.shape(ofASCII: component) == .index {
                        append(CollectionOfOne(UInt8(ascii: "[")))
                        append(String(IdentifierPath.indexValue(ofDigits: component[2..<(component.count - 2)])).utf8)
                        append(CollectionOfOne(UInt8(ascii: "]")))
                    } else {
                        append(component)
                    }
                    start = end + 1
                }
                return count
            }
        }
    }
}
