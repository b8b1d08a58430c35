/// Decodes NSKeyedArchiver archives into `KeyedArchive` trees, nested archives included.
///
/// Every UID is checked against `$objects`; each object is decoded once and shared after that;
/// a reference back to an object still being decoded becomes `.cycle`; depth, the number of
/// values (a shared value counts once per reference) and archive nesting are bounded by `limits`.
///
/// A binary archive is decoded straight from its bytes (see `PropertyListObjectTable`); only the
/// objects the archive reaches from `$top` are read.
public struct KeyedArchiveDecoder: Sendable {
    public var limits: DecodingLimits
    /// Whether a large archive's nested archives may be decoded on several threads (the result is
    /// the same either way; tests compare the two).
    var allowsConcurrency = true
    /// Whether the outer archive's data values stay bytes, nested archives included (the dump's
    /// streaming road renders those itself; see `StreamedDump`).
    var leavesOuterDataUndecoded = false

    public init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    /// Reads `bytes` as a property list (binary or XML) and decodes it.
    ///
    /// Runs on a thread of its own whose stack fits the nesting `limits` allow (see `DeepStack`).
    public func decode(_ bytes: ArraySlice<UInt8>) throws(ArchiveError) -> KeyedArchive {
        try DeepStack.run(stackSize: DeepStack.stackSize(for: limits)) { () throws(ArchiveError) -> KeyedArchive in
            try DecodingSession(limits: limits, allowsConcurrency: allowsConcurrency).decodeFile(bytes)
        }
    }

    public func decode(_ bytes: [UInt8]) throws(ArchiveError) -> KeyedArchive {
        try decode(bytes[...])
    }

    /// Decodes `bytes` and says how many values and bytes of text and data decoding counted.
    func decodeCounting(_ bytes: ArraySlice<UInt8>) throws(ArchiveError) -> (archive: KeyedArchive, nodes: Int, bytes: Int) {
        try DeepStack.run(stackSize: DeepStack.stackSize(for: limits)) { () throws(ArchiveError) -> (archive: KeyedArchive, nodes: Int, bytes: Int) in
            let session = DecodingSession(limits: limits, allowsConcurrency: allowsConcurrency)
            session.leavesOuterDataUndecoded = leavesOuterDataUndecoded
            let archive = try session.decodeFile(bytes)
            return (archive, session.nodes, session.bytes)
        }
    }

    /// Decodes one entry of an outer archive's `$top` (a saved object's archive) alone, as the
    /// outer archive's decoding would; limits are counted for the entry alone.
    func decodeEntry(_ bytes: ArraySlice<UInt8>) throws(ArchiveError) -> ArchiveValue {
        try DeepStack.run(stackSize: DeepStack.stackSize(for: limits)) { () throws(ArchiveError) -> ArchiveValue in
            let session = DecodingSession(limits: limits, allowsConcurrency: false)
            return try NestedArchiveReader(session: session, archiveDepth: 0).value(of: bytes, depth: 1)
        }
    }

    /// Decodes a property list already read.
    public func decode(propertyList: PropertyListValue) throws(ArchiveError) -> KeyedArchive {
        try DeepStack.run(stackSize: DeepStack.stackSize(for: limits)) { () throws(ArchiveError) -> KeyedArchive in
            try DecodingSession(limits: limits, allowsConcurrency: allowsConcurrency).decodeRoot(FlatPropertyList(propertyList))
        }
    }

    /// Whether a property list is an NSKeyedArchiver archive (by its `$archiver`).
    public static func isKeyedArchive(_ plist: PropertyListValue) -> Bool {
        plist.dictionaryValue?["$archiver"] == .string("NSKeyedArchiver")
    }
}

/// What one file's decoding shares across its nested archives.
final class DecodingSession {
    let limits: DecodingLimits
    let allowsConcurrency: Bool
    /// See `KeyedArchiveDecoder.leavesOuterDataUndecoded`.
    var leavesOuterDataUndecoded = false
    /// Values produced so far, a shared value counting once per reference.
    var nodes = 0
    /// Bytes of strings and data produced so far (keys and class names included), counted as
    /// `nodes` are.
    var bytes = 0
    /// Bytes of nested archives parsed so far, all levels together.
    var nestedBytes = 0
    /// `$top` keys and fields from the outer archive down to the value being decoded.
    var location: [String] = []

