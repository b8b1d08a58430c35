import Synchronization
/// Decodes one archive's `$objects` graph from a property-list table into the state's tape.
///
/// An immutable value whose methods take the decoding state `inout`: nested archives get a
/// decoder of their own over the same state. What decoding an archive changes lives in the
/// state (`ArchiveScratch`, and per-object scratch pushed when the archive starts and popped
/// when it ends, so small archives allocate nothing each), so that every method borrows the
/// decoder: a mutating method calling a non-mutating one passes it a copy of the whole decoder.
///
/// The helpers the walk calls once per value are `@inline(__always)`: most are a few
/// instructions and an error path.
struct ArchiveGraphDecoder<Table: PropertyListObjectTable> {
    let table: Table
    /// The bytes `table` reads (empty for an XML table, which holds its own): data values are slices of it.
    let input: ArraySlice<UInt8>
    /// Whether `input` is part of the tape's source, so strings and data may stay in it.
    let inSource: Bool
    let archiveDepth: Int
    let baseDepth: Int
    /// Table objects past this many have no entry: hostile counts allocate nothing.
    static var cachedObjects: Int { 1 << 16 }

    init(table: Table, input: ArraySlice<UInt8>, inSource: Bool, archiveDepth: Int, baseDepth: Int) {
        self.table = table
        self.input = input
        self.inSource = inSource
        self.archiveDepth = archiveDepth
        self.baseDepth = baseDepth
    }

    /// Pushes this archive's table entries on the state (before `keyedArchiveRoot` and
    /// `decodeArchive`, which share them).
    func pushEntries(_ s: inout DecodingState) {
        let (base, count) = (s.entriesInUse, min(table.objectCount, Self.cachedObjects))
        (s.archive.entryBase, s.archive.entryCount) = (base, count)
        s.entriesInUse = Self.take(count, after: base, of: &s.tableEntries, reset: DecodingState.TableEntry())
    }

    /// Takes `count` elements of `array` after the first `used`, each set to `reset`, and
    /// returns how many are in use then. The array keeps its high-water size, so that an
    /// archive's thousands of nested archives reset elements instead of appending them again.
    private static func take<Element>(_ count: Int, after used: Int, of array: inout [Element], reset: Element) -> Int {
        let end = used + count
        if array.count < end {
            array.append(contentsOf: repeatElement(reset, count: end - array.count))
        }
        array.withUnsafeMutableBufferPointer { elements in
            UnsafeMutableBufferPointer(rebasing: elements[used..<end]).update(repeating: reset)
        }
        return end
    }

    func popEntries(_ s: inout DecodingState) {
        s.entriesInUse = s.archive.entryBase
    }

    /// Checks the root dictionary and starts the walk of `$top` (see `beginArchive`).
    func beginCheckedArchive(_ s: inout DecodingState) throws(ArchiveError) -> Int {
        guard case .dictionary(let dictionary) = try object(table.topObject, &s) else {
            throw s.error(.notKeyedArchive, "not a keyed archive: a property list whose root is \(try describe(table.topObject, &s)), not a dictionary")
        }
        let root = rootMembers(of: dictionary, &s)
        guard let archiver = try value(.archiver, of: root, &s) else {
            throw s.error(.notKeyedArchive, "not a keyed archive: a plain property list (its root dictionary has no $archiver key)")
        }
        guard try isArchiverName(archiver, &s) else {
            var shown = try describe(archiver, &s)
            if let name = try string(archiver, &s) { shown = "'\(name)'" }
            throw s.error(.notKeyedArchive, "not a keyed archive: $archiver is \(shown), not 'NSKeyedArchiver'")
        }
        return try beginArchive(root: root, &s)
    }

    /// The root dictionary's members, when it is a keyed archive's (its `$archiver` is
    /// "NSKeyedArchiver").
    func keyedArchiveRoot(_ s: inout DecodingState) throws(ArchiveError) -> RootMembers? {
        guard case .dictionary(let dictionary) = try object(table.topObject, &s) else { return nil }
        let root = rootMembers(of: dictionary, &s)
        guard let archiver = try value(.archiver, of: root, &s), try isArchiverName(archiver, &s) else { return nil }
        return root
    }

    /// Where the root dictionary's fixed keys are, found in one pass over its keys as a search
    /// for each (`member(named:)`) would find them: the first of each key, and a key that
    /// cannot be read reported only to the searches that would meet it (see `value(_:of:_:)`).
    struct RootMembers {
        enum Key: Int {
            case archiver, top, objects, version
        }

        let dictionary: PropertyListContainer
        /// By key: the position of its first occurrence among the keys, or -1.
        fileprivate var positions = SIMD4<Int>(repeating: -1)
        /// By key: how many times it occurs (a damaged or forged root repeats one).
        fileprivate var counts = SIMD4<Int>(repeating: 0)

        /// The fixed keys the root holds more than once, with their counts.
        var repeated: [(key: String, count: Int)] {
            [("$archiver", 0), ("$top", 1), ("$objects", 2), ("$version", 3)].compactMap { name, index in
                counts[index] > 1 ? (name, counts[index]) : nil
            }
        }
        /// The error of the first key that could not be read, where the pass stopped.
        fileprivate var unreadableKey: ArchiveError?
    }

    private func rootMembers(of dictionary: PropertyListContainer, _ s: inout DecodingState) -> RootMembers {
        var members = RootMembers(dictionary: dictionary)
        // Every key, so that a repeated one is seen (a root has four; a hostile one is counted
        // against the input it takes).
        for position in 0..<dictionary.count {
            let key: RootMembers.Key?
            do throws(ArchiveError) {
                key = try rootKey(position, of: dictionary, &s)
            } catch {
                members.unreadableKey = error
                break
            }
            guard let key else { continue }
            if members.positions[key.rawValue] < 0 { members.positions[key.rawValue] = position }
            members.counts[key.rawValue] += 1
        }
        return members
    }

    /// The value under a fixed key of the root dictionary, or nil, as `member(named:)` gives it.
    private func value(_ key: RootMembers.Key, of root: RootMembers, _ s: inout DecodingState) throws(ArchiveError) -> Int? {
        let position = root.positions[key.rawValue]
        if position >= 0 { return try member(root.dictionary.count + position, of: root.dictionary, &s) }
        if let error = root.unreadableKey { throw error }
        return nil
    }

    /// Which fixed key of the root dictionary key `position` is, if any.
    private func rootKey(_ position: Int, of root: PropertyListContainer, _ s: inout DecodingState) throws(ArchiveError) -> RootMembers.Key? {
        let key = try fixedKey(position, of: root, &s)
        if key.is("$archiver", on: s.tape) { return .archiver }
        if key.is("$top", on: s.tape) { return .top }
        if key.is("$objects", on: s.tape) { return .objects }
        if key.is("$version", on: s.tape) { return .version }
        return nil
    }

    /// Whether the string at `index` is "NSKeyedArchiver" as Swift compares strings: byte for
    /// byte when ASCII, by canonical equivalence otherwise.
    private func isArchiverName(_ index: Int, _ s: inout DecodingState) throws(ArchiveError) -> Bool {
        let expected: StaticString = "NSKeyedArchiver"
        let comparison = withStringBytes(try item(index, &s), &s) { bytes -> Bool? in
            if bytes.hasSameBytes(as: expected.bytes) { return true }
            return bytes.allSatisfy { $0 < 0x80 } ? false : nil
        }
        switch comparison {
        case .some(.some(let equal)): return equal
        case .some(.none): return try string(index, &s) == "NSKeyedArchiver"
        case .none: return false
        }
    }

