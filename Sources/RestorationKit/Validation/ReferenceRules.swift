/// References between objects: children lists, proxies, the selected tab, first responders.
enum ReferenceRules {
    /// The findings about app-level keys (outside every object) and first responders, which
    /// follow the objects'.
    static func checkApp<Sink: ReferenceSink>(_ context: ValidationContext, into sink: inout Sink) {
        context.archive.withAppStateOnTape { appState, view in
            var scan = ReferenceScan(saved: context.saved)
            for index in 0..<appState.count {
                let (key, value) = appState.entry(index, in: view)
                guard let key, !view.textEquals(key, RestorationKeys.firstRespondersKey) else { continue }
                checkReferences(in: value, of: view, path: { nil }, key: { view.string(of: key) }, &scan, into: &sink)
            }
        }
        for finding in checkFirstResponders(context) { sink.add(finding.severity, finding.rule) { finding } }
    }

    /// The findings about one saved object, its state and views on a tape (see `TapeObject`).
    /// `scan` is the caller's, one for all the objects a thread checks: it holds the saved
    /// paths' set, which every thread shares, and the stack of its walk.
    static func check<Sink: ReferenceSink>(
        _ object: RestorationObject, _ onTape: TapeObject, in view: TapeView, _ context: ValidationContext, scan: inout ReferenceScan, into sink: inout Sink
    ) {
        guard let state = onTape.state else { return }
        let path = object.identifierPath.rawValue
        let children = childTargets(state, view)
        if !children.isEmpty {
            checkChildren(children, view, container: path, context, into: &sink)
        }
        if let finding = checkSelectedTab(state, view, children: children, container: path, context) { sink.add(finding.severity, finding.rule) { finding } }
        var childrenLists = 0
        for index in 0..<state.count {
            let (key, value) = state.entry(index, in: view)
            if let key, view.textEquals(key, RestorationKeys.childrenKey) {
                // A repeated children list (no UIKit writes one) is checked as the first is.
                childrenLists += 1
                if childrenLists > 1, case .node(let list) = value, list.kind == .array {
                    checkChildren(Array(view.nodes[list.first..<(list.first + list.memberCount)]), view, container: path, context, into: &sink)
                }
                continue
            }
            checkReferences(in: value, of: view, path: { path }, key: { key.map(view.string(of:)) ?? RestorationKeys.viewRestorationData }, &scan, into: &sink)
        }
        for (key, count) in repeatedKeys(state, view) {
            sink.add(.warning, .repeatedStateKey) {
                Diagnostic(.warning, .repeatedStateKey, path: IdentifierPath(path), key: key,
                    "its state holds \(key) \(count) times: NSKeyedUnarchiver reads one of the values, and which one is not known; every value is shown and checked")
            }
        }
        for (viewPath, archive) in onTape.views {
            for position in 0..<archive.memberCount {
                let key = view.member(position, of: archive)
                checkReferences(in: .node(view.value(position, of: archive)), of: view, path: { view.string(of: viewPath) }, key: { view.string(of: key) }, &scan, into: &sink)
            }
        }
    }

