/// Builds the file a `dump --json` document describes (docs/json.md): the inverse of `dump
/// --json`, so that a saved state can be edited with jq and written back.
///
/// A restoration archive is written as UIKit writes one: a keyed archive whose `$top` holds the
/// metadata, `kRootRestorationIdentifiersKey`, the class map, one keyed archive per object
/// (its views' archives under `kViewRestorationDataKey`) and the app's own keys. A generic keyed
/// archive is written from its `$top`; a scene's user activity, the known scene sessions and any
/// other plain property list as the plain property list they are.
public struct ArchiveBuilder: Sendable {
    public var limits: DecodingLimits

    public init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    /// The file `json` describes, in the binary property-list format or Apple's XML one (the
    /// outer file: nested archives are binary, as UIKit writes them).
    public func build(json: [UInt8], format: PropertyListFormat = .binary) throws(BuildError) -> BuiltArchive {
        guard json.count <= limits.maxInputBytes else {
            throw BuildError(DecodingLimit.inputSize.exceeded(limits.maxInputBytes))
        }
        // A tagged value takes a level of JSON more than the value it stands for.
        let input = try JSONInput(json, maxDepth: 2 * limits.maxDepth + 8, maxValues: limits.maxNodes)
        var document = DocumentReading(reader: DumpDocumentReader(input, limits: limits))
        let (root, plain, kind) = try document.read()
        let tape = ArchiveTape(document.reader.builder, root: root, isPlainPropertyList: plain)
        guard let bytes = tape.withView({ KeyedArchiveWriter.write(root, plain: plain, format: format, in: $0) }) else {
            throw BuildError("the archive holds a date outside the years 1 to 9999, which the XML format cannot spell: write it in the binary format")
        }
        var warnings = document.reader.warnings
        if document.reader.unshownWarnings > 0 { warnings.append("and \(document.reader.unshownWarnings) more repeated keys") }
        // The model of what was written is read from the tape it was written from, which holds
        // what decoding the file gives (the tests read the files back to hold it to that).
        let archive = kind == .restorationArchive ? RestorationArchive(tape: tape, limits: limits, interpret: true) : nil
        return BuiltArchive(bytes: bytes, kind: kind, warnings: warnings, archive: archive)
    }
}

/// A file `ArchiveBuilder` wrote.
public struct BuiltArchive: Sendable {
    /// The file: a property list in the format asked for.
    public let bytes: [UInt8]
    /// What it is, as the document said.
    public let kind: SavedStateKind
    /// What the document did that was written as it is but may not be what was meant (a
    /// repeated key), each with its path: the first 20, then how many more.
    public let warnings: [String]
    /// For a restoration archive, what reading the file gives (for `validate`'s findings).
    public let archive: RestorationArchive?
}

/// The document's own members, read into the file's values.
private struct DocumentReading {
    var reader: DumpDocumentReader

    /// The file's root node, whether it is a plain property list, and its kind.
    mutating func read() throws(BuildError) -> (TapeNode, Bool, SavedStateKind) {
        let root = reader.input.root
        switch reader.input.value(root).kind {
        case .object: break
        case .array: throw reader.failure(root, "a document of several files (dump --json of more than one): build them one at a time (jq '.[0]')")
        default: throw reader.failure(root, "expected a dump --json document, an object")
        }
        if let version = reader.input.member("schemaVersion", of: root), reader.input.value(version.value).kind != .number || reader.input.text(version.value) != "1" {
            throw reader.failure(version.value, "this build reads schema version 1")
        }
        let kindName = try string("kind", of: root)
        switch kindName {
        case "restorationArchive":
            return (try restorationArchive(), false, .restorationArchive)
        case "keyedArchive":
            return (try fields(member("appState", of: root, .object), as: .archive), false, .keyedArchive)
        case "sceneActivity", "knownSceneSessions", "propertyList":
            let kind: SavedStateKind = kindName == "sceneActivity" ? .sceneActivity : kindName == "knownSceneSessions" ? .knownSceneSessions : .propertyList
            return (try plainRoot(), true, kind)
        case "macWindowList", "macWindowRecords", "macWindowSnapshot":
            throw reader.failure(reader.input.member("kind", of: root)!.value, "building macOS window state (\(kindName)) is not supported yet: its records are encrypted with keys from windows.plist")
        default:
            throw reader.failure(reader.input.member("kind", of: root)!.value, "\(String(reflecting: kindName)) is no kind dump writes")
        }
    }

