/// Writes the files a tape's values describe, walking them once (`TapeWalker`): an `archive`
/// node becomes an NSKeyedArchiver archive as Foundation writes one (`$archiver`, `$version`
/// 100000, `$top`, `$objects` with `$null` first, each object a dictionary with its `$class`), and
/// every archive nested in it becomes data holding its own. A plain property list's values are
/// written as themselves.
///
/// How each kind is archived is Foundation's (docs/format.md): collections as `NS.objects` (and
/// `NS.keys`), a date as `NS.time`, a UUID as `NS.uuidbytes`, a URL as `NS.base` and
/// `NS.relative`, a reference to a saved object as a `_UIObjectIdentifierPathProxy`, an NSValue
/// as `NS.special` and its structure's fields; numbers in an object's fields inline, as
/// `encodeInteger:forKey:` and its kin write them.
enum KeyedArchiveWriter {
    /// The file `root` describes: an archive node, or (`plain`) a plain property list's root.
    /// In `format` (the outer file: nested archives are binary, as UIKit writes them); nil when
    /// the XML format cannot spell a date the file holds.
    static func write(_ root: TapeNode, plain: Bool, format: PropertyListFormat = .binary, in view: TapeView) -> [UInt8]? {
        var writing = ArchiveWriting(view: view, format: format)
        if plain { writing.openLevel(keyed: false) }
        var walker = TapeWalker()
        walker.walk(root, in: view, &writing)
        // A plain property list's root is the one reference left.
        if plain { return writing.levels[0].file(root: writing.references[0], format: format) }
        return writing.result
    }
}

private struct ArchiveWriting: TapeVisitor {
    let view: TapeView
    /// The files being written, outermost first: the document's, then each nested archive
    /// whose members are being walked (`open` of them; those past it are kept for the next
    /// archives of their depth, so that each does not grow its storage anew).
    var levels: [Level] = []
    var open = 0
    /// Where a nested archive's writer waits while its file is written into its parent's.
    var spare = BinaryPropertyListWriter()
    /// The references to the members walked so far of every open container, one after another
    /// (a container's start in the descent's mark).
    var references: [Int] = []
    let format: PropertyListFormat
    var result: [UInt8]?

    struct Level {
        var plist = BinaryPropertyListWriter()
        /// A keyed archive's `$objects`: each entry's object in `plist` (−1 while its members
        /// are being walked).
        var objects: [Int] = []
        /// The entry of each string written as one, by its object in `plist` (+1; 0: none).
        var stringEntries: [Int32] = []
        /// The entry of each class, by its `ClassKey.key` past the Foundation classes' negative
        /// ones, for the file numbered `file` (an entry of an earlier file is none).
        var classes: [(file: Int, entry: Int)] = []
        var file = 0
        var keyed: Bool

        init(keyed: Bool) {
            self.keyed = keyed
            if keyed { objects.append(plist.string(name: .null)) }
        }

        /// Empty again, as `init(keyed:)` makes it, keeping its storage.
        mutating func reset(keyed: Bool) {
            plist.reset()
            objects.removeAll(keepingCapacity: true)
            stringEntries.removeAll(keepingCapacity: true)
            file += 1
            self.keyed = keyed
            if keyed { objects.append(plist.string(name: .null)) }
        }

        /// A reference to a new entry of `$objects` holding `object`.
        mutating func entry(_ object: Int) -> Int {
            objects.append(object)
            return plist.uid(UInt64(objects.count - 1))
        }

        /// A reference to the entry holding the string of UTF-8 `text`, one entry for each
        /// distinct string.
        mutating func stringEntry(_ text: UnsafeRawBufferPointer) -> Int {
            let object = plist.string(utf8: text)
            if object < stringEntries.count, stringEntries[object] > 0 { return plist.uid(UInt64(stringEntries[object] - 1)) }
            if object >= stringEntries.count { stringEntries.append(contentsOf: repeatElement(0, count: max(object + 1 - stringEntries.count, stringEntries.count))) }
            stringEntries[object] = Int32(objects.count + 1)
            return entry(object)
        }

        mutating func stringEntry(_ string: String) -> Int {
            var string = string
            return string.withUTF8 { stringEntry(UnsafeRawBufferPointer($0)) }
        }