    /// Each key of a state that appears more than once, with its count, in first-appearance
    /// order; keys are the same when their bytes are. The view data's entries that are not views
    /// (`leftovers`) count as one more `kViewRestorationDataKey`, last, as in the object read
    /// whole. Most states have a handful of keys: they are compared pairwise, without hashing,
    /// up to 32.
    private static func repeatedKeys(_ state: TapeObject.State, _ view: TapeView) -> [(key: String, count: Int)] {
        let count = state.count
        guard count > 1 else { return [] }
        let viewDataKey = UnsafeRawBufferPointer(start: RestorationKeys.viewRestorationDataKey.utf8Start, count: RestorationKeys.viewRestorationDataKey.utf8CodeUnitCount)
        func key(_ index: Int) -> UnsafeRawBufferPointer {
            index < state.positions.count ? view.bytes(of: view.member(state.positions[index], of: state.archive)) : viewDataKey
        }
        if count <= 32 {
            // Pairs compared in place: no key is copied, and the usual state, whose keys all
            // differ, allocates nothing. Each key's bytes are found once; a key's length is
            // known without reading its bytes, which are compared only for keys of one length.
            return withUnsafeTemporaryAllocation(of: UnsafeRawBufferPointer.self, capacity: count) { keys in
                // Only keys whose lengths (modulo 64) another key shares can repeat: in the
                // usual state none or a few do, and only those are compared.
                var lengths: UInt64 = 0, sharedLengths: UInt64 = 0
                for index in 0..<count {
                    let key = key(index)
                    (keys.baseAddress! + index).initialize(to: key)
                    let bit: UInt64 = 1 << (key.count & 63)
                    sharedLengths |= lengths & bit
                    lengths |= bit
                }
                guard sharedLengths != 0 else { return [] }
                var repeatedAt: [Int] = []
                for first in 0..<(count - 1) where sharedLengths & 1 << (keys[first].count & 63) != 0 {
                    let firstKey = keys[first]
                    for later in (first + 1)..<count where keys[later].count == firstKey.count && firstKey.hasSameBytes(as: keys[later]) {
                        repeatedAt.append(first)
                        break
                    }
                }
                guard !repeatedAt.isEmpty else { return [] }
                var repeated: [(key: String, count: Int)] = []
                var reported: [UnsafeRawBufferPointer] = []
                for first in repeatedAt where !reported.contains(where: { $0.hasSameBytes(as: keys[first]) }) {
                    reported.append(keys[first])
                    let times = keys.filter { $0.hasSameBytes(as: keys[first]) }.count
                    repeated.append((String(decoding: keys[first], as: UTF8.self), times))
                }
                return repeated
            }
        }
        let texts = (0..<count).map { ExactText(String(decoding: key($0), as: UTF8.self)) }
        var counts: [ExactText: Int] = [:]
        for text in texts { counts[text, default: 0] += 1 }
        var repeated: [(key: String, count: Int)] = []
        var reported = Set<ExactText>()
        for index in 0..<count where counts[texts[index]]! > 1 && reported.insert(texts[index]).inserted {
            repeated.append((String(decoding: key(index), as: UTF8.self), counts[texts[index]]!))
        }
        return repeated
    }

    /// A container's children: path strings or proxies, or anything else (reported nowhere).
    private static func childTargets(_ state: TapeObject.State, _ view: TapeView) -> [TapeNode] {
        guard case .node(let children)? = state.value(forKey: RestorationKeys.childrenKey, in: view), children.kind == .array else { return [] }
        return Array(view.nodes[children.first..<(children.first + children.memberCount)])
    }

    private static func target(of child: TapeNode, _ view: TapeView) -> String? {
        child.kind == .string || child.kind == .reference ? view.string(of: child) : nil
    }

    private static func checkChildren<Sink: ReferenceSink>(_ children: [TapeNode], _ view: TapeView, container: String, _ context: ValidationContext, into sink: inout Sink) {
        // Targets met so far, one hash each. Where each first appeared is indexed from the first
        // repeat on, which is rare: the children before it at once, the later ones as they come.
        var seen = ExactTextSet(minimumCapacity: children.count)
        var firstIndex: [ExactText: Int]?
        for (index, child) in children.enumerated() {
            // A list of many children can hold more findings than their reader can take.
            guard !sink.isFull else { break }
            if isProxyWithoutPath(child, view) {
                sink.add(.error, .proxyWithoutPath) { proxyWithoutPath(path: container, key: RestorationKeys.children, at: "child \(index)") }
                continue
            }
            guard let target = target(of: child, view) else { continue }
            guard seen.insert(target) else {
                sink.add(.error, .duplicateSiblingIdentifier) {
                    if firstIndex == nil {
                        firstIndex = Dictionary(children[..<index].indices.compactMap { position in
                            Self.target(of: children[position], view).map { (ExactText($0), position) }
                        }, uniquingKeysWith: { first, _ in first })
                    }
                    let first = firstIndex![ExactText(target)]!
                    return Diagnostic(.error, .duplicateSiblingIdentifier, path: IdentifierPath(container), key: RestorationKeys.children,
                        "children \(first) and \(index) are both \(target): no index component tells them apart, so UIKit cannot restore them as two view controllers")
                }
                continue
            }
            firstIndex?[ExactText(target)] = index
            if !context.saved.contains(target) {
                sink.addDangling(path: container, key: RestorationKeys.children, target: target, Diagnostic(.error, .danglingReference, path: IdentifierPath(container), key: RestorationKeys.children, target: IdentifierPath(target),
                    "can't find child view controller at index \(index) with identifier \(target) (no object was saved under it): UIKit truncates the child array at index \(index)"))
            }
        }
    }