    /// Member `key` of object `index`, of JSON kind `kind` (or null when `nullable`).
    func member(_ key: String, of index: Int, _ kind: JSONInput.Kind, nullable: Bool = false) throws(BuildError) -> Int? {
        guard let member = reader.input.member(key, of: index) else { throw reader.failure(index, "the document has no \(key)") }
        let found = reader.input.value(member.value).kind
        if found == .null, nullable { return nil }
        guard found == kind else { throw reader.failure(member.value, "expected \(kind == .object ? "an object" : kind == .array ? "an array" : "a \(kind)")\(nullable ? " or null" : "")") }
        return member.value
    }

    func member(_ key: String, of index: Int, _ kind: JSONInput.Kind) throws(BuildError) -> Int {
        try member(key, of: index, kind, nullable: false)!
    }

    func string(_ key: String, of index: Int) throws(BuildError) -> String {
        reader.input.text(try member(key, of: index, .string))
    }

    /// The members of object `index` as named fields: an archive's `$top`.
    mutating func fields(_ index: Int, as kind: TapeKind) throws(BuildError) -> TapeNode {
        let mark = reader.builder.stack.count
        try pushFields(of: index)
        return popFields(from: mark, as: kind)
    }

    mutating func pushFields(of index: Int, skipping skipped: String? = nil) throws(BuildError) {
        for member in reader.input.members(of: index) where skipped.map({ !reader.input.keyIs(member, $0) }) ?? true {
            let key = reader.keyNode(member)
            reader.builder.stack.append(key)
            let node = try reader.value(member.value)
            reader.builder.stack.append(node)
        }
    }

    mutating func push(_ key: String) {
        let node = reader.builder.text(.string, key)
        reader.builder.stack.append(node)
    }

    mutating func popFields(from mark: Int, as kind: TapeKind) -> TapeNode {
        let count = (reader.builder.stack.count - mark) / 2
        return TapeNode(kind, count: count, payload: UInt64(reader.builder.popPairs(from: mark)))
    }

    /// A plain property list's root: `appState`, or what it holds under `(root)` when the root
    /// is not a dictionary.
    mutating func plainRoot() throws(BuildError) -> TapeNode {
        let appState = try member("appState", of: reader.input.root, .object)
        let members = reader.input.members(of: appState)
        if members.count == 1, reader.input.key(members.first!) == SavedStateReading.rootKey, reader.input.value(members.first!.value).kind != .object {
            return try reader.value(members.first!.value, plain: true)
        }
        return try reader.value(appState, plain: true)
    }

    /// A restoration archive's `$top`: the metadata, the objects' archives, the app's keys.
    mutating func restorationArchive() throws(BuildError) -> TapeNode {
        let root = reader.input.root
        let mark = reader.builder.stack.count
        let archive = try member("archive", of: root, .object)
        for (key, name) in [(RestorationKeys.majorVersion, "majorVersion"), (RestorationKeys.minorVersion, "minorVersion")] {
            guard let version = try member(name, of: archive, .number, nullable: true) else { continue }
            push(key)
            reader.builder.stack.append(try reader.value(version))
        }
        for (key, name) in [(RestorationKeys.bundleVersion, "bundleVersion"), (RestorationKeys.systemVersion, "systemVersion")] {
            guard let version = try member(name, of: root, .string, nullable: true) else { continue }
            push(key)
            reader.builder.stack.append(try reader.value(version))
        }
        if let timestamp = reader.input.member("timestamp", of: root), reader.input.value(timestamp.value).kind != .null {
            push(RestorationKeys.timestamp)
            // The bare ISO 8601 string is the date's; the tagged form is read as anywhere.
            let node = reader.input.value(timestamp.value).kind == .string ? try reader.date(timestamp.value) : try reader.value(timestamp.value)
            guard node.kind == .date else { throw reader.failure(timestamp.value, "expected a date") }
            reader.builder.stack.append(node)
        }
        if let idiom = try member("userInterfaceIdiom", of: root, .object, nullable: true) {
            push(RestorationKeys.userInterfaceIdiom)
            reader.builder.stack.append(try reader.value(try member("raw", of: idiom, .number)))
        }
        let paths = try member("identifierPaths", of: root, .array)
        push(RestorationKeys.identifierPaths)
        reader.builder.stack.append(try reader.value(paths))
        let classMap = try member("restorationClassMap", of: root, .object)
        if reader.input.value(classMap).count > 0 {
            push(RestorationKeys.classMap)
            reader.builder.stack.append(try reader.value(classMap))
        }
        for object in reader.input.members(of: try member("objects", of: root, .array)) {
            try savedObject(object.value)
        }
        try pushFields(of: try member("appState", of: root, .object))
        return popFields(from: mark, as: .archive)
    }