    /// Checks `$top`, `$objects` and `$version` of a root dictionary whose `$archiver` was
    /// checked, lays out the archive's scratch (which `endArchive` takes down) and pushes the
    /// frame of `$top`; returns where the archive's walk starts (see `walk`).
    func beginArchive(root: RootMembers, _ s: inout DecodingState) throws(ArchiveError) -> Int {
        if archiveDepth == 0 { s.repeatedRootKeys = root.repeated }
        let topIndex = try value(.top, of: root, &s)
        guard let topIndex, case .dictionary(let top) = try object(topIndex, &s) else {
            throw s.error(.notKeyedArchive, "not a keyed archive: $top is \(try describe(topIndex, &s)), not a dictionary")
        }
        let objectsIndex = try value(.objects, of: root, &s)
        guard let objectsIndex, case .array(let objects) = try object(objectsIndex, &s) else {
            throw s.error(.notKeyedArchive, "not a keyed archive: $objects is \(try describe(objectsIndex, &s)), not an array")
        }
        // Foundation refuses any other version ("Unknown archive version"), and so does this.
        // Always an integer in practice; anything else is named by its type.
        let versionIndex = try value(.version, of: root, &s)
        var version: Int128?
        if let versionIndex, case .scalar(.integer(let number)) = try object(versionIndex, &s) { version = number }
        guard version == KeyedArchive.archiverVersion else {
            var found = "missing"
            if let version { found = "\(version)" } else if let versionIndex { found = try describe(versionIndex, &s) }
            throw s.error(.malformed, "unsupported keyed archive: $version is \(found), not \(KeyedArchive.archiverVersion) (the only version NSKeyedArchiver writes and Foundation reads)")
        }
        // One slot per entry is allocated up front: bound the count by the values the archive
        // may make, or a small file of repeated references could ask for gigabytes.
        guard objects.count <= s.limits.maxNodes else {
            throw s.error(.limitExceeded, s.limits.exceeded(.nodes), at: table.byteOffset(of: objectsIndex))
        }
        s.archive.objects = objects
        s.archive.slotBase = s.slotsInUse
        s.slotsInUse = Self.take(objects.count, after: s.slotsInUse, of: &s.slots, reset: DecodingState.ObjectSlot())
        s.archive.classBase = s.archiveClasses.count
        s.archive.holdsSlots = true
        prefetchNestedArchives(in: top, &s)
        let base = s.walk.count
        s.walk.append(WalkFrame(kind: .fields, container: top, depth: baseDepth + 1, mark: s.tape.stack.count, owner: nil, info: nil))
        return base
    }

    /// Takes down what `pushEntries` and `beginArchive` laid out, when the archive's walk has
    /// ended or failed.
    func endArchive(_ s: inout DecodingState) {
        if s.archive.holdsSlots {
            s.slotsInUse = s.archive.slotBase
            s.archiveClasses.removeSubrange(s.archive.classBase...)
            s.archive.holdsSlots = false
        }
        popEntries(&s)
    }

    // MARK: The walk

    /// Decodes the values of the frames from `base` up of the state's walk (see `WalkFrame`),
    /// the innermost first, after taking `delivered`, a value ready for the innermost; returns
    /// the value of the frame at `base` (or `delivered`, when there is none), or nil when it
    /// meets a nested archive: that archive's level is pushed, and the walk goes on when the
    /// level's value is delivered (see `DecodingState.drive`).
    ///
    /// The walk keeps its own stack, and nested archives are levels of the state's, so that
    /// neither deep nesting, nor a long chain of entries that refer to one another, nor
    /// archives inside archives use the thread's. Members are read and decoded in the order a
    /// recursive descent would read them, so counts and errors are the same.
    func walk(from base: Int, delivering delivered: TapeNode? = nil, _ s: inout DecodingState) throws(ArchiveError) -> TapeNode? {
        var delivered = delivered
        walking: while true {
            if let value = delivered {
                guard s.walk.count > base else { return value }
                delivered = nil
                let top = s.walk.count - 1
                if s.walk[top].kind == .nested {
                    delivered = settle(s.walk.removeLast().owner, value, &s)
                    continue walking
                }
                s.tape.stack.append(value)
                if s.walk[top].kind == .fields {
                    s.location.removeLast()
                    s.walk[top].count += 1
                }
            }
            // The next members of the innermost frame: those with no members of their own are
            // taken at once; the first that has some is delivered when its frames are done.
            let top = s.walk.count - 1
            let (kind, container, depth) = (s.walk[top].kind, s.walk[top].container, s.walk[top].depth)
            var (position, count) = (s.walk[top].position, s.walk[top].count)
            switch kind {
            case .nested:
                preconditionFailure("a nested archive's frame waits for its level, which walks on top of it")
            case .fields:
                let isObject = s.walk[top].info != nil
                while position < container.count {
                    let (name, size) = try key(position, of: container, &s)
                    position += 1
                    // An object's `$class` is its class, not a field.
                    if isObject, s.tape.textEquals(name, "$class") { continue }
                    try s.consumeBytes(size)
                    s.location.append(name)
                    s.tape.stack.append(name)
                    let index = try member(container.count + position - 1, of: container, &s)
                    let value = try start(index, depth: depth, &s)
                    if let value, s.walk.count == top + 1 {
                        s.tape.stack.append(value)
                        s.location.removeLast()
                        count += 1
                        continue
                    }
                    (s.walk[top].position, s.walk[top].count) = (position, count)
                    if s.walk[top + 1].kind == .nested { return nil }
                    continue walking
                }
                let frame = s.walk.removeLast()
                delivered = settle(frame.owner, try fieldsNode(frame, count: count, &s), &s)
            case .array, .dictionary:
                let keyed = kind == .dictionary
                while position < container.count {
                    if keyed {
                        let (name, size) = try key(position, of: container, &s)
                        try s.consumeBytes(size)
                        s.tape.stack.append(name)
                    }
                    let index = try member((keyed ? container.count : 0) + position, of: container, &s)
                    position += 1
                    let value = try start(index, depth: depth, &s)
                    if let value, s.walk.count == top + 1 {
                        s.tape.stack.append(value)
                        continue
                    }
                    s.walk[top].position = position
                    if s.walk[top + 1].kind == .nested { return nil }
                    continue walking
                }
                let frame = s.walk.removeLast()
                close(container, &s)
                let node = keyed
                    ? TapeNode(.dictionary, count: container.count, payload: UInt64(try popPairs(from: frame.mark, &s)))
                    : TapeNode(.array, count: container.count, payload: UInt64(try popBlock(from: frame.mark, &s)))
                if s.archive.sharesContainers, let start = s.archive.sharedStarts.removeValue(forKey: container.index) {
                    s.archive.sharedContainers[container.index] = (node, s.nodes - start.nodes, s.bytes - start.bytes)
                }
                delivered = settle(frame.owner, node, &s)
            }
        }
    }

    /// The node of `$top` (no class) or of an object whose `count` fields are all on the tape's
    /// stack.
    @inline(__always)
    private func fieldsNode(_ frame: WalkFrame, count: Int, _ s: inout DecodingState) throws(ArchiveError) -> TapeNode {
        guard let info = frame.info else {
            return TapeNode(.archive, count: count, payload: UInt64(try popPairs(from: frame.mark, &s)))
        }
        if let foundation = info.foundation, let natural = FoundationValues.naturalNode(foundation, fields: frame.mark, count: count, classIndex: info.index, in: &s.tape) {
            s.tape.stack.removeSubrange(frame.mark...)
            return natural
        }
        return TapeNode(.object, count: count, payload: UInt64(info.index) << 32 | UInt64(try popPairs(from: frame.mark, &s)))
    }