    init(limits: DecodingLimits, allowsConcurrency: Bool) {
        self.limits = limits
        self.allowsConcurrency = allowsConcurrency
    }

    func consume(_ count: Int) throws(ArchiveError) {
        nodes += count
        guard nodes <= limits.maxNodes else {
            throw error(.limitExceeded, "archive expands to more than the limit of \(limits.maxNodes) values (shared objects count once per reference)")
        }
    }

    /// Counts `count` bytes of text or data, as written (see `TextEscaping.writtenSize`), about
    /// to be part of the decoded archive.
    func consumeBytes(_ count: Int) throws(ArchiveError) {
        bytes += count
        guard bytes <= limits.maxExpandedBytes else {
            throw error(.limitExceeded, "archive's strings and data add up to more than the limit of \(limits.maxExpandedBytes) bytes as written, escaped (shared ones count once per reference)")
        }
    }

    func consumeText(_ text: String) throws(ArchiveError) {
        try consumeBytes(TextEscaping.writtenSize(text))
    }

    func consumeData(_ count: Int) throws(ArchiveError) {
        try consumeBytes(TextEscaping.writtenSize(ofData: count))
    }

    func error(_ kind: ArchiveError.Kind, _ reason: String, at offset: Int? = nil) -> ArchiveError {
        ArchiveError(kind, reason, at: offset, location: location)
    }

    func error(_ error: PropertyListError) -> ArchiveError {
        ArchiveError(error, location: location)
    }

    /// Decodes a whole file: a binary or XML property list that must be a keyed archive.
    func decodeFile(_ bytes: ArraySlice<UInt8>) throws(ArchiveError) -> KeyedArchive {
        let format: PropertyListFormat
        do throws(PropertyListError) {
            format = try PropertyListReader.format(of: bytes)
        } catch {
            throw ArchiveError(error)
        }
        switch format {
        case .binary:
            return try BinaryPropertyList.withTable(bytes) { (table) throws(ArchiveError) in try decodeRoot(table) }
        case .xml:
            return try decodeRoot(FlatPropertyList(try readXML(bytes)))
        }
    }

    /// Decodes the archive whose root dictionary is `table`'s top object.
    func decodeRoot<Table: PropertyListObjectTable>(_ table: Table) throws(ArchiveError) -> KeyedArchive {
        do throws(ArchiveError) {
            return try ArchiveGraphDecoder(session: self, table: table, archiveDepth: 0, baseDepth: 0).decodeArchive()
        } catch where error.kind == .notKeyedArchive {
            // Not a keyed archive: a broken property list is reported as such first.
            try checkPropertyList(table)
            throw error
        }
    }

    /// Fails with the first problem of a property list that is not decoded as an archive.
    func checkPropertyList<Table: PropertyListObjectTable>(_ table: Table) throws(ArchiveError) {
        do throws(PropertyListError) {
            _ = try table.tree(limits: limits)
        } catch {
            throw self.error(error)
        }
    }

    func readXML(_ bytes: ArraySlice<UInt8>) throws(ArchiveError) -> PropertyListValue {
        do throws(PropertyListError) {
            return try XMLPropertyListReader(limits: limits).read(bytes)
        } catch {
            throw self.error(error)
        }
    }
}

/// Decodes one archive's `$objects` graph from a property-list table.
private final class ArchiveGraphDecoder<Table: PropertyListObjectTable> {
    let session: DecodingSession
    let table: Table
    let archiveDepth: Int
    let baseDepth: Int
    /// The `$objects` array: UID n is its member n.
    private var objects = PropertyListContainer(index: 0, count: 0, references: 0)
    /// One slot per `$objects` entry.
    private var slots: [Slot] = []
    /// Class descriptions met so far, by UID (an archive has a handful).
    private var classes: [(uid: Int, info: ClassInfo)] = []
    /// Dictionary keys decoded so far, by table index: keys are shared objects in a binary
    /// file. Only the first `keyCacheSize` indices are cached, so hostile counts allocate nothing.
    private var keys: [String?]
    private static var keyCacheSize: Int { 1 << 16 }
    /// Table indices of the arrays and dictionaries being decoded, to refuse a container that
    /// holds itself.
    private var openContainers = Set<Int>()
    /// Nested archives decoded ahead (see `prefetchNestedArchives`), by UID.
    private var prefetched: [Int: PrefetchedArchive] = [:]