        /// A reference to `$class`'s entry for `objectClass` (see `classes`).
        mutating func classEntry(_ objectClass: ClassKey) -> Int {
            let slot = objectClass.key + ClassKey.foundationCount
            if slot < classes.count, classes[slot].file == file { return plist.uid(UInt64(classes[slot].entry)) }
            let nameKey = plist.string(name: .className)
            let name: Int, chainKey: Int, chain: Int
            if let foundationName = objectClass.foundationName {
                name = plist.string(name: foundationName)
                chainKey = plist.string(name: .classChain)
                chain = plist.array(name, plist.string(name: .rootClass))
            } else {
                name = plist.string(objectClass.tapeClass.name)
                chainKey = plist.string(name: .classChain)
                chain = strings(objectClass.tapeClass.chain)
            }
            var (hintsKey, hints) = (-1, -1)
            if let hintNames = objectClass.tapeClass.hints { (hintsKey, hints) = (plist.string(name: .classHints), strings(hintNames)) }
            if slot >= classes.count { classes.append(contentsOf: repeatElement((file: -1, entry: 0), count: slot + 1 - classes.count)) }
            classes[slot] = (file, objects.count)
            return entry(plist.dictionary(count: hints < 0 ? 2 : 3, key: { $0 == 0 ? nameKey : $0 == 1 ? chainKey : hintsKey },
                                          value: { $0 == 0 ? name : $0 == 1 ? chain : hints }))
        }

        /// An array of the strings `names`.
        private mutating func strings(_ names: [String]) -> Int {
            withUnsafeTemporaryAllocation(of: Int.self, capacity: names.count) { references in
                for (index, name) in names.enumerated() { references[index] = plist.string(name) }
                return plist.array(references)
            }
        }

        /// An object of `objectClass` with the field `name` (one Foundation gives) holding
        /// `value`'s reference, and `name2` holding `value2` when there is one, in a new entry or
        /// in the one reserved at `uid`.
        mutating func object(_ objectClass: ClassKey, _ name: WriterName, _ value: Int, _ name2: WriterName? = nil, _ value2: Int = -1, uid: Int? = nil) -> Int {
            let key = plist.string(name: name)
            let key2 = name2.map { plist.string(name: $0) } ?? -1
            let classReference = classEntry(objectClass)
            let classKey = plist.string(name: .objectClass)
            let keys = (key, key2, classKey), values = (value, value2, classReference)
            let count = key2 < 0 ? 2 : 3
            let dictionary = plist.dictionary(count: count, key: { $0 == 0 ? keys.0 : $0 == count - 1 ? keys.2 : keys.1 },
                                              value: { $0 == 0 ? values.0 : $0 == count - 1 ? values.2 : values.1 })
            return place(dictionary, uid: uid)
        }

        /// An object of `objectClass` whose fields are `pairs` (name, value, name, value…).
        mutating func object(_ objectClass: ClassKey, pairs: ArraySlice<Int>, uid: Int? = nil) -> Int {
            let classReference = classEntry(objectClass)
            let classKey = plist.string(name: .objectClass)
            let (first, count) = (pairs.startIndex, pairs.count / 2)
            let dictionary = plist.dictionary(count: count + 1, key: { $0 < count ? pairs[first + 2 * $0] : classKey },
                                              value: { $0 < count ? pairs[first + 2 * $0 + 1] : classReference })
            return place(dictionary, uid: uid)
        }

        /// A reference to `object`, in a new entry or in the one reserved at `uid`.
        private mutating func place(_ object: Int, uid: Int?) -> Int {
            guard let uid else { return entry(object) }
            objects[uid] = object
            return plist.uid(UInt64(uid))
        }

        /// The file of root object `root`, in `format` (see `BinaryPropertyListWriter.xml`).
        func file(root: Int, format: PropertyListFormat) -> [UInt8]? {
            format == .xml ? plist.xml(top: root) : plist.bytes(top: root)
        }