    /// `node`, once it is the value of the `$objects` entries `owner` names: their slots say so.
    @inline(__always)
    private func settle(_ owner: WalkFrame.Owner?, _ node: TapeNode, _ s: inout DecodingState) -> TapeNode {
        guard let owner else { return node }
        let done = DecodingState.ObjectSlot(node: node, state: .done, expandedSize: s.nodes - owner.nodes, expandedBytes: s.bytes - owner.bytes)
        s.slots[owner.slot] = done
        if owner.chain < s.pendingSlots.count {
            for slot in s.pendingSlots[owner.chain...] { s.slots[slot] = done }
            s.pendingSlots.removeSubrange(owner.chain...)
        }
        return node
    }

    /// Starts decoding the value that is table object `index`, at `depth`: returns its node
    /// when it has no members to decode, and otherwise pushes the frame that decodes them (a
    /// container or an object) and returns nil.
    private func start(_ index: Int, depth: Int, _ s: inout DecodingState) throws(ArchiveError) -> TapeNode? {
        // The `$objects` entry whose value the item is, when it is one met for the first time,
        // and the entries of a chain after it (each the UID of the next): nothing is counted
        // between the links of a chain, so they all expand to the same.
        var owner: WalkFrame.Owner?
        guard let node = try startNode(index, depth: depth, owner: &owner, &s) else { return nil }
        return settle(owner, node, &s)
    }

    /// `start`'s work: the node, or nil with a frame pushed (which settles `owner` when done).
    private func startNode(_ index: Int, depth: Int, owner: inout WalkFrame.Owner?, _ s: inout DecodingState) throws(ArchiveError) -> TapeNode? {
        try checkDepth(depth, &s)
        var item = try item(index, &s)
        while true {
            switch item {
            case .inputString, .textString:
                let (node, size) = stringNode(item, &s)!
                try s.consume(1)
                try s.consumeBytes(size)
                return node
            case .inputData(let start, let count):
                return try data(input[(input.startIndex + start)..<(input.startIndex + start + count)], inSource: inSource, depth: depth, owner: owner, &s)
            case .tableData(let index):
                guard case .data(let bytes) = try object(index, &s) else { preconditionFailure("a table's data item is not data") }
                return try data(bytes, inSource: false, depth: depth, owner: owner, &s)
            case .scalar(.uid(let uid)):
                if let node = try takeDecoded(uid, depth: depth, &s) { return node }
                // An `$objects` entry met for the first time: its slot is filled when its
                // value is decoded, and meeting it before then is a cycle.
                let slot = s.archive.slotBase + Int(uid)
                s.slots[slot].state = .inProgress
                if owner == nil {
                    owner = WalkFrame.Owner(slot: slot, chain: s.pendingSlots.count, nodes: s.nodes, bytes: s.bytes)
                } else {
                    s.pendingSlots.append(slot)
                }
                let entryIndex = try member(Int(uid), of: s.archive.objects, &s)
                let entry = try self.item(entryIndex, &s)
                if uid == 0, isNull(entry, &s) {
                    try s.consume(1)
                    return .null
                }
                guard case .dictionary(let dictionary) = entry, let classIndex = try member(named: "$class", of: dictionary, &s) else {
                    // A value stored in `$objects` whole (a string, a container, another UID).
                    try checkDepth(depth, &s)
                    item = entry
                    continue
                }
                guard case .scalar(.uid(let classUID)) = try self.item(classIndex, &s) else {
                    throw s.error(.malformed, "object \(uid) has a $class that is \(try describe(classIndex, &s)), not a UID")
                }
                let info = try classInfo(classUID, of: Int(uid), &s)
                try s.consume(1)
                try s.consumeBytes(info.nameBytes)
                s.walk.append(WalkFrame(kind: .fields, container: dictionary, depth: depth + 1, mark: s.tape.stack.count, owner: owner, info: info))
                return nil
            case .scalar(.integer(let integer)):
                try s.consume(1)
                return s.tape.integer(integer)
            case .scalar(.real(let real)):
                try s.consume(1)
                return TapeNode(.real, payload: real.bitPattern)
            case .scalar(.float(let float)):
                try s.consume(1)
                return TapeNode(.float, payload: UInt64(float.bitPattern))
            case .scalar(.boolean(let boolean)):
                try s.consume(1)
                return TapeNode(.boolean, payload: boolean ? 1 : 0)
            case .scalar(.date(let date)):
                try s.consume(1)
                return TapeNode(.date, payload: date.bitPattern)
            case .array(let container), .dictionary(let container):
                if s.archive.sharesContainers {
                    if let shared = s.archive.sharedContainers[container.index] {
                        try s.consume(shared.nodes)
                        try s.consumeBytes(shared.bytes)
                        return shared.node
                    }
                    s.archive.sharedStarts[container.index] = (s.nodes, s.bytes)
                }
                try s.consume(1)
                try open(container, &s)
                let kind: WalkFrame.Kind = if case .dictionary = item { .dictionary } else { .array }
                s.walk.append(WalkFrame(kind: kind, container: container, depth: depth + 1, mark: s.tape.stack.count, owner: owner, info: nil))
                return nil
            }
        }
    }

    @inline(__always)
    private func checkDepth(_ depth: Int, _ s: inout DecodingState) throws(ArchiveError) {
        guard depth <= s.limits.maxDepth else {
            throw s.error(.limitExceeded, DecodingLimit.depth.exceeded(s.limits.maxDepth))
        }
    }

    /// The node of a string item (left in the input when the input is the tape's source, else
    /// in the tape's text) and its size as written; nil for any other item.
    @inline(__always)
    private func stringNode(_ item: PropertyListItem, _ s: inout DecodingState) -> (node: TapeNode, size: Int)? {
        switch item {
        case .inputString(let start, let count, let plain):
            let bytes = table.inputBytes(start, count)
            var node = inSource
                ? TapeNode(.string, flags: .inSource, count: count, payload: UInt64(input.startIndex + start))
                : s.tape.appendText(.string, bytes)
            guard plain else { return (node, TextEscaping.writtenSize(bytes)) }
            node.flags.insert(.plain)
            return (node, count)
        case .textString(let offset, let count):
            let node = TapeNode(.string, count: count, payload: UInt64(offset))
            return (node, s.tape.withBytes(of: node) { TextEscaping.writtenSize($0) })
        default:
            return nil
        }
    }