    private struct Slot {
        var value: ArchiveValue?
        /// How many values, and bytes of strings and data, the decoded object expands to.
        var expandedSize = 0
        var expandedBytes = 0
        var inProgress = false
    }

    private struct ClassInfo {
        var name: String
        var chain: [String]
        var hints: [String]?
        var foundation: FoundationValues.Kind?
        /// The bytes of the names, which every object of the class shows.
        var nameBytes: Int
    }

    init(session: DecodingSession, table: Table, archiveDepth: Int, baseDepth: Int) {
        self.session = session
        self.table = table
        self.archiveDepth = archiveDepth
        self.baseDepth = baseDepth
        keys = Array(repeating: nil, count: min(table.objectCount, Self.keyCacheSize))
    }

    /// Checks the root dictionary and decodes `$top`.
    func decodeArchive() throws(ArchiveError) -> KeyedArchive {
        guard case .dictionary(let root) = try object(table.topObject) else {
            throw session.error(.notKeyedArchive, "not a keyed archive: a property list whose root is \(try describe(table.topObject)), not a dictionary")
        }
        guard let archiver = try member(named: "$archiver", of: root) else {
            throw session.error(.notKeyedArchive, "not a keyed archive: a plain property list (its root dictionary has no $archiver key)")
        }
        guard try string(archiver) == "NSKeyedArchiver" else {
            var shown = try describe(archiver)
            if let name = try string(archiver) { shown = "'\(name)'" }
            throw session.error(.notKeyedArchive, "not a keyed archive: $archiver is \(shown), not 'NSKeyedArchiver'")
        }
        let topIndex = try member(named: "$top", of: root)
        guard let topIndex, case .dictionary(let top) = try object(topIndex) else {
            throw session.error(.notKeyedArchive, "not a keyed archive: $top is \(try describe(topIndex)), not a dictionary")
        }
        let objectsIndex = try member(named: "$objects", of: root)
        guard let objectsIndex, case .array(let objects) = try object(objectsIndex) else {
            throw session.error(.notKeyedArchive, "not a keyed archive: $objects is \(try describe(objectsIndex)), not an array")
        }
        var version: PropertyListValue?
        if let versionIndex = try member(named: "$version", of: root) {
            // Always an integer in practice; anything else is kept whole.
            if case .scalar(let scalar) = try object(versionIndex) {
                version = scalar
            } else {
                do throws(PropertyListError) {
                    version = try table.tree(limits: session.limits, from: versionIndex)
                } catch {
                    throw session.error(error)
                }
            }
        }
        // Foundation refuses any other version ("Unknown archive version"), and so does this.
        guard version == .integer(KeyedArchive.archiverVersion) else {
            let found = version.map { value -> String in
                if case .integer(let number) = value { return "\(number)" }
                return "a \(value.typeName)"
            }
            throw session.error(.malformed, "unsupported keyed archive: $version is \(found ?? "missing"), not \(KeyedArchive.archiverVersion) (the only version NSKeyedArchiver writes and Foundation reads)")
        }
        // One slot per entry is allocated up front: bound the count by the values the archive
        // may make, or a small file of repeated references could ask for gigabytes.
        guard objects.count <= session.limits.maxNodes else {
            throw session.error(.limitExceeded, "$objects has \(objects.count) entries, more than the limit of \(session.limits.maxNodes) values", at: table.byteOffset(of: objectsIndex))
        }
        self.objects = objects
        slots = Array(repeating: Slot(), count: objects.count)
        prefetchNestedArchives(in: top)
        return KeyedArchive(top: try fields(of: top, depth: baseDepth + 1, skippingClass: false), version: version)
    }

    // MARK: Values stored in place ($top, fields, arrays)

    /// The string-keyed entries of a dictionary (`$top`, an object's fields), each value decoded.
    private func fields(of dictionary: PropertyListContainer, depth: Int, skippingClass: Bool) throws(ArchiveError) -> ArchiveFields {
        var names: [String] = []
        var values: [ArchiveValue] = []
        names.reserveCapacity(dictionary.count)
        values.reserveCapacity(dictionary.count)
        for position in 0..<dictionary.count {
            let name = try key(position, of: dictionary)
            if skippingClass, name == "$class" { continue }
            try session.consumeText(name)
            session.location.append(name)
            names.append(name)
            values.append(try field(try member(dictionary.count + position, of: dictionary), depth: depth))
            session.location.removeLast()
        }
        return ArchiveFields(keys: names, values: values)
    }

