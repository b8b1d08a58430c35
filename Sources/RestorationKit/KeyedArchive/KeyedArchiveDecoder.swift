/// Decodes NSKeyedArchiver archives into `KeyedArchive` trees, nested archives included.
///
/// Every UID is checked against `$objects`; each object is decoded once and shared after that;
/// a reference back to an object still being decoded becomes `.cycle`; depth, the number of
/// values (a shared value counts once per reference) and archive nesting are bounded by `limits`.
public struct KeyedArchiveDecoder: Sendable {
    public var limits: DecodingLimits

    public init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    /// Reads `bytes` as a property list (binary or XML) and decodes it.
    ///
    /// Runs on a thread of its own whose stack fits the nesting `limits` allow (see `DeepStack`).
    public func decode(_ bytes: ArraySlice<UInt8>) throws(ArchiveError) -> KeyedArchive {
        try DeepStack.run(stackSize: DeepStack.stackSize(for: limits)) { () throws(ArchiveError) -> KeyedArchive in
            let session = DecodingSession(limits: limits)
            let plist: PropertyListValue
            do throws(PropertyListError) {
                plist = try session.reader.read(bytes)
            } catch {
                throw ArchiveError(error)
            }
            return try ArchiveGraphDecoder(session: session, archiveDepth: 0, baseDepth: 0).decodeArchive(plist)
        }
    }

    public func decode(_ bytes: [UInt8]) throws(ArchiveError) -> KeyedArchive {
        try decode(bytes[...])
    }

    /// Decodes a property list already read.
    public func decode(propertyList: PropertyListValue) throws(ArchiveError) -> KeyedArchive {
        try DeepStack.run(stackSize: DeepStack.stackSize(for: limits)) { () throws(ArchiveError) -> KeyedArchive in
            let session = DecodingSession(limits: limits)
            return try ArchiveGraphDecoder(session: session, archiveDepth: 0, baseDepth: 0).decodeArchive(propertyList)
        }
    }

    /// Whether a property list is an NSKeyedArchiver archive (by its `$archiver`).
    public static func isKeyedArchive(_ plist: PropertyListValue) -> Bool {
        plist.dictionaryValue?["$archiver"] == .string("NSKeyedArchiver")
    }
}

/// What one file's decoding shares across its nested archives.
private final class DecodingSession {
    let limits: DecodingLimits
    let reader: PropertyListReader
    /// Values produced so far, a shared value counting once per reference.
    var nodes = 0
    /// Bytes of nested archives parsed so far, all levels together.
    var nestedBytes = 0
    /// `$top` keys and fields from the outer archive down to the value being decoded.
    var location: [String] = []

    init(limits: DecodingLimits) {
        self.limits = limits
        self.reader = PropertyListReader(limits: limits)
    }

    func consume(_ count: Int) throws(ArchiveError) {
        nodes += count
        guard nodes <= limits.maxNodes else {
            throw error(.limitExceeded, "archive expands to more than the limit of \(limits.maxNodes) values (shared objects count once per reference)")
        }
    }

    func error(_ kind: ArchiveError.Kind, _ reason: String, at offset: Int? = nil) -> ArchiveError {
        ArchiveError(kind, reason, at: offset, location: location)
    }
}

/// Decodes one archive's `$objects` graph.
private final class ArchiveGraphDecoder {
    let session: DecodingSession
    let archiveDepth: Int
    let baseDepth: Int
    var objects: [PropertyListValue] = []
    var decoded: [ArchiveValue?] = []
    var expandedSize: [Int] = []
    var inProgress: [Bool] = []
    var classes: [Int: (name: String, chain: [String])] = [:]

    init(session: DecodingSession, archiveDepth: Int, baseDepth: Int) {
        self.session = session
        self.archiveDepth = archiveDepth
        self.baseDepth = baseDepth
    }