    /// Runs `body` with a string item's UTF-8 (nil for any other item), without making a node.
    @inline(__always)
    private func withStringBytes<Result>(_ item: PropertyListItem, _ s: inout DecodingState, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        switch item {
        case .inputString(let start, let count, _): return body(table.inputBytes(start, count))
        case .textString(let offset, let count): return s.tape.text.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)])) }
        default: return nil
        }
    }

    /// Moves a finished container's children to the tape (see `TapeBuilder`); fails when the
    /// tape would outgrow the 32-bit block positions its nodes hold.
    @inline(__always)
    private func popBlock(from mark: Int, _ s: inout DecodingState) throws(ArchiveError) -> Int {
        try checkTapeSize(adding: s.tape.stack.count - mark, &s)
        return s.tape.popBlock(from: mark)
    }

    @inline(__always)
    private func popPairs(from mark: Int, _ s: inout DecodingState) throws(ArchiveError) -> Int {
        try checkTapeSize(adding: s.tape.stack.count - mark, &s)
        return s.tape.popPairs(from: mark)
    }

    @inline(__always)
    private func checkTapeSize(adding count: Int, _ s: inout DecodingState) throws(ArchiveError) {
        guard s.tape.nodes.count + count <= Int(UInt32.max) else {
            throw s.error(.limitExceeded, "archive expands to more than \(UInt32.max) values in memory")
        }
    }

    /// Marks a container as being decoded; meeting it again inside itself is a cycle.
    private func open(_ container: PropertyListContainer, _ s: inout DecodingState) throws(ArchiveError) {
        let index = container.index
        let opened: Bool
        if index < s.archive.entryCount {
            opened = !s.tableEntries[s.archive.entryBase + index].isOpen
            s.tableEntries[s.archive.entryBase + index].isOpen = true
        } else {
            opened = s.archive.openBeyondEntries.insert(index).inserted
        }
        guard opened else {
            throw s.error(.unreadable, "reference cycle: object \(index) contains itself", at: table.byteOffset(of: index))
        }
    }

    private func close(_ container: PropertyListContainer, _ s: inout DecodingState) {
        if container.index < s.archive.entryCount {
            s.tableEntries[s.archive.entryBase + container.index].isOpen = false
        } else {
            s.archive.openBeyondEntries.remove(container.index)
        }
    }

    // MARK: Objects in $objects

    /// The node of `$objects` entry `uid` when it needs no decoding: decoded before (counted
    /// again), under way (a cycle), or decoded ahead (see `prefetchNestedArchives`); nil when
    /// it is to be decoded now.
    private func takeDecoded(_ uid: UInt64, depth: Int, _ s: inout DecodingState) throws(ArchiveError) -> TapeNode? {
        guard uid < UInt64(s.archive.objects.count) else {
            throw s.error(.malformed, "UID \(uid) is out of range: $objects has \(s.archive.objects.count) \(s.archive.objects.count == 1 ? "entry" : "entries")")
        }
        let slot = s.archive.slotBase + Int(uid)
        switch s.slots[slot].state {
        case .done:
            try s.consume(s.slots[slot].expandedSize)
            try s.consumeBytes(s.slots[slot].expandedBytes)
            return s.slots[slot].node
        case .inProgress:
            try s.consume(1)
            return TapeNode(.cycle, payload: uid)
        case .new:
            break
        }
        if !s.archive.prefetched.isEmpty, depth == Self.topValueDepth, let ready = takePrefetched(uid: Int(uid), &s),
           ready.nodes <= s.limits.maxNodes - s.nodes,
           ready.bytes <= s.limits.maxExpandedBytes - s.bytes,
           ready.nestedBytes <= s.limits.maxNestedArchiveBytes - s.nestedBytes {
            if s.archive.joinedBatches[ready.batch] == nil, let batch = s.archive.batches[ready.batch] {
                try checkTapeSize(adding: batch.nodes.count, &s)
                s.archive.joinedBatches[ready.batch] = s.tape.absorb(batch)
                s.archive.batches[ready.batch] = nil
            }
            s.nodes += ready.nodes
            s.bytes += ready.bytes
            s.nestedBytes += ready.nestedBytes
            let node = s.archive.joinedBatches[ready.batch]!.relocate(ready.root)
            s.slots[slot] = DecodingState.ObjectSlot(node: node, state: .done, expandedSize: ready.nodes, expandedBytes: ready.bytes)
            return node
        }
        return nil
    }

    /// The archive decoded ahead for `uid`, at most once.
    private func takePrefetched(uid: Int, _ s: inout DecodingState) -> PrefetchedArchive? {
        let position = Int(s.archive.prefetchedPosition[uid])
        guard position >= 0 else { return nil }
        s.archive.prefetchedPosition[uid] = -1
        return s.archive.prefetched[position]
    }

    /// Whether an object is the string `$null` (UID 0 of every archive NSKeyedArchiver writes).
    @inline(__always)
    private func isNull(_ item: PropertyListItem, _ s: inout DecodingState) -> Bool {
        let null: StaticString = "$null"
        return withStringBytes(item, &s) { $0.hasSameBytes(as: null.bytes) } ?? false
    }

    private func classInfo(_ uid: UInt64, of owner: Int, _ s: inout DecodingState) throws(ArchiveError) -> ArchiveClassInfo {
        guard uid < UInt64(s.archive.objects.count) else {
            throw s.error(.malformed, "object \(owner) has $class UID \(uid), out of range: $objects has \(s.archive.objects.count) entries")
        }
        for position in s.archive.classBase..<s.archiveClasses.count where s.archiveClasses[position].uid == Int(uid) {
            return s.archiveClasses[position].info
        }
        // The description's strings as bytes (see `ClassSignature`): every archive describes
        // its classes again, and most describe the same few.
        let signature = ClassSignature(in: s.classSignature)
        let index = try member(Int(uid), of: s.archive.objects, &s)
        var fields: (name: Int?, chain: Int?, hints: Int?) = (nil, nil, nil)
        if case .dictionary(let description) = try object(index, &s) {
            fields = try classFields(description, &s)
        }
        guard let nameIndex = fields.name, try appendString(nameIndex, to: signature, &s) else {
            throw s.error(.malformed, "the $class of object \(owner) (UID \(uid)) is \(try describe(index, &s)) without a $classname, not a class dictionary")
        }
        // Without a `$classes` array the chain is the class alone.
        if let chainIndex = fields.chain, case .array(let names) = try object(chainIndex, &s) {
            try appendStrings(names, to: signature, &s)
        } else {
            signature.appendAbsence()
        }
        if let hintsIndex = fields.hints {
            if case .array(let names) = try object(hintsIndex, &s) {
                try appendStrings(names, to: signature, &s)
            } else {
                signature.appendCount(0)
            }
        } else {
            signature.appendAbsence()
        }
        let info: ArchiveClassInfo
        if let known = s.knownClasses.find(signature.bytes) {
            info = known
        } else {
            let tapeClass = signature.tapeClass
            let names = [tapeClass.name] + tapeClass.chain + (tapeClass.hints ?? [])
            info = ArchiveClassInfo(
                index: s.tape.intern(tapeClass), foundation: FoundationValues.kind(ofClass: tapeClass.name),
                nameBytes: names.reduce(0) { $0 + TextEscaping.writtenSize($1) })
            s.knownClasses.add(signature.bytes, info)
        }
        // Hostile archives may hold thousands of class descriptions: keep the list searched short.
        if s.archiveClasses.count - s.archive.classBase < 64 {
            s.archiveClasses.append((Int(uid), info))
        }
        return info
    }

    /// The values of a class description's `$classname`, `$classes` and `$classhints` (the first
    /// of each), read in one pass over its keys.
    private func classFields(_ description: PropertyListContainer, _ s: inout DecodingState) throws(ArchiveError) -> (name: Int?, chain: Int?, hints: Int?) {
        var found: (name: Int?, chain: Int?, hints: Int?) = (nil, nil, nil)
        // Keys past the three are not read (a damaged one there is no error), as three
        // searches stopping at their key would not read them.
        for position in 0..<description.count where found.name == nil || found.chain == nil || found.hints == nil {
            let key = try fixedKey(position, of: description, &s)
            if found.name == nil, key.is("$classname", on: s.tape) {
                found.name = try member(description.count + position, of: description, &s)
            } else if found.chain == nil, key.is("$classes", on: s.tape) {
                found.chain = try member(description.count + position, of: description, &s)
            } else if found.hints == nil, key.is("$classhints", on: s.tape) {
                found.hints = try member(description.count + position, of: description, &s)
            }
        }
        return found
    }

    /// Appends the string at `index` to the signature; false when it is not a string.
    private func appendString(_ index: Int, to signature: ClassSignature, _ s: inout DecodingState) throws(ArchiveError) -> Bool {
        if let bytes = table.asciiBytes(index) {
            signature.append(bytes)
            return true
        }
        return withStringBytes(try item(index, &s), &s) { signature.append($0) } != nil
    }

    /// Appends the strings of an array of class names (others are left out).
    private func appendStrings(_ names: PropertyListContainer, to signature: ClassSignature, _ s: inout DecodingState) throws(ArchiveError) {
        let countAt = signature.count
        signature.appendCount(0)
        var count = 0
        for position in 0..<names.count where try appendString(try member(position, of: names, &s), to: signature, &s) {
            count += 1
        }
        signature.setCount(count, at: countAt)
    }

    // MARK: Data and nested archives

    /// Data: bytes (`inSource`: a slice of the tape's source), or nil when they hold a nested
    /// archive whose level was pushed, with the frame its value is delivered to (which takes
    /// `owner`).
    @inline(__always)
    private func data(_ bytes: ArraySlice<UInt8>, inSource: Bool, depth: Int, owner: WalkFrame.Owner?, _ s: inout DecodingState) throws(ArchiveError) -> TapeNode? {
        try NestedArchiveReader(archiveDepth: archiveDepth, inSource: inSource).begin(bytes, depth: depth, owner: owner, &s)
    }

    /// Decodes, on all processors, the nested archives `$top` refers to (UIKit's one per saved
    /// object) before the walk reaches them. Each is decoded alone, counted on its own, into
    /// the tape of its batch (a few batches per thread, each reusing one state's scratch);
    /// `reference` takes a result only where it counts exactly what decoding it in place would,
    /// and decodes in place otherwise, so results and errors do not depend on the threads.
    private func prefetchNestedArchives(in top: PropertyListContainer, _ s: inout DecodingState) {
        guard archiveDepth == 0, s.allowsConcurrency, top.count >= Self.prefetchThreshold, s.kept.map({ !$0.keepsAll }) ?? true else { return }
        guard Parallel.processors > 1 else { return }
        let (limits, source, sourceBuffer, decoder, kept, objects) = (s.limits, s.tape.source, s.sourceBuffer, self, s.kept, s.archive.objects)
        let budget = PrefetchBudget(limits: limits, objects: s.archive.objects.count)
        let batchCount = min(top.count, min(Parallel.processors, 8) * 8)
        // By position in `$top`. Each worker finds the archives of its share of the positions
        // itself: finding one reads three places far apart in the file, work worth sharing.
        var results = [PrefetchedArchive?](repeating: nil, count: top.count)
        var batches = [TapeBuilder?](repeating: nil, count: batchCount)
        results.withUnsafeMutableBufferPointer { results in
            batches.withUnsafeMutableBufferPointer { batches in
                Parallel.forEach(batchCount) { batch in
                    // One level of concurrency: a worker decodes its archives on its own thread.
                    var state = DecodingState(limits: limits, allowsConcurrency: false)
                    state.tape.source = source
                    state.sourceBuffer = sourceBuffer
                    state.kept = kept
                    state.archive.objects = objects
                    let positions = (batch * top.count / batchCount)..<((batch + 1) * top.count / batchCount)
                    var reserved = false
                    for position in positions {
                        guard let (uid, bytes, key) = decoder.nestedArchive(at: position, of: top, &state) else { continue }
                        let claim = budget.claim(uid)
                        guard claim != .spent else { break }
                        guard claim == .yours else { continue }
                        (state.nodes, state.bytes, state.nestedBytes) = (0, 0, 0)
                        // One location array for all of the worker's archives.
                        state.location.removeAll(keepingCapacity: true)
                        state.location.append(key.node)
                        // A failure is left to the walk, which meets it in place and reports it as it would.
                        guard let root = try? NestedArchiveReader(archiveDepth: 0, inSource: decoder.inSource).value(of: bytes, depth: Self.topValueDepth, &state) else {
                            state.tape.stack.removeAll(keepingCapacity: true)
                            state.walk.removeAll(keepingCapacity: true)
                            state.pendingSlots.removeAll(keepingCapacity: true)
                            state.slotsInUse = 0
                            state.entriesInUse = 0
                            continue
                        }
                        budget.spend(nodes: state.nodes, bytes: state.bytes, nestedBytes: state.nestedBytes)
                        results[position] = PrefetchedArchive(batch: batch, uid: uid, key: key, root: root, nodes: state.nodes, bytes: state.bytes, nestedBytes: state.nestedBytes)
                        if !reserved {
                            reserved = true
                            state.tape.nodes.reserveCapacity(Self.batchNodes(afterFirst: state.tape.nodes.count, positions: positions.count, batches: batchCount, limits: limits))
                        }
                    }
                    batches[batch] = state.tape
                }
            }
        }
        // An archive referred to by several entries was decoded for the one a thread met first,
        // not always the first in `$top`, where the walk meets it. The result is the same: the
        // entry is named only in an error, and a failure is decoded again in place.
        s.archive.prefetchedPosition = [Int32](repeating: -1, count: s.archive.objects.count)
        for case let (position, ready?) in results.enumerated() {
            s.archive.prefetchedPosition[ready.uid] = Int32(position)
            // The key for the walk, when it is in the input (the others are on the worker's tape).
            if ready.key.node.flags.contains(.inSource) {
                cacheKey(ready.key.node, size: ready.key.size, of: ready.key.index, &s)
            }
        }
        s.archive.prefetched = results
        s.archive.joinedBatches = [TapeBuilder.Relocation?](repeating: nil, count: batchCount)
        // The batches join the tape now, on all processors, with room for the rest of the outer
        // archive. Past the tape's size they are left to the walk, which joins them as it meets
        // them and reports the size it cannot reach.
        var joining = batches.compactMap { $0 }
        let added = joining.reduce(0) { $0 + $1.nodes.count }
        guard joining.count == batches.count, s.tape.nodes.count + added <= Int(UInt32.max) else {
            s.tape.nodes.reserveCapacity(s.tape.nodes.count + added + top.count * 4)
            s.archive.batches = batches
            return
        }
        // Held once, so that each batch's memory goes as soon as it is copied.
        batches = [TapeBuilder?](repeating: nil, count: batches.count)
        for (batch, relocation) in s.tape.absorb(all: &joining, reserving: top.count * 4).enumerated() {
            s.archive.joinedBatches[batch] = relocation
        }
        s.archive.batches = batches
    }

    /// The nodes to make room for in a batch's tape once its first archive is decoded into
    /// `firstNodes` nodes: as many again for each of its other positions and an eighth more
    /// (UIKit saves one archive per object, alike in size), so that the node array is not
    /// regrown and copied, and its pages touched twice, as it fills. Room is only reserved, not
    /// touched; it is bounded by the batch's share of twice the file's node limit and by 2^20
    /// nodes, whatever a hostile first archive holds. A batch that needs more grows as before.
    static func batchNodes(afterFirst firstNodes: Int, positions: Int, batches: Int, limits: DecodingLimits) -> Int {
        let bound = min(limits.maxNodes / batches * 2, 1 << 20)
        let (expected, overflow) = firstNodes.multipliedReportingOverflow(by: positions)
        return overflow || expected >= bound ? bound : min(bound, expected + expected / 8)
    }

    /// `$top` entries fewer than this are not worth starting threads for.
    private static var prefetchThreshold: Int { 64 }

    /// The nested archive `$top`'s entry at `position` refers to, if it is one, with the
    /// entry's key (read as `key` reads it, without its cache, which is in the walk's state);
    /// nil for anything else, which the walk reads (and reports) in place.
    private func nestedArchive(at position: Int, of top: PropertyListContainer, _ s: inout DecodingState) -> (uid: Int, bytes: ArraySlice<UInt8>, key: PrefetchedArchive.Key)? {
        guard let valueIndex = try? member(top.count + position, of: top, &s),
              case .scalar(.uid(let uid))? = try? item(valueIndex, &s), uid < UInt64(s.archive.objects.count),
              let dataIndex = try? member(Int(uid), of: s.archive.objects, &s),
              case .inputData(let start, let count)? = try? item(dataIndex, &s),
              BinaryPropertyListFormat.startsWithMagic(table.inputBytes(start, count)),
              !(s.kept?.keeps(input[(input.startIndex + start)..<(input.startIndex + start + count)]) ?? false),
              let keyIndex = try? member(position, of: top, &s),
              let keyItem = try? item(keyIndex, &s),
              let (key, size) = stringNode(keyItem, &s)
        else { return nil }
        return (Int(uid), input[(input.startIndex + start)..<(input.startIndex + start + count)], PrefetchedArchive.Key(index: keyIndex, node: key, size: size))
    }

    /// The depth at which the outer archive's walk meets the objects `$top` refers to.
    private static var topValueDepth: Int { 1 }

    // MARK: Table access, with errors placed in the archive

    @inline(__always)
    private func object(_ index: Int, _ s: inout DecodingState) throws(ArchiveError) -> PropertyListObject {
        do throws(PropertyListError) { return try table.object(index) } catch { throw s.error(error) }
    }

    @inline(__always)
    private func item(_ index: Int, _ s: inout DecodingState) throws(ArchiveError) -> PropertyListItem {
        do throws(PropertyListError) { return try table.item(index, text: &s.tape.text) } catch { throw s.error(error) }
    }

    @inline(__always)
    private func member(_ position: Int, of container: PropertyListContainer, _ s: inout DecodingState) throws(ArchiveError) -> Int {
        do throws(PropertyListError) { return try table.member(position, of: container) } catch { throw s.error(error) }
    }

    /// The value under `name` in a dictionary, or nil: a linear search, for a fixed key such as
    /// `$class`.
    private func member(named name: StaticString, of dictionary: PropertyListContainer, _ s: inout DecodingState) throws(ArchiveError) -> Int? {
        for position in 0..<dictionary.count where try fixedKey(position, of: dictionary, &s).is(name, on: s.tape) {
            return try member(dictionary.count + position, of: dictionary, &s)
        }
        return nil
    }

    /// A dictionary key to compare with fixed names: an ASCII key, the usual one, where it lies
    /// in the input; any other read once per archive (see `key`).
    private struct FixedKey {
        var ascii: UnsafeRawBufferPointer?
        var node = TapeNode.null

        func `is`(_ name: StaticString, on tape: TapeBuilder) -> Bool {
            ascii.map { $0.hasSameBytes(as: name.bytes) } ?? tape.textEquals(node, name)
        }
    }

    private func fixedKey(_ position: Int, of dictionary: PropertyListContainer, _ s: inout DecodingState) throws(ArchiveError) -> FixedKey {
        // The member first: read as the receiver's argument, it made the table be copied.
        let index = try member(position, of: dictionary, &s)
        if let bytes = table.asciiBytes(index) { return FixedKey(ascii: bytes) }
        return FixedKey(node: try key(position, of: dictionary, &s).0)
    }

    private func string(_ index: Int, _ s: inout DecodingState) throws(ArchiveError) -> String? {
        do throws(PropertyListError) { return try table.string(index) } catch { throw s.error(error) }
    }

    /// Key `position` of a dictionary, which must be a string, and its size as written; read
    /// once per key object.
    @inline(__always)
    private func key(_ position: Int, of dictionary: PropertyListContainer, _ s: inout DecodingState) throws(ArchiveError) -> (TapeNode, Int) {
        let index = try member(position, of: dictionary, &s)
        if index < s.archive.entryCount, s.tableEntries[s.archive.entryBase + index].key.kind == .string {
            return (s.tableEntries[s.archive.entryBase + index].key, Int(s.tableEntries[s.archive.entryBase + index].keySize))
        }
        guard let (node, size) = stringNode(try item(index, &s), &s) else {
            throw s.error(.unreadable, "dictionary key (object \(index)) is not a string", at: table.byteOffset(of: dictionary.index))
        }
        cacheKey(node, size: size, of: index, &s)
        return (node, size)
    }

    /// Keeps the node and counted size of the key that is object `index`, for `key`.
    private func cacheKey(_ node: TapeNode, size: Int, of index: Int, _ s: inout DecodingState) {
        guard index < s.archive.entryCount, let keySize = UInt32(exactly: size) else { return }
        s.tableEntries[s.archive.entryBase + index].key = node
        s.tableEntries[s.archive.entryBase + index].keySize = keySize
    }

    /// "a string", "an array", "missing": what an object is, for messages.
    private func describe(_ index: Int?, _ s: inout DecodingState) throws(ArchiveError) -> String {
        guard let index else { return "missing" }
        return article(try object(index, &s).typeName)
    }
}

