/// Writes the values of one binary keyed archive straight from its bytes as `dump --json` text,
/// the text `JSONArchiveValue` gives for the decoded values, without building them.
///
/// It takes only the plain road: on anything the decoder would report or treat specially (a
/// reference cycle, a UID out of range, an archive nested in a value, a class that Foundation's
/// mapping takes in a form other than the one Foundation writes, a field beginning with `$`,
/// a key that is not an ASCII string …) it throws `GiveUp`, and the dump decodes the whole file
/// the usual way. The tests and the decode fuzz target compare the two texts.
struct StreamedArchiveRenderer {
    let table: BinaryPropertyList
    /// `$top` and `$objects`.
    let top: PropertyListContainer
    private let objects: PropertyListContainer
    /// Class descriptions and the UIDs being written (see `StreamingContext`).
    private let context: StreamingContext

    /// Checks the archive's root the way the decoder does and finds `$top` and `$objects`.
    /// Starts a new archive in `context`: a renderer made earlier with it is done.
    init(table: BinaryPropertyList, budget: StreamingBudget, context: StreamingContext) throws(GiveUp) {
        self.table = table
        self.context = context
        context.beginArchive()
        guard case .dictionary(let root) = try Self.raw(table, table.topObject) else { throw GiveUp() }
        var archiver: Int?, top: Int?, objects: Int?, version: Int?
        for position in 0..<root.count {
            let key = try Self.keyBytes(table, try Self.member(table, position, of: root))
            let value = try Self.member(table, root.count + position, of: root)
            // The first of repeated keys counts, as in the decoder's lookups.
            switch StreamedKey(key) {
            case "$archiver": archiver = archiver ?? value
            case "$top": top = top ?? value
            case "$objects": objects = objects ?? value
            case "$version": version = version ?? value
            default: break
            }
        }
        guard let archiver, case .asciiString(let start, let count) = try Self.raw(table, archiver),
              StreamedKey(table.bytes(start, count)) == "NSKeyedArchiver",
              let top, case .dictionary(let topDictionary) = try Self.raw(table, top),
              let objects, case .array(let objectArray) = try Self.raw(table, objects),
              objectArray.count <= budget.maxNodes
        else { throw GiveUp() }
        // Any `$version` but NSKeyedArchiver's is the decoder's to report.
        guard let version, case .integer(KeyedArchive.archiverVersion) = try Self.raw(table, version) else { throw GiveUp() }
        self.top = topDictionary
        self.objects = objectArray
    }

    // MARK: Fields

    /// Calls `body` with the key and value indices of a dictionary's entries, keys as ASCII
    /// bytes. The entries are held on the stack: there are several dictionaries per archive, and
    /// an array for each would mean a `malloc` and reference counting each time.
    func withEntries<T>(of dictionary: PropertyListContainer, _ body: (StreamedFields) throws(GiveUp) -> T) throws(GiveUp) -> T {
        try withFieldStorage(count: dictionary.count) { (storage) throws(GiveUp) in
            for position in 0..<dictionary.count {
                let key = StreamedKey(try Self.keyBytes(table, try member(position, of: dictionary)))
                storage.initializeElement(at: position, to: (key, try member(dictionary.count + position, of: dictionary)))
            }
            return try body(UnsafeBufferPointer(storage))
        }
    }

    /// Calls `body` with a dictionary of `$objects` read once: the value of its (first) `$class`,
    /// if any, and its other entries (an archived object's fields, or a plain dictionary's
    /// entries), held on the stack.
    private func withArchivedEntries<T>(of dictionary: PropertyListContainer, _ body: (_ classIndex: Int?, _ fields: StreamedFields) throws(GiveUp) -> T) throws(GiveUp) -> T {
        try withFieldStorage(count: dictionary.count) { (storage) throws(GiveUp) in
            var classIndex: Int?
            var count = 0
            for position in 0..<dictionary.count {
                let key = StreamedKey(try Self.keyBytes(table, try member(position, of: dictionary)))
                let value = try member(dictionary.count + position, of: dictionary)
                if key == StreamedKey.className {
                    classIndex = classIndex ?? value
                } else {
                    storage.initializeElement(at: count, to: (key, value))
                    count += 1
                }
            }
            return try body(classIndex, UnsafeBufferPointer(rebasing: storage[..<count]))
        }
    }

