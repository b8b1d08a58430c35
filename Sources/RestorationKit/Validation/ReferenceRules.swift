/// References between objects: children lists, proxies, the selected tab, first responders.
enum ReferenceRules {
    /// The findings about app-level keys (outside every object) and first responders, which
    /// follow the objects'.
    static func checkApp(_ context: ValidationContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (key, value) in context.archive.appState.entries where key != RestorationKeys.firstResponders {
            checkReferences(in: value, path: nil, key: key, context, into: &diagnostics)
        }
        diagnostics += checkFirstResponders(context)
        return diagnostics
    }

    /// The findings about one saved object (whole: see `DeferredStates`).
    static func check(_ object: RestorationObject, _ context: ValidationContext) -> [Diagnostic] {
        guard let state = object.state else { return [] }
        var diagnostics: [Diagnostic] = []
        let path = object.identifierPath.rawValue
        let children = childTargets(state)
        if !children.isEmpty {
            diagnostics += checkChildren(children, container: path, context)
        }
        diagnostics += checkSelectedTab(state, children: children, container: path, context)
        for (key, value) in state.entries where key != RestorationKeys.children {
            checkReferences(in: value, path: path, key: key, context, into: &diagnostics)
        }
        for view in object.views {
            for (key, value) in view.state.entries {
                checkReferences(in: value, path: view.identifierPath.rawValue, key: key, context, into: &diagnostics)
            }
        }
        return diagnostics
    }

    /// A container's children: path strings or proxies; nil marks an entry that is neither.
    private static func childTargets(_ state: ArchiveFields) -> [ArchiveValue] {
        guard case .array(let elements)? = state[RestorationKeys.children] else { return [] }
        return elements
    }

    private static func target(of child: ArchiveValue) -> String? {
        switch child {
        case .string(let path), .reference(let path): path
        default: nil
        }
    }

    private static func checkChildren(_ children: [ArchiveValue], container: String, _ context: ValidationContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var firstIndex: [ExactText: Int] = [:]
        for (index, child) in children.enumerated() {
            if isProxyWithoutPath(child) {
                diagnostics.append(proxyWithoutPath(path: container, key: RestorationKeys.children, at: "child \(index)"))
                continue
            }
            guard let target = target(of: child) else { continue }
            if let first = firstIndex[ExactText(target)] {
                diagnostics.append(Diagnostic(.error, .duplicateSiblingIdentifier, path: container, key: RestorationKeys.children,
                    "children \(first) and \(index) are both \(target): no index component tells them apart, so UIKit cannot restore them as two view controllers"))
                continue
            }
            firstIndex[ExactText(target)] = index
            if !context.saved.contains(target) {
                diagnostics.append(Diagnostic(.error, .danglingReference, path: container, key: RestorationKeys.children, target: target,
                    "can't find child view controller at index \(index) with identifier \(target) (no object was saved under it): UIKit truncates the child array at index \(index)"))
            }
        }
        return diagnostics
    }

    /// The selected tab must be one of the tab bar controller's children: those of its children
    /// list when it wrote one, otherwise the objects whose path's parent is its own path (the
    /// real archives seen so far have no children list for a tab bar controller; FORMAT.md).
    private static func checkSelectedTab(_ state: ArchiveFields, children: [ArchiveValue], container: String, _ context: ValidationContext) -> [Diagnostic] {
        let key = RestorationKeys.tabBarSelectedViewController
        guard case .reference(let selected)? = state[key], context.saved.contains(selected) else { return [] }
        let reason: String
        if case .array? = state[RestorationKeys.children] {
            guard !children.compactMap(target(of:)).containsExactly(selected) else { return [] }
            reason = "isn't one of the tab bar controller's children (\(RestorationKeys.children))"
        } else {
            guard IdentifierPath(selected).parent != IdentifierPath(container) else { return [] }
            reason = "isn't a child of the tab bar controller (its path's parent is not \(container))"
        }
        return [Diagnostic(.error, .selectedTabNotChild, path: container, key: key,
            "the selected view controller \(selected) \(reason): UIKit logs \"TabBarController's selected view controller from State Restoration isn't contained in Tab Controller, skipping\" and keeps its default selection")]
    }