/// What the decoder of one archive changes as it goes, kept in the decoding state
/// (`DecodingState.archive`) so that the decoder itself is immutable: its methods then borrow it,
/// where a mutating method calling a non-mutating one would copy the whole decoder each time.
/// A nested archive's decoding sets a fresh one and puts the outer archive's back when it ends.
struct ArchiveScratch {
    /// The `$objects` array: UID n is its member n.
    fileprivate(set) var objects = PropertyListContainer(index: 0, count: 0, references: 0)
    /// Where this archive's slots and table entries start in the state's scratch.
    fileprivate(set) var slotBase = 0
    fileprivate(set) var entryBase = 0
    fileprivate(set) var entryCount = 0
    /// Containers being decoded past the table entries (hostile tables only).
    fileprivate(set) var openBeyondEntries = Set<Int>()
    /// Where this archive's class descriptions met so far start in the state's scratch.
    fileprivate(set) var classBase = 0
    /// Whether the slots and class descriptions from the bases on are this archive's.
    fileprivate var holdsSlots = false
    /// Nested archives decoded ahead (see `prefetchNestedArchives`), and for each UID the
    /// position of its archive there (-1 for none, or once taken): an array, not a dictionary,
    /// because the walk of a large `$top` looks up every entry on one processor.
    fileprivate var prefetched: [PrefetchedArchive?] = []
    fileprivate var prefetchedPosition: [Int32] = []
    /// The tapes the nested archives were decoded into, one per batch, until they join the
    /// state's tape (when the walk takes the first archive of the batch), and then how their
    /// nodes moved.
    fileprivate var batches: [TapeBuilder?] = []
    fileprivate var joinedBatches: [TapeBuilder.Relocation?] = []
    /// In a plain property list (not a keyed archive), each container the table holds is
    /// decoded once: another reference to it takes its node, counted again, as a shared
    /// `$objects` entry is. A keyed archive's containers are not shared this way: what they
    /// decode to depends on the objects under way (a reference back is a `$cycle`).
    fileprivate(set) var sharesContainers = false
    fileprivate var sharedContainers: [Int: (node: TapeNode, nodes: Int, bytes: Int)] = [:]
    /// The counts when each shared container under way started.
    fileprivate var sharedStarts: [Int: (nodes: Int, bytes: Int)] = [:]