    /// String-keyed values as one JSON object, keys as they are (`$top`, as `JSONFields` does).
    func writeFields(_ fields: StreamedFields, to output: inout StreamingOutput) throws(GiveUp) {
        for field in fields { try output.countBytes(TextEscaping.writtenSize(field.key.bytes)) }
        try output.writeObject(count: fields.count, key: { fields[$0].key }) { (output, index) throws(GiveUp) in
            try writeField(fields[index].value, to: &output)
        }
    }

    // MARK: Values stored in place

    /// The value stored at table index `index`: a scalar, a plain container or a UID.
    func writeField(_ index: Int, to output: inout StreamingOutput) throws(GiveUp) {
        let object = try raw(index)
        switch object {
        case .uid(let uid):
            try writeReference(uid, to: &output)
        case .array(let array):
            try output.countNode()
            try output.writeArray(count: array.count) { (output, position) throws(GiveUp) in
                try writeField(try member(position, of: array), to: &output)
            }
        case .dictionary(let dictionary):
            try output.countNode()
            try withEntries(of: dictionary) { (entries) throws(GiveUp) in try writePlainDictionary(entries, to: &output) }
        default:
            try output.writeScalar(object, table: table)
        }
    }

    /// A dictionary whose keys are strings: a plain JSON object when no key begins with `$` and
    /// none repeats (otherwise the decoded form is `$dictionary`, which this road does not take).
    private func writePlainDictionary(_ entries: StreamedFields, to output: inout StreamingOutput) throws(GiveUp) {
        for entry in entries {
            guard entry.key.bytes.first != UInt8(ascii: "$") else { throw GiveUp() }
            try output.countBytes(TextEscaping.writtenSize(entry.key.bytes))
        }
        try output.writeObject(count: entries.count, key: { entries[$0].key }, rejectingRepeatedKeys: true) { (output, index) throws(GiveUp) in
            try writeField(entries[index].value, to: &output)
        }
    }

    // MARK: Objects in $objects

    private func writeReference(_ uid: UInt64, to output: inout StreamingOutput) throws(GiveUp) {
        let (uidIndex, index) = try resolve(uid)
        context.open.append(uidIndex)
        defer { context.open.removeLast() }
        switch try raw(index) {
        case .asciiString(let start, let count) where uidIndex == 0 && StreamedKey(table.bytes(start, count)) == "$null":
            try output.countNode()
            output.writer.writeNull()
        case .utf16String where uidIndex == 0, .utf8String where uidIndex == 0:
            throw GiveUp()
        case .dictionary(let dictionary):
            try withArchivedEntries(of: dictionary) { (classIndex, fields) throws(GiveUp) in
                if let classIndex {
                    try writeObject(classIndex: classIndex, fields: fields, to: &output)
                } else {
                    try output.countNode()
                    try writePlainDictionary(fields, to: &output)
                }
            }
        default:
            try writeField(index, to: &output)
        }
    }

    /// An archived object: Foundation's classes as natural values, any other as `$class` and
    /// its fields.
    private func writeObject(classIndex: Int, fields: StreamedFields, to output: inout StreamingOutput) throws(GiveUp) {
        guard case .uid(let classUID) = try raw(classIndex) else { throw GiveUp() }
        let info = try classInfo(classUID)
        try output.countNode()
        try output.countBytes(info.nameBytes)
        for field in fields { try output.countBytes(TextEscaping.writtenSize(field.key.bytes)) }
        if let kind = info.foundation, try naturalForm(kind, fields: fields, depth: 0) {
            return try writeNatural(kind, fields: fields, to: &output)
        }
        guard fields.allSatisfy({ $0.key.bytes.first != UInt8(ascii: "$") }) else { throw GiveUp() }
        try output.writeObject(count: fields.count + 2, key: { $0 < 2 ? ($0 == 0 ? .className : .classChain) : fields[$0 - 2].key }) { (output, index) throws(GiveUp) in
            switch index {
            case 0: output.writer.writeString(info.name)
            case 1: try output.writeArray(count: info.chain.count) { (output, position) throws(GiveUp) in output.writer.writeString(info.chain[position]) }
            default: try writeField(fields[index - 2].value, to: &output)
            }
        }
    }