    /// Every `_UIObjectIdentifierPathProxy` in `value`, nested archives included: a proxy without
    /// a path and each target no object was saved under, each once, in the order the walk meets them.
    private static func checkReferences(in value: ArchiveValue, path: String?, key: String, _ context: ValidationContext, into diagnostics: inout [Diagnostic]) {
        var scan = ReferenceScan(saved: context.saved)
        scan.visit(value)
        for finding in scan.findings {
            switch finding {
            case .proxyWithoutPath:
                diagnostics.append(proxyWithoutPath(path: path, key: key, at: key))
            case .dangling(let target):
                diagnostics.append(Diagnostic(.error, .danglingReference, path: path, key: key, target: target,
                    "\(key) refers to \(target), but no object was saved under that path: \(consequence(of: key))"))
            }
        }
    }

    private static func consequence(of key: String) -> String {
        if key.isExactly(RestorationKeys.tabBarSelectedViewController) { return "UIKit skips the selection and the tab bar keeps its default tab" }
        if key.isExactly(RestorationKeys.presentedViewController) { return "the presented view controller is not restored" }
        return "the reference decodes as nil"
    }

    private static func isProxyWithoutPath(_ value: ArchiveValue) -> Bool {
        if case .object(let object) = value, isProxyClass(object.className) { return true }
        return false
    }

    fileprivate static func isProxyClass(_ name: String) -> Bool {
        name.isExactly(RestorationKeys.proxyClass)
    }

    private static func proxyWithoutPath(path: String?, key: String, at place: String) -> Diagnostic {
        Diagnostic(.error, .proxyWithoutPath, path: path, key: key,
            "\(place) is an object reference (\(RestorationKeys.proxyClass)) without a string kObjectIdentifierPathProxyIdentifierPathKey: UIKit logs \"Couldn't decode restoration identifier path, returning nil\"")
    }

    /// A first responder is a saved object or a view of one. A view that wrote no state may
    /// have no entry of its own, so a path whose parent is a saved object or view is not reported.
    private static func checkFirstResponders(_ context: ValidationContext) -> [Diagnostic] {
        guard case .array(let paths)? = context.archive.appState[RestorationKeys.firstResponders] else { return [] }
        // Views of an object whose state cannot be decoded are unknown; that object is reported already.
        let undecodable = UndecodableObjects(context.archive)
        func isKnown(_ path: String) -> Bool { context.saved.contains(path) || context.viewPaths.contains(path) }
        return paths.compactMap(\.stringValue).compactMap { path in
            guard !isKnown(path), IdentifierPath(path).parent.map({ isKnown($0.rawValue) }) != true else { return nil }
            guard !undecodable.containsAncestor(of: path) else { return nil }
            return Diagnostic(.warning, .firstResponderUnknownPath, path: path, key: RestorationKeys.firstResponders,
                "the first responder path names neither a saved object or view nor a view of a saved object: UIKit cannot make it first responder again")
        }
    }
}

/// The references in one value and everything inside it, each reported once: a walk of every
/// value of every saved object, so it reads the tree directly and allocates only for findings.
private struct ReferenceScan {
    enum Finding {
        case proxyWithoutPath
        case dangling(String)
    }

    let saved: ExactTextSet
    private(set) var findings: [Finding] = []
    private var sawProxy = false
    private var reported = ExactTextSet()

    init(saved: ExactTextSet) {
        self.saved = saved
    }

    mutating func visit(_ value: ArchiveValue) {
        switch value {
        case .null, .string, .integer, .real, .float, .boolean, .date, .data, .uuid, .cycle:
            break
        case .reference(let target):
            if !saved.contains(target), reported.insert(target) {
                findings.append(.dangling(target))
            }
        case .array(let elements), .set(let elements), .orderedSet(let elements):
            for element in elements { visit(element) }
        case .dictionary(let dictionary):
            for entry in dictionary.entries {
                visit(entry.key)
                visit(entry.value)
            }
        case .object(let object):
            if ReferenceRules.isProxyClass(object.className) {
                if !sawProxy {
                    sawProxy = true
                    findings.append(.proxyWithoutPath)
                }
            }
            for field in object.fields.values { visit(field) }
        case .archive(let archive):
            for field in archive.top.values { visit(field) }
        case .url(let url):
            visit(url.base)
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
        let undecodable = archive.objects.filter { $0.state == nil && $0.undecodedEntry != nil }.map(\.identifierPath.rawValue)
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