    /// The selected tab must be one of the tab bar controller's children: those of its children
    /// list when it wrote one, otherwise the objects whose path's parent is its own path (the
    /// real archives seen so far have no children list for a tab bar controller; FORMAT.md).
    private static func checkSelectedTab(_ state: TapeObject.State, _ view: TapeView, children: [TapeNode], container: String, _ context: ValidationContext) -> Diagnostic? {
        let key = RestorationKeys.tabBarSelectedViewController
        guard case .node(let selectedNode)? = state.value(forKey: RestorationKeys.tabBarSelectedViewControllerKey, in: view), selectedNode.kind == .reference,
              case let selected = view.string(of: selectedNode), context.saved.contains(selected) else { return nil }
        let reason: String
        if case .node(let list)? = state.value(forKey: RestorationKeys.childrenKey, in: view), list.kind == .array {
            guard !children.compactMap({ target(of: $0, view) }).containsExactly(selected) else { return nil }
            reason = "isn't one of the tab bar controller's children (\(RestorationKeys.children))"
        } else {
            guard IdentifierPath(selected).parent != IdentifierPath(container) else { return nil }
            reason = "isn't a child of the tab bar controller (its path's parent is not \(container))"
        }
        return Diagnostic(.error, .selectedTabNotChild, path: IdentifierPath(container), key: key,
            "the selected view controller \(selected) \(reason): UIKit logs \"TabBarController's selected view controller from State Restoration isn't contained in Tab Controller, skipping\" and keeps its default selection")
    }

    /// Every `_UIObjectIdentifierPathProxy` in `value` (of the tape `view` is of), nested archives
    /// included: a proxy without a path and each target no object was saved under, each once, in
    /// the order the walk meets them. The path (`path`: the object's or view's, nil for an
    /// app-level key) and the key the value is under (`key`) are made only for a finding.
    private static func checkReferences<Sink: ReferenceSink>(
        in value: TapeValue, of view: TapeView, path: () -> String?, key: () -> String, _ scan: inout ReferenceScan, into sink: inout Sink
    ) {
        scan.start()
        switch value {
        case .node(let node):
            // Most values are scalars and strings, which hold no reference.
            guard ReferenceScan.mayHoldReferences(node) else { return }
            scan.visit(node, in: view)
        case .entries(let dictionary, let positions):
            scan.visit(dictionary, positions: positions, in: view)
        }
        guard !scan.findings.isEmpty else { return }
        let (path, key) = (path(), key())
        for finding in scan.findings {
            switch finding {
            case .proxyWithoutPath:
                sink.add(.error, .proxyWithoutPath) { proxyWithoutPath(path: path, key: key, at: key) }
            case .dangling(let target):
                sink.addDangling(path: path, key: key, target: target, Diagnostic(.error, .danglingReference, path: path.map { IdentifierPath($0) }, key: key, target: IdentifierPath(target),
                    "\(key) refers to \(target), but no object was saved under that path: \(consequence(of: key))"))
            }
        }
    }

    private static func consequence(of key: String) -> String {
        if key.isExactly(RestorationKeys.tabBarSelectedViewController) { return "UIKit skips the selection and the tab bar keeps its default tab" }
        if key.isExactly(RestorationKeys.presentedViewController) { return "the presented view controller is not restored" }
        return "the reference decodes as nil"
    }

    fileprivate static func isProxyWithoutPath(_ node: TapeNode, _ view: TapeView) -> Bool {
        node.kind == .object && isProxyClass(view.classes[node.classIndex].name)
    }