    /// One entry of `objects`: its archive under its identifier path (its state's keys, its
    /// views' archives under `kViewRestorationDataKey` with the entries there that are no
    /// view's), its entry as it was when it is not an archive, nothing when it had none.
    mutating func savedObject(_ index: Int) throws(BuildError) {
        guard reader.input.value(index).kind == .object else { throw reader.failure(index, "expected an object of the archive") }
        let path = try string("identifierPath", of: index)
        guard let state = try member("state", of: index, .object, nullable: true) else {
            guard let entry = reader.input.member("entry", of: index) else { return }
            push(path)
            reader.builder.stack.append(try reader.value(entry.value))
            return
        }
        let views = reader.input.member("views", of: index).map(\.value)
        if let views, reader.input.value(views).kind != .object { throw reader.failure(views, "expected an object of view paths") }
        push(path)
        let mark = reader.builder.stack.count
        let viewKey = RestorationKeys.viewRestorationData
        try reader.checkArchiveDepth(2, at: state)
        (reader.baseDepth, reader.archiveDepth) = (2, 2)
        defer { (reader.baseDepth, reader.archiveDepth) = (1, 1) }
        guard let views, reader.input.value(views).count > 0 else {
            try pushFields(of: state)
            return reader.builder.stack.append(popFields(from: mark, as: .archive))
        }
        try pushFields(of: state, skipping: viewKey)
        push(viewKey)
        let dictionaryMark = reader.builder.stack.count
        for view in reader.input.members(of: views) {
            push(reader.input.key(view))
            guard reader.input.value(view.value).kind == .object else { throw reader.failure(view.value, "expected the view's state, an object") }
            try reader.checkArchiveDepth(3, at: view.value)
            (reader.baseDepth, reader.archiveDepth) = (4, 3)
            let archive = try fields(view.value, as: .archive)
            (reader.baseDepth, reader.archiveDepth) = (2, 2)
            reader.builder.stack.append(archive)
        }
        // Entries of the view data that are no view's archive stay in the state; a second
        // `kViewRestorationDataKey` (a damaged archive repeats it) is shown there whole, and
        // one that holds an archive can only be that.
        var repeated: TapeNode?
        if let leftover = reader.input.member(viewKey, of: state) {
            let dictionary = try reader.value(leftover.value)
            let nodes = reader.builder.nodes
            if dictionary.kind == .dictionary, !(0..<dictionary.memberCount).contains(where: { nodes[dictionary.first + dictionary.memberCount + $0].kind == .archive }) {
                for position in 0..<dictionary.memberCount {
                    reader.builder.stack.append(nodes[dictionary.first + position])
                    reader.builder.stack.append(nodes[dictionary.first + dictionary.memberCount + position])
                }
            } else {
                repeated = dictionary
            }
        }
        reader.builder.stack.append(popFields(from: dictionaryMark, as: .dictionary))
        if let repeated {
            push(viewKey)
            reader.builder.stack.append(repeated)
        }
        reader.builder.stack.append(popFields(from: mark, as: .archive))
    }
}