        /// The archive's root object, `$top` holding the pairs given.
        mutating func archiveRoot(top pairs: ArraySlice<Int>) -> Int {
            let top = plist.dictionary(pairs: pairs)
            let (versionKey, version) = (plist.string(name: .version), plist.integer(100_000))
            let (archiverKey, archiver) = (plist.string(name: .archiver), plist.string(name: .keyedArchiver))
            let topKey = plist.string(name: .top)
            let (objectsKey, objectsArray) = (plist.string(name: .objects), plist.array(objects))
            return plist.dictionary(count: 4, key: { $0 == 0 ? versionKey : $0 == 1 ? archiverKey : $0 == 2 ? topKey : objectsKey },
                                    value: { $0 == 0 ? version : $0 == 1 ? archiver : $0 == 2 ? top : objectsArray })
        }
    }

    init(view: TapeView, format: PropertyListFormat) {
        self.view = view
        self.format = format
    }

    /// Starts the file of an archive (`keyed`) or plain property list nested in the open ones.
    mutating func openLevel(keyed: Bool) {
        if open < levels.count {
            levels[open].reset(keyed: keyed)
        } else {
            levels.append(Level(keyed: keyed))
        }
        open += 1
    }

    /// A class, and what its entry is found by: its index in the tape's classes, or for the
    /// Foundation classes the writer names itself a negative number of their own.
    struct ClassKey {
        /// How many Foundation classes have a key (below 0) of their own.
        static let foundationCount = 8

        let key: Int
        let tapeClass: TapeClass
        /// A Foundation class's name, which the writer gives (its chain: it, then NSObject).
        var foundationName: WriterName?
    }

    static func foundationClass(_ name: WriterName, _ key: Int) -> ClassKey {
        let text = name.text.description
        return ClassKey(key: key, tapeClass: TapeClass(name: text, chain: [text, "NSObject"], hints: nil), foundationName: name)
    }

    static let arrayClass = foundationClass(.arrayClass, -1), setClass = foundationClass(.setClass, -2), orderedSetClass = foundationClass(.orderedSetClass, -3)
    static let dictionaryClass = foundationClass(.dictionaryClass, -4), dateClass = foundationClass(.dateClass, -5), uuidClass = foundationClass(.uuidClass, -6)
    static let urlClass = foundationClass(.urlClass, -7), proxyClass = foundationClass(.proxyClass, -8)

    /// An object node's class.
    static func tapeClass(of node: TapeNode, in view: TapeView) -> ClassKey {
        ClassKey(key: node.classIndex, tapeClass: view.classes[node.classIndex])
    }

    mutating func enter(_ node: TapeNode, at place: TapePlace, walker: inout TapeWalker) -> TapeDescent {
        let last = open - 1
        let named = place.container.kind == .archive || place.container.kind == .object
        if place.role == .key, named {
            // A field's name is a key of the object's dictionary, not an entry of `$objects`.
            references.append(levels[last].plist.string(utf8: view.bytes(of: node)))
            return .none
        }
        switch node.kind {
        case .archive:
            openLevel(keyed: true)
            return .all(mark: references.count)
        case .array, .set, .orderedSet, .dictionary, .object, .url:
            guard levels[last].keyed else { return .all(mark: references.count) }
            // The entry is the object's before its members', as NSKeyedArchiver numbers them.
            levels[last].objects.append(-1)
            return .all(mark: references.count | (levels[last].objects.count - 1) << 32)
        default:
            let reference = levels[last].keyed ? Self.keyedLeaf(node, inline: place.role == .value && named, view: view, in: &levels[last]) : Self.plainLeaf(node, view: view, in: &levels[last])
            references.append(reference)
            return .none
        }
    }

    mutating func exit(_ node: TapeNode, at place: TapePlace, mark: Int) {
        let start = mark & 0xFFFF_FFFF
        let last = open - 1
        // The members are read in place (`references[start...]`): a slice kept in a variable
        // would make removing them copy every reference still pending.
        let reference: Int
        switch node.kind {
        case .archive:
            let root = levels[last].archiveRoot(top: references[start...])
            open -= 1
            references.removeSubrange(start...)
            guard last > 0 else { return result = levels[last].file(root: root, format: format) }
            let parent = last - 1
            // Written into the parent's file in place: the nested file's writer is moved out of
            // the array while it is read (a move, not a copy of its storage), then back.
            swap(&levels[last].plist, &spare)
            let data = levels[parent].plist.data(file: spare, top: root)
            swap(&levels[last].plist, &spare)
            references.append(levels[parent].keyed ? levels[parent].entry(data) : data)
            return
        case _ where !levels[last].keyed:
            reference = node.kind == .dictionary ? levels[last].plist.dictionary(pairs: references[start...]) : levels[last].plist.array(references[start...])
        default:
            reference = Self.keyedContainer(node, members: references[start...], uid: mark >> 32, view: view, in: &levels[last])
        }
        references.removeSubrange(start...)
        references.append(reference)
    }