    fileprivate static func isProxyClass(_ name: String) -> Bool {
        name.isExactly(RestorationKeys.proxyClass)
    }

    private static func proxyWithoutPath(path: String?, key: String, at place: String) -> Diagnostic {
        Diagnostic(.error, .proxyWithoutPath, path: path.map { IdentifierPath($0) }, key: key,
            "\(place) is an object reference (\(RestorationKeys.proxyClass)) without a string kObjectIdentifierPathProxyIdentifierPathKey: UIKit logs \"Couldn't decode restoration identifier path, returning nil\"")
    }

    /// The paths the app state names as first responders, if it names any: the only rule
    /// that reads the views' paths (`ValidationContext.viewPaths`) is theirs.
    static func firstResponders(of archive: RestorationArchive) -> ArchiveValue.Elements? {
        guard let paths = archive.appState[RestorationKeys.firstResponders], paths.kind == .array else { return nil }
        return paths.elements
    }

    /// A first responder is a saved object or a view of one. A view that wrote no state may
    /// have no entry of its own, so a path whose parent is a saved object or view is not reported.
    private static func checkFirstResponders(_ context: ValidationContext) -> [Diagnostic] {
        guard let paths = firstResponders(of: context.archive) else { return [] }
        // Views of an object whose state cannot be decoded are unknown; that object is reported already.
        let undecodable = UndecodableObjects(context.archive)
        func isKnown(_ path: String) -> Bool { context.saved.contains(path) || context.viewPaths.contains(path) }
        return paths.compactMap(\.stringValue).compactMap { path in
            guard !isKnown(path), IdentifierPath(path).parent.map({ isKnown($0.rawValue) }) != true else { return nil }
            guard !undecodable.containsAncestor(of: path) else { return nil }
            return Diagnostic(.warning, .firstResponderUnknownPath, path: IdentifierPath(path), key: RestorationKeys.firstResponders,
                "the first responder path names neither a saved object or view nor a view of a saved object: UIKit cannot make it first responder again")
        }
    }
}

/// Where the reference rules put what they find: every finding, for `validate`; only how many of
/// each kind, for `scan` (see `FindingTally`); or only the dangling references, for `tree`,
/// which draws them without their messages.
protocol ReferenceSink {
    /// Whether what was found is already more than its reader can take: a list of many
    /// children stops there.
    var isFull: Bool { get }
    /// A finding of `rule`, made (its message written) only if the sink keeps it.
    mutating func add(_ severity: Diagnostic.Severity, _ rule: ValidationRule, _ finding: () -> Diagnostic)
    /// A reference under `key` of `path` (an object's or a view's; nil for the app's keys) to
    /// `target`, a path no object was saved under: an error of `danglingReference`.
    mutating func addDangling(path: String?, key: String, target: String, _ finding: @autoclosure () -> Diagnostic)
}

/// The findings, until their messages pass `messageLimit` bytes (see `ArchiveValidator.validate`).
struct FindingList: ReferenceSink {
    let messageLimit: Int
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var messageBytes = 0

    init(messageLimit: Int) {
        self.messageLimit = messageLimit
    }

    var isFull: Bool { messageBytes > messageLimit }

    mutating func add(_ severity: Diagnostic.Severity, _ rule: ValidationRule, _ finding: () -> Diagnostic) {
        let finding = finding()
        messageBytes += finding.message.utf8.count
        diagnostics.append(finding)
    }

    mutating func addDangling(path: String?, key: String, target: String, _ finding: @autoclosure () -> Diagnostic) {
        add(.error, .danglingReference, finding)
    }
}

/// The dangling references alone, until their keys and targets, which `tree` draws, pass
/// `limit` bytes.
struct DanglingReferences: ReferenceSink {
    let limit: Int
    private(set) var references: [(path: String?, key: String, target: String)] = []
    /// The keys' and targets' bytes.
    private(set) var bytes = 0

    init(limit: Int) {
        self.limit = limit
    }

    var isFull: Bool { bytes > limit }