    private func writeNatural(_ kind: FoundationValues.Kind, fields: StreamedFields, to output: inout StreamingOutput) throws(GiveUp) {
        switch kind {
        case .array, .set, .orderedSet:
            // Written from a plain array only (Foundation's form); one behind a UID is not this road.
            guard case .array(let array) = try raw(fields[0].value) else { throw GiveUp() }
            let tag: StreamedKey? = kind == .set ? "$set" : kind == .orderedSet ? "$orderedSet" : nil
            try output.writeTagged(tag) { (output) throws(GiveUp) in
                try output.countNode()
                try output.writeArray(count: array.count) { (output, position) throws(GiveUp) in
                    try writeField(try member(position, of: array), to: &output)
                }
            }
        case .dictionary:
            guard let keysIndex = fields.first(where: { $0.key == "NS.keys" })?.value,
                  let valuesIndex = fields.first(where: { $0.key == "NS.objects" })?.value,
                  case .array(let keyArray) = try raw(keysIndex), case .array(let valueArray) = try raw(valuesIndex)
            else { throw GiveUp() }
            try output.countNode(3)
            try withFieldStorage(count: keyArray.count) { (entries) throws(GiveUp) in
                for position in 0..<keyArray.count {
                    entries.initializeElement(at: position, to: (try stringKey(try member(position, of: keyArray)), try member(position, of: valueArray)))
                }
                try writePlainDictionary(UnsafeBufferPointer(entries), to: &output)
            }
        case .string, .data:
            try writeField(fields[0].value, to: &output)
        case .date:
            try output.countNode()
            switch try resolvedScalar(fields[0].value) {
            case .real(let seconds): try output.writeDate(seconds)
            case .float(let seconds): try output.writeDate(Double(seconds))
            case .integer(let seconds): try output.writeDate(Double(seconds))
            default: throw GiveUp()
            }
        case .uuid:
            guard case .data(let start, let count) = try resolvedScalar(fields[0].value), count == 16 else { throw GiveUp() }
            try output.countNode(2)
            try output.writeTagged("$uuid") { (output) throws(GiveUp) in
                output.writer.writeString(ByteFormatting.uuidString(Array(table.bytes(start, count))))
            }
        case .url:
            let relative = fields.first(where: { $0.key == "NS.relative" })!.value
            try output.countNode(2)
            try output.writeObject("$url", "base") { (output, index) throws(GiveUp) in
                if index == 0 { try writeField(relative, to: &output) } else { output.writer.writeNull() }
            }
        case .identifierPathProxy:
            try output.writeTagged("$ref") { (output) throws(GiveUp) in try writeField(fields[0].value, to: &output) }
        }
    }