    init() {}
}

// MARK: Plain property lists

extension ArchiveGraphDecoder {
    /// Whether the table's root is a plain property list: no dictionary, or one without
    /// `$archiver` (a dictionary that names another archiver is a damaged keyed archive).
    func isPlainPropertyList(_ s: inout DecodingState) throws(ArchiveError) -> Bool {
        guard case .dictionary(let dictionary) = try object(table.topObject, &s) else { return true }
        return try value(.archiver, of: rootMembers(of: dictionary, &s), &s) == nil
    }

    /// Starts the root value of a plain property list, decoded as a value of an archive is:
    /// data that holds a keyed archive becomes a nested archive, under the same limits. Returns
    /// the value when it is a scalar, else nil with its frame pushed.
    func beginPlainRoot(_ s: inout DecodingState) throws(ArchiveError) -> TapeNode? {
        s.archive.sharesContainers = true
        return try start(table.topObject, depth: baseDepth + 1, &s)
    }
}

/// Reads data that may hold a property list: a nested keyed archive is decoded, a property list
/// that is not one stays bytes, and bytes that announce a property list but cannot be read as
/// one stay bytes with the reason.
struct NestedArchiveReader {
    /// The archive level of the archive that holds the data.
    let archiveDepth: Int
    /// Whether the data is part of the tape's source.
    let inSource: Bool

