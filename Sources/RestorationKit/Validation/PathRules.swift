/// Identifier paths, entries and the class map.
enum PathRules {
    /// Keys UIKit writes into every view controller's archive: an entry whose archive has one of
    /// them is a saved object, whatever its key looks like.
    static let objectKeys = ExactTextSet([
        "kObjectIsViewControllerKey", "kViewControllerViewWasLoadedKey", RestorationKeys.viewRestorationData,
        "UIStateRestorationViewControllerStoryboard", "UIStateRestorationViewControllerStoryboardIdentifier",
    ])

    /// The findings about one saved object, its state and views on a tape (see `TapeObject`).
    static func check(_ object: RestorationObject, _ onTape: TapeObject, in view: TapeView, _ context: ValidationContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let path = object.identifierPath
        if let count = context.repeatedPaths[path] {
            diagnostics.append(Diagnostic(.error, .duplicatePath, path: path, key: RestorationKeys.identifierPaths,
                "listed \(count) times in \(RestorationKeys.identifierPaths); paths must be unique, and UIKit restores the object once"))
        }
        let problem = malformation(path)
        if let problem {
            diagnostics.append(Diagnostic(.error, .malformedPath, path: path, key: RestorationKeys.identifierPaths,
                "malformed identifier path: \(problem)"))
        }
        // A malformed path has no meaningful parent: only well-formed ones can be orphans.
        if problem == nil, let parent = path.parent, !context.saved.contains(parent.rawValue) {
            diagnostics.append(Diagnostic(.warning, .orphanPath, path: path,
                "its parent path \(parent.rawValue) has no saved object, so UIKit has no container to restore it into"))
        }
        if onTape.state == nil && object.undecodedEntry == nil {
            diagnostics.append(Diagnostic(.error, .missingObject, path: path, key: RestorationKeys.identifierPaths,
                "listed in \(RestorationKeys.identifierPaths), but the archive has no entry for it: UIKit cannot restore it"))
        } else if onTape.state == nil, let problem = object.stateProblem {
            diagnostics.append(Diagnostic(.error, .undecodableState, path: path,
                "\(problem): UIKit cannot decode its state"))
        }
        diagnostics += undecodableViews(of: object, onTape, view)
        return diagnostics
    }

    /// The findings about the archive's own keys: entries nobody listed, the class map.
    static func checkArchive(_ context: ValidationContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let archive = context.archive

        for (key, value) in archive.appState.entries {
            // A listed path among the other keys is a repeated entry (repeated-top-key).
            guard let nested = value.archiveValue, !context.listed.contains(key) else { continue }
            let looksLikeObject = nested.top.keys.contains(where: objectKeys.contains)
                || IdentifierPath(key).parent.map { context.listed.contains($0.rawValue) } == true
            if looksLikeObject {
                diagnostics.append(Diagnostic(.warning, .unlistedObject, path: IdentifierPath(key),
                    "the archive holds this object's state, but the path is not listed in \(RestorationKeys.identifierPaths): UIKit will not restore it"))
            }
        }

        for (path, className) in archive.restorationClassMap.entries {
            if className.isEmpty {
                diagnostics.append(Diagnostic(.error, .classMapUnknownPath, path: IdentifierPath(path), key: RestorationKeys.classMap,
                    "the restoration class map gives an empty class name: UIKit cannot find a restoration class to recreate the object"))
            }
            if !context.saved.contains(path) {
                diagnostics.append(Diagnostic(.warning, .classMapUnknownPath, path: IdentifierPath(path), key: RestorationKeys.classMap,
                    "the restoration class map names this path, but no object was saved under it"))
            }
        }
        return diagnostics
    }

    /// Why a path is malformed, or nil.
    static func malformation(_ path: IdentifierPath) -> String? {
        if path.rawValue.isEmpty { return "it is empty" }
        var text = path.rawValue
        if let answer = text.withUTF8(asciiMalformation) { return answer }
        return componentMalformation(path)
    }

    /// `malformation` of any non-empty path, from its parsed components.
    static func componentMalformation(_ path: IdentifierPath) -> String? {
        let components = path.components
        if path.rawComponents.contains("") { return "it has an empty component" }
        for component in components {
            if case .malformedIndex(let text) = component {
                return "'\(text)' is not an index component of the form :[n]:"
            }
        }
        if case .index? = components.first { return "it starts with an index component" }
        if case .index? = components.last { return "it ends in an index component" }
        for (first, second) in zip(components, components.dropFirst()) {
            if case .index = first, case .index = second { return "two index components follow each other" }
        }
        return nil
    }

    /// `malformation` of an ASCII path, read from its bytes without splitting it into strings
    /// (the validator asks for every saved object); nil for a path that is not ASCII, whose
    /// components `IdentifierPath.parse` compares as Characters.
    private static func asciiMalformation(_ bytes: UnsafeBufferPointer<UInt8>) -> String?? {
        let slash = UInt8(ascii: "/")
        var previous: UInt8 = slash
        for byte in bytes {
            guard byte < 0x80 else { return nil }
            if byte == slash, previous == slash { return "it has an empty component" }
            previous = byte
        }
        if previous == slash { return "it has an empty component" }
        var shapes: (first: IdentifierPath.Shape?, last: IdentifierPath.Shape?, indexFollowsIndex: Bool) = (nil, nil, false)
        var start = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: slash) ?? bytes.count
            let component = UnsafeBufferPointer(rebasing: bytes[start..<end])
            let shape = IdentifierPath.shape(ofASCII: component)
            if shape == .malformedIndex {
                return "'\(String(decoding: component, as: UTF8.self))' is not an index component of the form :[n]:"
            }
            if shape == .index, shapes.last == .index { shapes.indexFollowsIndex = true }
            if shapes.first == nil { shapes.first = shape }
            shapes.last = shape
            start = end + 1
        }
        if shapes.first == .index { return "it starts with an index component" }
        if shapes.last == .index { return "it ends in an index component" }
        if shapes.indexFollowsIndex { return "two index components follow each other" }
        return .some(nil)
    }

    /// View entries left under `kViewRestorationDataKey` because they are not view archives
    /// (the views of a repeated key, which stays in the state, are not reported).
    private static func undecodableViews(of object: RestorationObject, _ onTape: TapeObject, _ view: TapeView) -> [Diagnostic] {
        let dictionary: TapeNode, positions: [Int]
        switch onTape.state?.value(forKey: RestorationKeys.viewRestorationDataKey, in: view) {
        case .entries(let leftovers, let kept)?: (dictionary, positions) = (leftovers, kept)
        case .node(let node)? where node.kind == .dictionary: (dictionary, positions) = (node, Array(0..<node.memberCount))
        default: return []
        }
        return positions.compactMap { position in
            let (key, value) = (view.member(position, of: dictionary), view.value(position, of: dictionary))
            if key.kind == .string, value.kind == .archive { return nil }
            let problem: String
            if value.kind == .data {
                problem = view.dataError(value).map { "its data failed to decode as a keyed archive: \($0)" }
                    ?? "its entry is \(value.memberCount) bytes of data that are not a keyed archive"
            } else {
                problem = "its entry is \(view.kindDescription(value)), not a keyed archive"
            }
            return Diagnostic(.error, .undecodableState, path: key.kind == .string ? IdentifierPath(view.string(of: key)) : object.identifierPath,
                key: RestorationKeys.viewRestorationData, "view state of \(object.identifierPath.rawValue): \(problem): UIKit cannot decode it")
        }
    }
}