    /// A container's object, in the entry reserved for it.
    private static func keyedContainer(_ node: TapeNode, members: ArraySlice<Int>, uid: Int, view: TapeView, in level: inout Level) -> Int {
        switch node.kind {
        case .array, .set, .orderedSet:
            let elements = level.plist.array(members)
            let objectClass = node.kind == .array ? Self.arrayClass : node.kind == .set ? Self.setClass : Self.orderedSetClass
            return level.object(objectClass, .objectsField, elements, uid: uid)
        case .dictionary:
            let keys = level.plist.array(stride(from: members.startIndex, to: members.endIndex, by: 2).lazy.map { members[$0] })
            let values = level.plist.array(stride(from: members.startIndex + 1, to: members.endIndex, by: 2).lazy.map { members[$0] })
            return level.object(Self.dictionaryClass, .keysField, keys, .objectsField, values, uid: uid)
        case .url:
            return level.object(Self.urlClass, .baseField, members[members.startIndex + 1], .relativeField, members[members.startIndex], uid: uid)
        default:
            return level.object(tapeClass(of: node, in: view), pairs: members, uid: uid)
        }
    }

    /// A value that holds no other, in a keyed archive: a number in an object's field inline
    /// (`inline`), anything else as an entry of `$objects`.
    private static func keyedLeaf(_ node: TapeNode, inline: Bool, view: TapeView, in level: inout Level) -> Int {
        switch node.kind {
        case .null:
            return level.plist.uid(0)
        case .boolean, .integer, .real, .float:
            let number = plainLeaf(node, view: view, in: &level)
            return inline ? number : level.entry(number)
        case .cycle:
            return level.plist.uid(node.payload)
        case .string:
            return level.stringEntry(view.bytes(of: node))
        case .data:
            return level.entry(level.plist.data(view.bytes(of: node)))
        case .date:
            return level.object(Self.dateClass, .timeField, level.plist.real(Double(bitPattern: node.payload)))
        case .uuid:
            return level.object(Self.uuidClass, .uuidBytesField, level.plist.data(view.bytes(of: node)))
        case .reference:
            return level.object(Self.proxyClass, .proxyPathField, level.stringEntry(view.bytes(of: node)))
        case .special:
            // `NS.special` and the structure's fields: integers and reals inline, strings as entries.
            var pairs: [Int] = []
            for position in 0..<node.memberCount {
                let value = view.value(position, of: node)
                let reference = value.kind == .string ? level.stringEntry(view.bytes(of: value)) : plainLeaf(value, view: view, in: &level)
                pairs += [level.plist.string(utf8: view.bytes(of: view.member(position, of: node))), reference]
            }
            return level.object(tapeClass(of: node, in: view), pairs: pairs[...])
        case .array, .set, .orderedSet, .dictionary, .object, .url, .archive:
            preconditionFailure("a container's members are walked")
        }
    }

    /// A value of a plain property list (and a number anywhere): itself.
    private static func plainLeaf(_ node: TapeNode, view: TapeView, in level: inout Level) -> Int {
        switch view.scalar(node) {
        case .boolean(let value)?: return level.plist.boolean(value)
        case .integer(let value)?: return level.plist.integer(value)
        case .real(let value)?: return level.plist.real(value)
        case .float(let value)?: return level.plist.float(value)
        case .date(let seconds)?: return level.plist.date(seconds)
        default: break
        }
        switch node.kind {
        case .string: return level.plist.string(utf8: view.bytes(of: node))
        case .data: return level.plist.data(view.bytes(of: node))
        default: preconditionFailure("a plain property list holds no \(node.kind) (the document reader refuses it)")
        }
    }
}