    /// Whether the decoder maps an object of a Foundation class with these fields to its natural
    /// value (`FoundationValues.naturalValue`), judged from the shapes the fields decode to.
    private func naturalForm(_ kind: FoundationValues.Kind, fields: StreamedFields, depth: Int) throws(GiveUp) -> Bool {
        func only(_ key: StreamedKey) -> Int? {
            fields.count == 1 && fields[0].key == key ? fields[0].value : nil
        }
        switch kind {
        case .array, .set, .orderedSet:
            guard let value = only("NS.objects") else {
                // The indexed form (NS.object.0 …, no field when empty) is the decoder's to map.
                let indexed: StreamedKey = "NS.object."
                if fields.count == 0 || fields.contains(where: { $0.key.bytes.starts(with: indexed.bytes) }) { throw GiveUp() }
                return false
            }
            return try shape(value, depth: depth).isArray
        case .dictionary:
            guard fields.count == 2,
                  let keys = fields.first(where: { $0.key == "NS.keys" })?.value,
                  let values = fields.first(where: { $0.key == "NS.objects" })?.value
            else { return false }
            let (keyShape, valueShape) = (try shape(keys, depth: depth), try shape(values, depth: depth))
            guard keyShape.isArray, valueShape.isArray else { return false }
            guard case .plainArray(let keyCount) = keyShape, case .plainArray(let valueCount) = valueShape else { throw GiveUp() }
            return keyCount == valueCount
        case .string, .identifierPathProxy:
            guard let value = only(kind == .string ? "NS.string" : "kObjectIdentifierPathProxyIdentifierPathKey") else { return false }
            return try shape(value, depth: depth) == .string
        case .data:
            guard let value = only("NS.data") else { return false }
            if case .data = try shape(value, depth: depth) { return true }
            return false
        case .date:
            guard let value = only("NS.time") else { return false }
            let time = try shape(value, depth: depth)
            return time == .real || time == .integer
        case .uuid:
            guard let value = only("NS.uuidbytes") else { return false }
            return try shape(value, depth: depth) == .data(count: 16)
        case .url:
            guard let relative = fields.first(where: { $0.key == "NS.relative" })?.value,
                  try shape(relative, depth: depth) == .string
            else { return false }
            guard let base = fields.first(where: { $0.key == "NS.base" })?.value else { return fields.count == 1 }
            switch try shape(base, depth: depth) {
            case .null: return fields.count == 2
            case .url: throw GiveUp()
            default: return false
            }
        }
    }

    /// What the value stored at `index` decodes to, as far as Foundation's mapping asks.
    private func shape(_ index: Int, depth: Int) throws(GiveUp) -> StreamedShape {
        guard depth < StreamingOutput.maximumLevel else { throw GiveUp() }
        let object = try raw(index)
        guard case .uid(let uid) = object else { return try StreamedShape(stored: object, table: table) }
        let (uidIndex, target) = try resolve(uid)
        context.open.append(uidIndex)
        defer { context.open.removeLast() }
        let stored = try raw(target)
        switch stored {
        case .asciiString(let start, let count) where uidIndex == 0 && StreamedKey(table.bytes(start, count)) == "$null":
            return .null
        case .utf16String where uidIndex == 0, .utf8String where uidIndex == 0:
            throw GiveUp()
        case .dictionary(let dictionary):
            return try withArchivedEntries(of: dictionary) { (classIndex, fields) throws(GiveUp) in
                guard let classIndex else { return .other }
                guard case .uid(let classUID) = try raw(classIndex) else { throw GiveUp() }
                let info = try classInfo(classUID)
                guard let kind = info.foundation else { return .other }
                guard try naturalForm(kind, fields: fields, depth: depth + 1) else { return .other }
                switch kind {
                case .array: return .arrayBehindReference
                case .string: return .string
                case .data: return try shape(fields[0].value, depth: depth + 1)
                case .url: return .url
                case .set, .orderedSet, .dictionary, .date, .uuid, .identifierPathProxy: return .other
                }
            }
        default:
            return try StreamedShape(stored: stored, table: table)
        }
    }

    // MARK: Lookups

    /// The entries of the dictionary the value at `index` decodes to: a property-list
    /// dictionary, in place or behind a UID, or an archived NSDictionary in Foundation's form.
    /// Nil when it decodes to anything else.
    func dictionaryEntries(_ index: Int) throws(GiveUp) -> [StreamedField]? {
        var stored = try raw(index)
        if case .uid(let uid) = stored {
            let (uidIndex, target) = try resolve(uid)
            guard uidIndex != 0 else { throw GiveUp() }
            stored = try raw(target)
        }
        guard case .dictionary(let dictionary) = stored else { return nil }
        return try withArchivedEntries(of: dictionary) { (classIndex, fields) throws(GiveUp) -> [StreamedField]? in
            guard let classIndex else { return Array(fields) }
            guard case .uid(let classUID) = try raw(classIndex) else { throw GiveUp() }
            let info = try classInfo(classUID)
            guard info.foundation == .dictionary, try naturalForm(.dictionary, fields: fields, depth: 0),
                  case .array(let keys) = try raw(fields.first { $0.key == "NS.keys" }!.value),
                  case .array(let values) = try raw(fields.first { $0.key == "NS.objects" }!.value)
            else { return nil }
            var entries: [StreamedField] = []
            entries.reserveCapacity(keys.count)
            for position in 0..<keys.count {
                entries.append((try stringKey(try member(position, of: keys)), try member(position, of: values)))
            }
            return entries
        }
    }