    /// The value of `bytes`, decoded to the end here (for callers outside a walk).
    func value(of bytes: ArraySlice<UInt8>, depth: Int, _ s: inout DecodingState) throws(ArchiveError) -> TapeNode {
        if let node = try begin(bytes, depth: depth, owner: nil, &s) { return node }
        let node = try s.drive(from: s.levels.count - 1)
        s.walk.removeLast()
        return node
    }

    /// Starts reading `bytes`: returns their node when that takes no walk, and otherwise pushes
    /// a frame for the nested archive's value (which settles `owner`) and the archive's level,
    /// and returns nil.
    func begin(_ bytes: ArraySlice<UInt8>, depth: Int, owner: WalkFrame.Owner?, _ s: inout DecodingState) throws(ArchiveError) -> TapeNode? {
        try s.consume(1)
        guard let format = PropertyListReader.knownFormat(of: bytes) else {
            try s.consumeData(bytes.count)
            return dataNode(bytes, &s)
        }
        // Left as data, it is neither parsed nor printed: only its node counts.
        if archiveDepth == 0, let kept = s.kept, kept.keeps(bytes) {
            return dataNode(bytes, &s)
        }
        s.nestedBytes += bytes.count
        guard s.nestedBytes <= s.limits.maxNestedArchiveBytes else {
            throw s.error(.limitExceeded, s.limits.exceeded(.nestedBytes), at: inSource ? bytes.startIndex : nil)
        }
        let marks = Marks(s)
        s.walk.append(WalkFrame(kind: .nested, container: PropertyListContainer(index: 0, count: 0, references: 0), depth: depth, mark: s.tape.stack.count, owner: owner, info: nil))
        do throws(ArchiveError) {
            switch format {
            case .binary:
                // Bytes that are not the source's (an XML file's data) are copied, so that the
                // table's buffer lives as long as its level.
                let copy = inSource && s.sourceBuffer != nil ? nil : CopiedBytes(bytes)
                let table: BinaryPropertyList
                do throws(PropertyListError) {
                    if let copy {
                        table = try .inCopy(copy, of: bytes)
                    } else {
                        table = try .inSource(bytes, of: s.sourceBuffer!, base: s.tape.source.startIndex)
                    }
                } catch {
                    throw s.error(error)
                }
                return try begin(table, input: bytes, inSource: copy == nil, bytes: bytes, depth: depth, marks: marks, keeping: copy, &s)
            case .xml:
                return try begin(try s.readXML(bytes), input: [], inSource: false, bytes: bytes, depth: depth, marks: marks, keeping: nil, &s)
            }
        } catch {
            return try recover(from: error, marks: marks, bytes: bytes, &s)
        }
    }

    /// What the state held before a nested archive began: what a failed archive left half
    /// built is dropped back to it.
    struct Marks {
        var stack, walk, pending, location, slots, entries: Int

        init(_ s: DecodingState) {
            (stack, walk, pending, location, slots, entries) = (s.tape.stack.count, s.walk.count, s.pendingSlots.count, s.location.count, s.slotsInUse, s.entriesInUse)
        }
    }

    /// The value of bytes that announce a property list whose archive failed with `error`: the
    /// bytes with the reason, or the error again when it is a limit's, which ends the file.
    func recover(from error: ArchiveError, marks: Marks, bytes: ArraySlice<UInt8>, _ s: inout DecodingState) throws(ArchiveError) -> TapeNode {
        if error.kind == .limitExceeded {
            throw ArchiveError(error.kind, error.reason, at: error.byteOffset, location: error.location.isEmpty ? s.locationNames : error.location)
        }
        s.tape.stack.removeSubrange(marks.stack...)
        s.walk.removeSubrange(marks.walk...)
        s.pendingSlots.removeSubrange(marks.pending...)
        s.location.removeSubrange(marks.location...)
        s.slotsInUse = marks.slots
        s.entriesInUse = marks.entries
        // Bytes that announce a property list but cannot be read as one stay bytes, with why:
        // where in the data, not in the file, so that the same bytes compare equal wherever
        // they lie.
        var reason = error.reason.cutInTheMiddle(to: PropertyListError.maximumReasonLength)
        if error.kind == .unreadable, let offset = error.byteOffset {
            reason += " (at byte \(offset - bytes.startIndex) of the data)"
        }
        try s.consumeData(bytes.count)
        try s.consumeText(reason)
        return s.tape.failedArchive(dataNode(bytes, &s), reason: reason)
    }

    /// A data node for bytes that are not an archive: left in the input, or copied to the text.
    private func dataNode(_ bytes: ArraySlice<UInt8>, _ s: inout DecodingState) -> TapeNode {
        guard inSource else { return bytes.withUnsafeBytes { s.tape.appendText(.data, $0) } }
        return TapeNode(.data, flags: .inSource, count: bytes.count, payload: UInt64(bytes.startIndex))
    }

    /// Starts the nested archive of `table`: its level pushed (nil), or the data's node when
    /// the table is a well-formed property list that is not a keyed archive (an app's own data).
    private func begin<Nested: PropertyListObjectTable>(
        _ table: Nested, input: ArraySlice<UInt8>, inSource: Bool, bytes: ArraySlice<UInt8>, depth: Int,
        marks: Marks, keeping copy: CopiedBytes?, _ s: inout DecodingState
    ) throws(ArchiveError) -> TapeNode? {
        let decoder = ArchiveGraphDecoder<Nested>(table: table, input: input, inSource: inSource, archiveDepth: archiveDepth + 1, baseDepth: depth)
        // A failure met on the walk keeps the frame the value is delivered to.
        var levelMarks = marks
        levelMarks.walk += 1
        let level = Nested.level(decoder, nested: NestedFailure(reader: self, bytes: bytes, marks: levelMarks), keeping: copy)
        level.begin(&s)
        do throws(ArchiveError) {
            guard let root = try decoder.keyedArchiveRoot(&s) else {
                try s.checkPropertyList(table)
                level.end(&s)
                s.walk.removeLast()
                try s.consumeData(bytes.count)
                return dataNode(bytes, &s)
            }
            guard archiveDepth + 1 < s.limits.maxArchiveDepth else {
                throw s.error(.limitExceeded, DecodingLimit.archiveDepth.exceeded(s.limits.maxArchiveDepth), at: inSource ? bytes.startIndex : nil)
            }
            level.base = try decoder.beginArchive(root: root, &s)
        } catch {
            level.end(&s)
            throw error
        }
        s.levels.append(level)
        return nil
    }
}