    private func field(_ index: Int, depth: Int) throws(ArchiveError) -> ArchiveValue {
        guard depth <= session.limits.maxDepth else {
            throw session.error(.limitExceeded, "values nest deeper than the limit of \(levels(session.limits.maxDepth))")
        }
        switch try object(index) {
        case .scalar(let value):
            return try scalar(value, depth: depth)
        case .array(let array):
            try session.consume(1)
            try open(array)
            defer { openContainers.remove(array.index) }
            var elements: [ArchiveValue] = []
            elements.reserveCapacity(array.count)
            for position in 0..<array.count {
                elements.append(try field(try member(position, of: array), depth: depth + 1))
            }
            return .array(elements)
        case .dictionary(let dictionary):
            try session.consume(1)
            try open(dictionary)
            defer { openContainers.remove(dictionary.index) }
            var entries: [ArchiveDictionary.Entry] = []
            entries.reserveCapacity(dictionary.count)
            for position in 0..<dictionary.count {
                let name = try key(position, of: dictionary)
                try session.consumeText(name)
                entries.append(.init(key: .string(name), value: try field(try member(dictionary.count + position, of: dictionary), depth: depth + 1)))
            }
            return .dictionary(ArchiveDictionary(entries: entries))
        }
    }

    private func scalar(_ value: PropertyListValue, depth: Int) throws(ArchiveError) -> ArchiveValue {
        switch value {
        case .uid(let uid):
            return try reference(uid, depth: depth)
        case .data(let bytes):
            return try data(bytes, depth: depth)
        case .string(let string):
            try session.consume(1)
            try session.consumeText(string)
            return .string(string)
        case .integer(let integer):
            try session.consume(1)
            return .integer(integer)
        case .real(let real):
            try session.consume(1)
            return .real(real)
        case .float(let float):
            try session.consume(1)
            return .float(float)
        case .boolean(let boolean):
            try session.consume(1)
            return .boolean(boolean)
        case .date(let date):
            try session.consume(1)
            return .date(date)
        case .array, .dictionary:
            // Tables hand containers over as `.array`/`.dictionary` objects, never as scalars.
            preconditionFailure("a property-list table returned a container as a scalar")
        }
    }

    /// Marks a container as being decoded; meeting it again inside itself is a cycle.
    private func open(_ container: PropertyListContainer) throws(ArchiveError) {
        guard openContainers.insert(container.index).inserted else {
            throw session.error(.unreadable, "reference cycle: object \(container.index) contains itself", at: table.byteOffset(of: container.index))
        }
    }

    // MARK: Objects in $objects

    private func reference(_ uid: UInt64, depth: Int) throws(ArchiveError) -> ArchiveValue {
        guard uid < UInt64(objects.count) else {
            throw session.error(.malformed, "UID \(uid) is out of range: $objects has \(objects.count) \(objects.count == 1 ? "entry" : "entries")")
        }
        let index = Int(uid)
        if let value = slots[index].value {
            try session.consume(slots[index].expandedSize)
            try session.consumeBytes(slots[index].expandedBytes)
            return value
        }
        if slots[index].inProgress {
            try session.consume(1)
            return .cycle(uid)
        }
        if !prefetched.isEmpty, depth == Self.topValueDepth, let ready = prefetched.removeValue(forKey: index),
           ready.nodes <= session.limits.maxNodes - session.nodes,
           ready.bytes <= session.limits.maxExpandedBytes - session.bytes,
           ready.nestedBytes <= session.limits.maxNestedArchiveBytes - session.nestedBytes {
            session.nodes += ready.nodes
            session.bytes += ready.bytes
            session.nestedBytes += ready.nestedBytes
            slots[index].value = ready.value
            slots[index].expandedSize = ready.nodes
            slots[index].expandedBytes = ready.bytes
            return ready.value
        }
        slots[index].inProgress = true
        let (nodesBefore, bytesBefore) = (session.nodes, session.bytes)
        let value = try object(at: index, depth: depth)
        slots[index].inProgress = false
        slots[index].value = value
        slots[index].expandedSize = session.nodes - nodesBefore
        slots[index].expandedBytes = session.bytes - bytesBefore
        return value
    }