    /// A UID checked against `$objects` and the objects being written: its `$objects` position
    /// and table index.
    private func resolve(_ uid: UInt64) throws(GiveUp) -> (Int, Int) {
        // A long chain of references is left to the decoder too: it bounds the recursion.
        guard uid < UInt64(objects.count), context.open.count < 64, !context.open.contains(Int(uid)) else { throw GiveUp() }
        return (Int(uid), try member(Int(uid), of: objects))
    }

    /// A dictionary key of an archived dictionary: a string, in place or behind a UID.
    private func stringKey(_ index: Int) throws(GiveUp) -> StreamedKey {
        var stored = try raw(index)
        if case .uid(let uid) = stored {
            let (uidIndex, target) = try resolve(uid)
            guard uidIndex != 0 else { throw GiveUp() }
            stored = try raw(target)
        }
        guard case .asciiString(let start, let count) = stored else { throw GiveUp() }
        let bytes = table.bytes(start, count)
        guard bytes.isASCII else { throw GiveUp() }
        return StreamedKey(bytes)
    }

    /// A scalar in place or behind a UID (not `$null`).
    func resolvedScalar(_ index: Int) throws(GiveUp) -> BinaryPropertyList.RawObject {
        let stored = try raw(index)
        guard case .uid(let uid) = stored else { return stored }
        let (uidIndex, target) = try resolve(uid)
        guard uidIndex != 0 else { throw GiveUp() }
        return try raw(target)
    }

    private func classInfo(_ uid: UInt64) throws(GiveUp) -> StreamedClass {
        if let known = context.archiveClass(Int(uid)) { return known }
        guard uid < UInt64(objects.count), case .dictionary(let description) = try raw(try member(Int(uid), of: objects)) else { throw GiveUp() }
        // The description's keys read once, all ASCII strings (the first of repeated keys counts).
        var nameIndex: Int?, chainIndex: Int?
        for position in 0..<description.count {
            switch StreamedKey(try Self.keyBytes(table, try member(position, of: description))) {
            case "$classname" where nameIndex == nil: nameIndex = try member(description.count + position, of: description)
            case "$classes" where chainIndex == nil: chainIndex = try member(description.count + position, of: description)
            case "$classhints": throw GiveUp()   // shown by the decoder's output only
            default: break
            }
        }
        guard let nameIndex else { throw GiveUp() }
        let info: StreamedClass
        if let interned = try internedClass(nameIndex, chainIndex: chainIndex) {
            info = interned
        } else {
            info = try describedClass(nameIndex, chainIndex: chainIndex)
        }
        context.remember(info, uid: Int(uid))
        return info
    }

    /// The class of a description whose names are all ASCII strings, made once per thread; nil
    /// for any other description.
    private func internedClass(_ nameIndex: Int, chainIndex: Int?) throws(GiveUp) -> StreamedClass? {
        guard case .asciiString(let nameStart, let nameCount) = try raw(nameIndex) else { return nil }
        var chainNames: PropertyListContainer?
        if let chainIndex, case .array(let names) = try raw(chainIndex) { chainNames = names }
        // Most archives describe the same few classes again: compare with those byte for byte
        // first (their names are ASCII, so equal bytes are ASCII too).
        if let known = try context.knownClass(named: table.bytes(nameStart, nameCount), where: { (known) throws(GiveUp) in try hasChain(known, chainNames) }) {
            return known
        }
        guard let name = try asciiKey(nameIndex) else { return nil }
        context.chain.removeAll(keepingCapacity: true)
        if let names = chainNames {
            for position in 0..<names.count {
                switch try raw(try member(position, of: names)) {
                case .asciiString, .utf16String, .utf8String:
                    guard let superclass = try asciiKey(try member(position, of: names)) else { return nil }
                    context.chain.append(superclass)
                default:
                    continue  // Not a name: left out, as the decoder does.
                }
            }
        } else {
            context.chain.append(name)
        }
        return context.interned(name: name, chain: context.chain)
    }