/// How a nested archive that fails is shown: its reader, its bytes, and the state before it.
struct NestedFailure {
    let reader: NestedArchiveReader
    let bytes: ArraySlice<UInt8>
    let marks: NestedArchiveReader.Marks
}

/// One archive under way in a file's decoding (see `DecodingState.drive`): the file's own, or a
/// nested one its walk met, with its decoder, the outer archive's scratch while this one's is
/// the state's, and what to make of a failure.
///
/// A final class holding the decoder of each table type it may have (one is set), not a
/// generic class behind a protocol, whose methods would run unspecialized code (the walk is
/// most of decoding), nor an enum, whose payload is copied at each use.
final class ArchiveLevel {
    private let binary: ArchiveGraphDecoder<BinaryPropertyList>?
    private let xml: ArchiveGraphDecoder<XMLPropertyList>?
    /// Where the archive's frames start on the state's walk.
    var base = 0
    /// The outer archive's scratch, while this one's is the state's.
    private var outer = ArchiveScratch()
    /// For a nested archive, how it is shown when it fails (nil: the file's, whose error is the file's).
    private let nested: NestedFailure?
    /// The bytes the table reads, when they are a copy.
    private let copy: CopiedBytes?

    init(_ decoder: ArchiveGraphDecoder<BinaryPropertyList>, nested: NestedFailure?, keeping copy: CopiedBytes? = nil) {
        (binary, xml) = (decoder, nil)
        self.nested = nested
        self.copy = copy
    }

    init(_ decoder: ArchiveGraphDecoder<XMLPropertyList>, nested: NestedFailure?, keeping copy: CopiedBytes? = nil) {
        (binary, xml) = (nil, decoder)
        self.nested = nested
        self.copy = copy
    }

    /// Makes a fresh scratch the state's, with the table's entries.
    func begin(_ s: inout DecodingState) {
        swap(&outer, &s.archive)
        if binary != nil { binary!.pushEntries(&s) } else { xml!.pushEntries(&s) }
    }

    /// Goes on with the archive's walk, `delivered` first: the archive's node when it is done,
    /// or nil when the walk met a nested archive and pushed its level.
    func resume(delivering delivered: TapeNode?, _ s: inout DecodingState) throws(ArchiveError) -> TapeNode? {
        if binary != nil { return try binary!.walk(from: base, delivering: delivered, &s) }
        return try xml!.walk(from: base, delivering: delivered, &s)
    }

    /// Takes down the archive's scratch and puts back the outer archive's.
    func end(_ s: inout DecodingState) {
        if binary != nil { binary!.endArchive(&s) } else { xml!.endArchive(&s) }
        swap(&outer, &s.archive)
    }

    /// The value of the archive that failed with `error`, or the error that ends the file.
    func recover(from error: ArchiveError, _ s: inout DecodingState) throws(ArchiveError) -> TapeNode {
        guard let nested else { throw error }
        return try nested.reader.recover(from: error, marks: nested.marks, bytes: nested.bytes, &s)
    }
}

extension BinaryPropertyList {
    static func level(_ decoder: ArchiveGraphDecoder<Self>, nested: NestedFailure?, keeping copy: CopiedBytes? = nil) -> ArchiveLevel {
        ArchiveLevel(decoder, nested: nested, keeping: copy)
    }
}

extension XMLPropertyList {
    static func level(_ decoder: ArchiveGraphDecoder<Self>, nested: NestedFailure?, keeping copy: CopiedBytes? = nil) -> ArchiveLevel {
        ArchiveLevel(decoder, nested: nested, keeping: copy)
    }
}

extension DecodingState {
    /// Runs the levels from `first` up (see `ArchiveLevel`) until level `first` ends, and
    /// returns its value: the innermost level walks; a level that meets a nested archive pushes
    /// the archive's level and waits for its value, which is delivered when that level ends (or
    /// fails and recovers). One loop on the calling thread's stack, however deep archives nest.
    mutating func drive(from first: Int, delivering initial: TapeNode? = nil) throws(ArchiveError) -> TapeNode {
        var outcome: Result<TapeNode?, ArchiveError> = .success(initial)
        while true {
            let level = levels[levels.count - 1]
            let value: TapeNode
            switch outcome {
            case .success(let delivered):
                do throws(ArchiveError) {
                    guard let node = try level.resume(delivering: delivered, &self) else {
                        outcome = .success(nil)
                        continue
                    }
                    value = node
                } catch {
                    outcome = .failure(error)
                    continue
                }
                level.end(&self)
                levels.removeLast()
            case .failure(let error):
                level.end(&self)
                levels.removeLast()
                do throws(ArchiveError) {
                    value = try level.recover(from: error, &self)
                } catch {
                    if levels.count == first { throw error }
                    outcome = .failure(error)
                    continue
                }
            }
            if levels.count == first { return value }
            outcome = .success(value)
        }
    }
}

/// A copy of bytes a binary table reads, in memory of its own (see `BinaryPropertyList.inCopy`).
final class CopiedBytes {
    let buffer: UnsafeMutableRawBufferPointer

    init(_ bytes: ArraySlice<UInt8>) {
        buffer = .allocate(byteCount: max(1, bytes.count), alignment: 8)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
    }

    deinit {
        buffer.deallocate()
    }
}

/// How much work the threads of a prefetch have done, all together, and which archives they
/// took: past the limits they stop, and each archive is decoded once however many entries
/// refer to it, so hostile input costs a bounded multiple of what a sequential decode would do.
private final class PrefetchBudget: Sendable {
    private struct Spent {
        var nodes = 0
        var bytes = 0
        var nestedBytes = 0
        /// By object index in `$objects`.
        var taken: [Bool]
    }

    private let limits: DecodingLimits
    private let spent: Mutex<Spent>

    init(limits: DecodingLimits, objects: Int) {
        self.limits = limits
        spent = Mutex(Spent(taken: [Bool](repeating: false, count: objects)))
    }

    enum Claim {
        case yours, taken, spent
    }

    /// Whether the caller is to decode the archive that is object `uid`: not when another
    /// thread took it, nor once the limits are spent.
    func claim(_ uid: Int) -> Claim {
        spent.withLock { spent in
            guard spent.nodes <= limits.maxNodes && spent.bytes <= limits.maxExpandedBytes
                && spent.nestedBytes <= limits.maxNestedArchiveBytes else { return .spent }
            guard !spent.taken[uid] else { return .taken }
            spent.taken[uid] = true
            return .yours
        }
    }

    func spend(nodes: Int, bytes: Int, nestedBytes: Int) {
        spent.withLock { spent in
            spent.nodes += nodes
            spent.bytes += bytes
            spent.nestedBytes += nestedBytes
        }
    }
}

/// A nested archive decoded ahead into its batch's tape, with what decoding it counted.
private struct PrefetchedArchive {
    var batch: Int
    /// Its object in `$objects`, and the key of the `$top` entry it was decoded for.
    var uid: Int
    var key: Key
    var root: TapeNode
    var nodes: Int
    var bytes: Int
    var nestedBytes: Int

    /// A key's object, node and counted size (see `ArchiveGraphDecoder.key`).
    struct Key {
        var index: Int
        var node: TapeNode
        var size: Int
    }
}

private func article(_ noun: String) -> String {
    let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
    return (noun.first.map(vowels.contains) ?? false ? "an " : "a ") + noun
}