    private func object(at uid: Int, depth: Int) throws(ArchiveError) -> ArchiveValue {
        let index = try member(uid, of: objects)
        let plist = try object(index)
        if uid == 0, case .scalar(.string("$null")) = plist {
            try session.consume(1)
            return .null
        }
        guard case .dictionary(let dictionary) = plist, let classIndex = try member(named: "$class", of: dictionary) else {
            return try field(index, depth: depth)
        }
        guard case .scalar(.uid(let classUID)) = try object(classIndex) else {
            throw session.error(.malformed, "object \(uid) has a $class that is \(try describe(classIndex)), not a UID")
        }
        let info = try classInfo(classUID, of: uid)
        try session.consume(1)
        try session.consumeBytes(info.nameBytes)
        let fields = try fields(of: dictionary, depth: depth + 1, skippingClass: true)
        return info.foundation.flatMap { FoundationValues.naturalValue($0, fields: fields) }
            ?? .object(ArchiveObject(className: info.name, classChain: info.chain, classHints: info.hints, fields: fields))
    }

    private func classInfo(_ uid: UInt64, of owner: Int) throws(ArchiveError) -> ClassInfo {
        guard uid < UInt64(objects.count) else {
            throw session.error(.malformed, "object \(owner) has $class UID \(uid), out of range: $objects has \(objects.count) entries")
        }
        if let known = classes.first(where: { $0.uid == Int(uid) }) {
            return known.info
        }
        let index = try member(Int(uid), of: objects)
        guard case .dictionary(let description) = try object(index),
              let nameIndex = try member(named: "$classname", of: description),
              let name = try string(nameIndex)
        else {
            throw session.error(.malformed, "the $class of object \(owner) (UID \(uid)) is \(try describe(index)) without a $classname, not a class dictionary")
        }
        // Without a `$classes` array the chain is the class alone.
        let chain = try member(named: "$classes", of: description).flatMap { index throws(ArchiveError) in try strings(index) } ?? [name]
        let hints = try member(named: "$classhints", of: description).map { index throws(ArchiveError) in try strings(index) ?? [] }
        let nameBytes = (chain + (hints ?? [])).reduce(TextEscaping.writtenSize(name)) { $0 + TextEscaping.writtenSize($1) }
        let info = ClassInfo(name: name, chain: chain, hints: hints, foundation: FoundationValues.kind(ofClass: name), nameBytes: nameBytes)
        // Hostile archives may hold thousands of class descriptions: keep the list searched short.
        if classes.count < 64 {
            classes.append((Int(uid), info))
        }
        return info
    }

    /// The strings of an array of class names (others are left out); nil when it is no array.
    private func strings(_ index: Int) throws(ArchiveError) -> [String]? {
        guard case .array(let names) = try object(index) else { return nil }
        var found: [String] = []
        for position in 0..<names.count {
            if let name = try string(try member(position, of: names)) { found.append(name) }
        }
        return found
    }

    // MARK: Data and nested archives

    private func data(_ bytes: ArraySlice<UInt8>, depth: Int) throws(ArchiveError) -> ArchiveValue {
        if archiveDepth == 0, session.leavesOuterDataUndecoded {
            try session.consume(1)
            try session.consumeData(bytes.count)
            return .data(ArchiveData(bytes: bytes))
        }
        return try NestedArchiveReader(session: session, archiveDepth: archiveDepth).value(of: bytes, depth: depth)
    }