    mutating func add(_ severity: Diagnostic.Severity, _ rule: ValidationRule, _ finding: () -> Diagnostic) {}

    mutating func addDangling(path: String?, key: String, target: String, _ finding: @autoclosure () -> Diagnostic) {
        bytes += key.utf8.count + target.utf8.count
        references.append((path, key, target))
    }
}

/// The references in one value and everything inside it, each reported once, in the order a
/// depth-first walk meets them: a walk of every value of every saved object, so it reads the
/// tape directly and allocates only for findings. Keeps its walker from value to value and
/// object to object.
struct ReferenceScan: TapeVisitor {
    fileprivate enum Finding {
        case proxyWithoutPath
        case dangling(String)
    }

    private let saved: ExactTextSet
    fileprivate private(set) var findings: [Finding] = []
    private var sawProxy = false
    private var reported = ExactTextSet()
    private var walker = TapeWalker()
    /// The tape of the value being scanned.
    private var view: TapeView?

    init(saved: ExactTextSet) {
        self.saved = saved
    }

    /// Forgets the findings of the value scanned before.
    fileprivate mutating func start() {
        if !findings.isEmpty { (findings, reported) = ([], ExactTextSet()) }
        sawProxy = false
    }

    /// Whether `node` is a reference or a container, which may hold one.
    fileprivate static func mayHoldReferences(_ node: TapeNode) -> Bool {
        switch node.kind.layout {
        case .scalar: false
        case .bytes: node.kind == .reference
        case .elements, .entries, .fields, .object, .url: true
        }
    }

    /// `node`, of the tape `view` is of.
    fileprivate mutating func visit(_ node: TapeNode, in view: TapeView) {
        scan(in: view) { walker, scan in walker.walk(node, in: view, &scan) }
    }

    /// A dictionary's entries at `positions`, each key then its value.
    fileprivate mutating func visit<Positions: Sequence<Int>>(_ dictionary: TapeNode, positions: Positions, in view: TapeView) {
        scan(in: view) { walker, scan in
            let order = walker.appendOrder(positions)
            walker.walkMembers(of: dictionary, .all(order: order), in: view, &scan)
        }
    }

    private mutating func scan(in view: TapeView, _ body: (inout TapeWalker, inout ReferenceScan) -> Void) {
        self.view = view
        var walker = TapeWalker()
        swap(&walker, &self.walker)
        body(&walker, &self)
        swap(&walker, &self.walker)
    }

    mutating func enter(_ node: TapeNode, at place: TapePlace, walker: inout TapeWalker) -> TapeDescent {
        switch node.kind.layout {
        case .scalar:
            return .none
        case .bytes:
            guard node.kind == .reference else { return .none }
            let target = view!.string(of: node)
            if !saved.contains(target), reported.insert(target) {
                findings.append(.dangling(target))
            }
            return .none
        case .elements, .entries:
            return .all()
        case .object, .fields:
            if ReferenceRules.isProxyWithoutPath(node, view!), !sawProxy {
                sawProxy = true
                findings.append(.proxyWithoutPath)
            }
            // Field names are strings, never references.
            return .values()
        case .url:
            return .values()
        }
    }
}

/// The paths of objects whose state cannot be decoded, asked "is one of you at or above this
/// path?" without comparing every pair: only prefixes as long as one of them are looked up, so
/// that many first responders against many undecodable objects stay linear.
private struct UndecodableObjects {
    private let paths: ExactTextSet
    private let lengths: Set<Int>

    init(_ archive: RestorationArchive) {
        let undecodable = archive.objects.filter { $0.undecodedEntry != nil }.map(\.identifierPath.rawValue)
        paths = ExactTextSet(undecodable)
        lengths = Set(undecodable.map(\.utf8.count))
    }

    func containsAncestor(of path: String) -> Bool {
        guard !paths.isEmpty else { return false }
        if paths.contains(path) { return true }
        let bytes = Array(path.utf8)
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "/") && lengths.contains(offset) {
            if paths.contains(String(decoding: bytes[..<offset], as: UTF8.self)) { return true }
        }
        return false
    }
}