    /// Whether the names in `chain` (a `$classes` array; nil when there is none) that are
    /// strings are `known`'s chain, each an ASCII string of the same bytes.
    private func hasChain(_ known: StreamedClass, _ chain: PropertyListContainer?) throws(GiveUp) -> Bool {
        guard let chain else { return known.chainIsName }
        var matched = 0
        for position in 0..<chain.count {
            switch try raw(try member(position, of: chain)) {
            case .asciiString(let start, let count):
                guard matched < known.chainCount, known.hasChainName(matched, table.bytes(start, count)) else { return false }
                matched += 1
            case .utf16String, .utf8String:
                return false
            default:
                continue  // Not a name: left out, as the decoder does.
            }
        }
        return matched == known.chainCount
    }

    /// The class of any description, read into strings as the decoder reads it.
    private func describedClass(_ nameIndex: Int, chainIndex: Int?) throws(GiveUp) -> StreamedClass {
        guard let name = try? table.string(nameIndex) else { throw GiveUp() }
        var chain = [name]
        if let chainIndex, case .array(let names) = try raw(chainIndex) {
            chain = []
            for position in 0..<names.count {
                guard let superclass = try? table.string(try member(position, of: names)) else {
                    if (try? table.object(try member(position, of: names))) == nil { throw GiveUp() }
                    continue
                }
                chain.append(superclass)
            }
        }
        return StreamedClass(name: name, chain: chain)
    }

    /// The bytes of an ASCII string object that holds only ASCII; nil for any other object.
    private func asciiKey(_ index: Int) throws(GiveUp) -> StreamedKey? {
        guard case .asciiString(let start, let count) = try raw(index) else { return nil }
        let bytes = table.bytes(start, count)
        return bytes.isASCII ? StreamedKey(bytes) : nil
    }

    private func raw(_ index: Int) throws(GiveUp) -> BinaryPropertyList.RawObject {
        try Self.raw(table, index)
    }

    private func member(_ position: Int, of container: PropertyListContainer) throws(GiveUp) -> Int {
        try Self.member(table, position, of: container)
    }

    private static func raw(_ table: BinaryPropertyList, _ index: Int) throws(GiveUp) -> BinaryPropertyList.RawObject {
        do throws(PropertyListError) { return try table.rawObject(index) } catch { throw GiveUp() }
    }

    private static func member(_ table: BinaryPropertyList, _ position: Int, of container: PropertyListContainer) throws(GiveUp) -> Int {
        do throws(PropertyListError) { return try table.member(position, of: container) } catch { throw GiveUp() }
    }

    /// A key: an ASCII string object whose bytes are all ASCII.
    private static func keyBytes(_ table: BinaryPropertyList, _ index: Int) throws(GiveUp) -> UnsafeRawBufferPointer {
        guard case .asciiString(let start, let count) = try raw(table, index) else { throw GiveUp() }
        let bytes = table.bytes(start, count)
        guard bytes.isASCII else { throw GiveUp() }
        return bytes
    }
}

/// Why the streaming road was left: the caller decodes the file the usual way.
struct GiveUp: Error {}

extension BinaryPropertyList {
    /// `count` bytes of the buffer from `start` (bounds checked by `rawObject`).
    func bytes(_ start: Int, _ count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[start..<(start + count)])
    }
}

/// A key and the table index of its value.
typealias StreamedField = (key: StreamedKey, value: Int)
/// Fields held on the stack while they are written (see `withFieldStorage`).
typealias StreamedFields = UnsafeBufferPointer<StreamedField>

/// Calls `body` with room for `count` fields, on the stack when there are few (the standard
/// library's temporary allocation, which uses the heap for large counts).
func withFieldStorage<T>(count: Int, _ body: (UnsafeMutableBufferPointer<StreamedField>) throws(GiveUp) -> T) throws(GiveUp) -> T {
    let result: Result<T, GiveUp> = withUnsafeTemporaryAllocation(of: StreamedField.self, capacity: count) { storage in
        Result { () throws(GiveUp) in try body(storage) }
    }
    return try result.get()
}