    /// Decodes, on all processors, the nested archives `$top` refers to (UIKit's one per saved
    /// object) before the walk reaches them. Each is decoded alone with a session of its own;
    /// `reference` takes a result only where it counts exactly what decoding it in place would,
    /// and decodes in place otherwise, so results and errors do not depend on the threads.
    private func prefetchNestedArchives(in top: PropertyListContainer) {
        guard archiveDepth == 0, session.allowsConcurrency, !session.leavesOuterDataUndecoded, top.count >= Self.prefetchThreshold else { return }
        let threads = DeepStack.availableThreads
        guard threads > 1 else { return }
        var jobs: [(uid: Int, key: String, bytes: ArraySlice<UInt8>)] = []
        var seen = Set<Int>()
        for position in 0..<top.count {
            // Whatever is odd here is left to the walk, which reports it in place.
            guard let valueIndex = try? member(top.count + position, of: top),
                  case .scalar(.uid(let uid))? = try? object(valueIndex), uid < UInt64(objects.count),
                  let dataIndex = try? member(Int(uid), of: objects),
                  case .scalar(.data(let bytes))? = try? object(dataIndex),
                  bytes.starts(with: BinaryPropertyListReader.magic),
                  let key = try? key(position, of: top),
                  seen.insert(Int(uid)).inserted
            else { continue }
            jobs.append((Int(uid), key, bytes))
        }
        guard jobs.count >= Self.prefetchThreshold else { return }
        let limits = session.limits
        let budget = PrefetchBudget(limits: limits)
        var results = [PrefetchedArchive?](repeating: nil, count: jobs.count)
        results.withUnsafeMutableBufferPointer { results in
            DeepStack.concurrentPerform(count: jobs.count, threads: threads, stackSize: DeepStack.stackSize(for: limits)) { index in
                guard budget.allows() else { return }
                // One level of concurrency: a worker decodes its archive on its own thread.
                let session = DecodingSession(limits: limits, allowsConcurrency: false)
                session.location = [jobs[index].key]
                let reader = NestedArchiveReader(session: session, archiveDepth: 0)
                // A failure is left to the walk, which meets it in place and reports it as it would.
                guard let value = try? reader.value(of: jobs[index].bytes, depth: Self.topValueDepth) else { return }
                budget.spend(nodes: session.nodes, bytes: session.bytes, nestedBytes: session.nestedBytes)
                results[index] = PrefetchedArchive(value: value, nodes: session.nodes, bytes: session.bytes, nestedBytes: session.nestedBytes)
            }
        }
        for (job, result) in zip(jobs, results) {
            prefetched[job.uid] = result
        }
    }

    /// Fewer nested archives than this are not worth starting threads for.
    private static var prefetchThreshold: Int { 64 }
    /// The depth at which the outer archive's walk meets the objects `$top` refers to.
    private static var topValueDepth: Int { 1 }

    /// Whether the root is a dictionary whose `$archiver` is "NSKeyedArchiver".
    func isKeyedArchive() throws(ArchiveError) -> Bool {
        guard case .dictionary(let root) = try object(table.topObject),
              let archiver = try member(named: "$archiver", of: root)
        else { return false }
        return try string(archiver) == "NSKeyedArchiver"
    }

    // MARK: Table access, with errors placed in the archive

    private func object(_ index: Int) throws(ArchiveError) -> PropertyListObject {
        do throws(PropertyListError) { return try table.object(index) } catch { throw session.error(error) }
    }

    private func member(_ position: Int, of container: PropertyListContainer) throws(ArchiveError) -> Int {
        do throws(PropertyListError) { return try table.member(position, of: container) } catch { throw session.error(error) }
    }

    /// The value under `name` in a dictionary, or nil: a linear search, for the few fixed keys
    /// (`$class`, `$top` …); keys are decoded once per archive (see `key`).
    private func member(named name: String, of dictionary: PropertyListContainer) throws(ArchiveError) -> Int? {
        for position in 0..<dictionary.count where try key(position, of: dictionary) == name {
            return try member(dictionary.count + position, of: dictionary)
        }
        return nil
    }

    private func string(_ index: Int) throws(ArchiveError) -> String? {
        do throws(PropertyListError) { return try table.string(index) } catch { throw session.error(error) }
    }

    /// Key `position` of a dictionary, which must be a string; decoded once per key object.
    private func key(_ position: Int, of dictionary: PropertyListContainer) throws(ArchiveError) -> String {
        let index = try member(position, of: dictionary)
        let cached = index < keys.count
        if cached, let known = keys[index] { return known }
        guard let name = try string(index) else {
            throw session.error(.unreadable, "dictionary key (object \(index)) is not a string", at: table.byteOffset(of: dictionary.index))
        }
        if cached { keys[index] = name }
        return name
    }

    /// "a string", "an array", "missing": what an object is, for messages.
    private func describe(_ index: Int?) throws(ArchiveError) -> String {
        guard let index else { return "missing" }
        switch try object(index) {
        case .scalar(let value): return article(value.typeName)
        case .array: return "an array"
        case .dictionary: return "a dictionary"
        }
    }
}