    func decodeArchive(_ plist: PropertyListValue) throws(ArchiveError) -> KeyedArchive {
        guard case .dictionary(let root) = plist else {
            throw session.error(.notKeyedArchive, "not a keyed archive: a property list whose root is \(article(plist.typeName)), not a dictionary")
        }
        guard let archiver = root["$archiver"] else {
            throw session.error(.notKeyedArchive, "not a keyed archive: a plain property list (its root dictionary has no $archiver key)")
        }
        guard archiver == .string("NSKeyedArchiver") else {
            let shown = archiver.stringValue.map { "'\($0)'" } ?? article(archiver.typeName)
            throw session.error(.notKeyedArchive, "not a keyed archive: $archiver is \(shown), not 'NSKeyedArchiver'")
        }
        guard case .dictionary(let top) = root["$top"] else {
            throw session.error(.notKeyedArchive, "not a keyed archive: $top is \(describe(root["$top"])), not a dictionary")
        }
        guard case .array(let objects) = root["$objects"] else {
            throw session.error(.notKeyedArchive, "not a keyed archive: $objects is \(describe(root["$objects"])), not an array")
        }
        self.objects = objects
        decoded = Array(repeating: nil, count: objects.count)
        expandedSize = Array(repeating: 0, count: objects.count)
        inProgress = Array(repeating: false, count: objects.count)

        var keys: [String] = []
        var values: [ArchiveValue] = []
        keys.reserveCapacity(top.count)
        values.reserveCapacity(top.count)
        for (key, value) in top.entries {
            session.location.append(key)
            keys.append(key)
            values.append(try field(value, depth: baseDepth + 1))
            session.location.removeLast()
        }
        return KeyedArchive(top: ArchiveFields(keys: keys, values: values), version: root["$version"])
    }

    // MARK: Values stored in place ($top, fields, arrays)

    private func field(_ value: PropertyListValue, depth: Int) throws(ArchiveError) -> ArchiveValue {
        guard depth <= session.limits.maxDepth else {
            throw session.error(.limitExceeded, "values nest deeper than the limit of \(levels(session.limits.maxDepth))")
        }
        switch value {
        case .uid(let uid):
            return try reference(uid, depth: depth)
        case .array(let elements):
            try session.consume(1)
            var result: [ArchiveValue] = []
            result.reserveCapacity(elements.count)
            for element in elements {
                result.append(try field(element, depth: depth + 1))
            }
            return .array(result)
        case .dictionary(let dictionary):
            try session.consume(1)
            var entries: [ArchiveDictionary.Entry] = []
            entries.reserveCapacity(dictionary.count)
            for (key, element) in dictionary.entries {
                entries.append(.init(key: .string(key), value: try field(element, depth: depth + 1)))
            }
            return .dictionary(ArchiveDictionary(entries: entries))
        case .data(let bytes):
            return try data(bytes, depth: depth)
        case .string(let string):
            try session.consume(1)
            return .string(string)
        case .integer(let integer):
            try session.consume(1)
            return .integer(integer)
        case .real(let real):
            try session.consume(1)
            return .real(real)
        case .boolean(let boolean):
            try session.consume(1)
            return .boolean(boolean)
        case .date(let date):
            try session.consume(1)
            return .date(date)
        }
    }

    // MARK: Objects in $objects

    private func reference(_ uid: UInt64, depth: Int) throws(ArchiveError) -> ArchiveValue {
        guard uid < UInt64(objects.count) else {
            throw session.error(.malformed, "UID \(uid) is out of range: $objects has \(objects.count) \(objects.count == 1 ? "entry" : "entries")")
        }
        let index = Int(uid)
        if let value = decoded[index] {
            try session.consume(expandedSize[index])
            return value
        }
        if inProgress[index] {
            try session.consume(1)
            return .cycle(uid)
        }
        inProgress[index] = true
        let before = session.nodes
        let value = try object(at: index, depth: depth)
        inProgress[index] = false
        decoded[index] = value
        expandedSize[index] = session.nodes - before
        return value
    }