/// Reads data that may hold a property list: a nested keyed archive is decoded, a property list
/// that is not one stays bytes, and bytes that announce a property list but cannot be read as
/// one stay bytes with the reason.
private struct NestedArchiveReader {
    let session: DecodingSession
    /// The archive level of the archive that holds the data.
    let archiveDepth: Int

    func value(of bytes: ArraySlice<UInt8>, depth: Int) throws(ArchiveError) -> ArchiveValue {
        try session.consume(1)
        guard let format = try? PropertyListReader.format(of: bytes) else {
            try session.consumeData(bytes.count)
            return .data(ArchiveData(copying: bytes))
        }
        session.nestedBytes += bytes.count
        guard session.nestedBytes <= session.limits.maxNestedArchiveBytes else {
            throw session.error(.limitExceeded, "nested archives add up to more than the limit of \(session.limits.maxNestedArchiveBytes) bytes", at: bytes.startIndex)
        }
        let outcome: NestedOutcome
        do throws(ArchiveError) {
            switch format {
            case .binary:
                outcome = try BinaryPropertyList.withTable(bytes) { (table) throws(ArchiveError) in try nested(table, bytes: bytes, depth: depth) }
            case .xml:
                outcome = try nested(FlatPropertyList(try session.readXML(bytes)), bytes: bytes, depth: depth)
            }
        } catch {
            if error.kind == .limitExceeded {
                throw ArchiveError(error.kind, error.reason, at: error.byteOffset, location: error.location.isEmpty ? session.location : error.location)
            }
            // Bytes that announce a property list but cannot be read as one stay bytes, with why.
            let reason = error.kind == .unreadable ? PropertyListError(error.reason, at: error.byteOffset).description : error.reason
            try session.consumeData(bytes.count)
            try session.consumeText(reason)
            return .data(ArchiveData(copying: bytes, archiveError: reason))
        }
        switch outcome {
        case .archive(let archive):
            return .archive(archive)
        case .notKeyedArchive:
            try session.consumeData(bytes.count)
            return .data(ArchiveData(copying: bytes))
        }
    }

    private enum NestedOutcome {
        case archive(KeyedArchive)
        /// A well-formed property list that is not a keyed archive: an app's own data.
        case notKeyedArchive
    }

    private func nested<Nested: PropertyListObjectTable>(_ nested: Nested, bytes: ArraySlice<UInt8>, depth: Int) throws(ArchiveError) -> NestedOutcome {
        let decoder = ArchiveGraphDecoder<Nested>(session: session, table: nested, archiveDepth: archiveDepth + 1, baseDepth: depth)
        guard try decoder.isKeyedArchive() else {
            try session.checkPropertyList(nested)
            return .notKeyedArchive
        }
        guard archiveDepth + 1 < session.limits.maxArchiveDepth else {
            throw session.error(.limitExceeded, "keyed archives nest deeper than the limit of \(levels(session.limits.maxArchiveDepth))", at: bytes.startIndex)
        }
        return .archive(try decoder.decodeArchive())
    }
}

/// How much work the threads of a prefetch have done, all together: past the limits they stop,
/// so hostile input costs a bounded multiple of what a sequential decode would do.
private final class PrefetchBudget: @unchecked Sendable {
    private let limits: DecodingLimits
    private var nodes = 0
    private var bytes = 0
    private var nestedBytes = 0
    private let lock = ThreadLock()

    init(limits: DecodingLimits) {
        self.limits = limits
    }

    func allows() -> Bool {
        lock.withLock { nodes <= limits.maxNodes && bytes <= limits.maxExpandedBytes && nestedBytes <= limits.maxNestedArchiveBytes }
    }

    func spend(nodes: Int, bytes: Int, nestedBytes: Int) {
        lock.withLock {
            self.nodes += nodes
            self.bytes += bytes
            self.nestedBytes += nestedBytes
        }
    }
}

/// A nested archive decoded ahead, with what decoding it counted.
private struct PrefetchedArchive {
    var value: ArchiveValue
    var nodes: Int
    var bytes: Int
    var nestedBytes: Int
}

private func article(_ noun: String) -> String {
    let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
    return (noun.first.map(vowels.contains) ?? false ? "an " : "a ") + noun
}