    private func object(at index: Int, depth: Int) throws(ArchiveError) -> ArchiveValue {
        let plist = objects[index]
        if index == 0, plist == .string("$null") {
            try session.consume(1)
            return .null
        }
        guard case .dictionary(let dictionary) = plist, let classReference = dictionary["$class"] else {
            return try field(plist, depth: depth)
        }
        guard case .uid(let classUID) = classReference else {
            throw session.error(.malformed, "object \(index) has a $class that is \(article(classReference.typeName)), not a UID")
        }
        let (className, chain) = try classInfo(classUID, of: index)
        try session.consume(1)
        var keys: [String] = []
        var values: [ArchiveValue] = []
        keys.reserveCapacity(dictionary.count - 1)
        values.reserveCapacity(dictionary.count - 1)
        for (key, value) in dictionary.entries where key != "$class" {
            session.location.append(key)
            keys.append(key)
            values.append(try field(value, depth: depth + 1))
            session.location.removeLast()
        }
        let fields = ArchiveFields(keys: keys, values: values)
        return FoundationValues.naturalValue(className: className, fields: fields)
            ?? .object(ArchiveObject(className: className, classChain: chain, fields: fields))
    }

    private func classInfo(_ uid: UInt64, of index: Int) throws(ArchiveError) -> (String, [String]) {
        guard uid < UInt64(objects.count) else {
            throw session.error(.malformed, "object \(index) has $class UID \(uid), out of range: $objects has \(objects.count) entries")
        }
        if let known = classes[Int(uid)] {
            return known
        }
        guard case .dictionary(let description) = objects[Int(uid)],
              case .string(let name)? = description["$classname"]
        else {
            throw session.error(.malformed, "the $class of object \(index) (UID \(uid)) is \(article(objects[Int(uid)].typeName)) without a $classname, not a class dictionary")
        }
        let chain = description["$classes"]?.arrayValue?.compactMap(\.stringValue) ?? [name]
        classes[Int(uid)] = (name, chain)
        return (name, chain)
    }

    // MARK: Data and nested archives

    private func data(_ bytes: ArraySlice<UInt8>, depth: Int) throws(ArchiveError) -> ArchiveValue {
        try session.consume(1)
        guard (try? PropertyListReader.format(of: bytes)) != nil else {
            return .data(ArchiveData(bytes: bytes))
        }
        session.nestedBytes += bytes.count
        guard session.nestedBytes <= session.limits.maxNestedArchiveBytes else {
            throw session.error(.limitExceeded, "nested archives add up to more than the limit of \(session.limits.maxNestedArchiveBytes) bytes", at: bytes.startIndex)
        }
        let plist: PropertyListValue
        do {
            plist = try session.reader.read(bytes)
        } catch {
            if error.exceedsLimit { throw ArchiveError(error, location: session.location) }
            return .data(ArchiveData(bytes: bytes, archiveError: error.description))
        }
        // A property list that is not a keyed archive is an app's own data: keep its bytes.
        guard KeyedArchiveDecoder.isKeyedArchive(plist) else {
            return .data(ArchiveData(bytes: bytes))
        }
        guard archiveDepth + 1 < session.limits.maxArchiveDepth else {
            throw session.error(.limitExceeded, "keyed archives nest deeper than the limit of \(levels(session.limits.maxArchiveDepth))", at: bytes.startIndex)
        }
        do {
            let nested = ArchiveGraphDecoder(session: session, archiveDepth: archiveDepth + 1, baseDepth: depth)
            return .archive(try nested.decodeArchive(plist))
        } catch {
            if error.kind == .limitExceeded { throw error }
            return .data(ArchiveData(bytes: bytes, archiveError: error.reason))
        }
    }
}

private func article(_ noun: String) -> String {
    let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
    return (noun.first.map(vowels.contains) ?? false ? "an " : "a ") + noun
}

private func describe(_ value: PropertyListValue?) -> String {
    value.map { article($0.typeName) } ?? "missing"
}
