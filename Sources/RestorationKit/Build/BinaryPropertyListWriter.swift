/// Writes a binary property list (`bplist00`) as CoreFoundation lays one out: a header, the
/// objects, a table of their offsets and a trailer. Objects are added one by one and referred to
/// by index; a container's references are sized when the file is written, once the number of
/// objects is known.
///
/// Written here rather than by libplist: libplist 2.2.0 (Debian's) writes a real as 4 bytes
/// whenever its value fits a float, so an 8-byte `1.5` would come back as a different type; it
/// clamps dates to 32-bit seconds and has no 16-byte integers (see docs/format.md).
struct BinaryPropertyListWriter {
    /// The objects, each as its marker byte and content; containers' content is their
    /// references, kept apart until the file is written.
    private var objects: [Object] = []
    /// The leaves' encodings, one after another: `content[..<contentEnd]`. The array is kept
    /// longer than that (zeros past the end), so that a leaf is written with plain stores.
    private var content: [UInt8] = []
    private var contentEnd = 0
    private var references: [Int] = []
    /// The bytes the containers' markers take: with the leaves' (`contentEnd`) and the
    /// references, the size of the objects, known without a pass over them.
    private var containerMarkerBytes = 0
    private var strings = ByteStringTable()
    /// The object of each name the writer gives (`WriterName`) that the file holds, −1 for none.
    private var names = [Int](repeating: -1, count: WriterName.allCases.count)
    /// The object of each UID written, by its value (UIDs count up from 0), −1 for none.
    private var uids: [Int] = []

    private struct Object {
        var isContainer: Bool
        var marker: UInt8
        /// Leaves: where their encoding (marker included) is in `content`; containers: where
        /// their references are in `references` (a dictionary's keys, then its values).
        var start: Int
        var count: Int
    }

    var count: Int { objects.count }

    /// A leaf of at most `maxCount` bytes, which `body` writes.
    @inline(__always)
    private mutating func appendLeaf(maxCount: Int, _ body: (inout Cursor) -> Void) -> Int {
        let start = contentEnd
        if start + maxCount > content.count {
            content.append(contentsOf: repeatElement(0, count: max(start + maxCount - content.count, content.count, 4096)))
        }
        let count = content.withUnsafeMutableBufferPointer { buffer in
            var out = Cursor(buffer: UnsafeMutableBufferPointer(rebasing: buffer[start..<(start + maxCount)]))
            body(&out)
            return out.position
        }
        contentEnd += count
        objects.append(Object(isContainer: false, marker: 0, start: start, count: count))
        return objects.count - 1
    }

    /// The most bytes a marker with a length takes.
    private static let maxMarkerSize = 10

    /// 1, 2, 4, 8 or 16: the bytes an integer object holds `value` in (1, 2 or 4 when it is
    /// not negative and fits, 8 in two's complement, or 16 past 64 bits, as CoreFoundation
    /// writes them).
    private static func integerSize(_ value: Int128) -> Int {
        switch value {
        case 0...0xFF: 1
        case 0x100...0xFFFF: 2
        case 0x1_0000...0xFFFF_FFFF: 4
        case Int128(Int64.min)...Int128(Int64.max): 8
        default: 16
        }
    }

    mutating func boolean(_ value: Bool) -> Int {
        appendLeaf(maxCount: 1) { $0.put(value ? 0x09 : 0x08) }
    }

    mutating func integer(_ value: Int128) -> Int {
        appendLeaf(maxCount: 17) { $0.putInteger(value) }
    }

    mutating func real(_ value: Double) -> Int {
        appendLeaf(maxCount: 9) { out in
            out.put(0x23)
            out.put(Int(bitPattern: UInt(value.bitPattern)), size: 8)
        }
    }

    mutating func float(_ value: Float) -> Int {
        appendLeaf(maxCount: 5) { out in
            out.put(0x22)
            out.put(Int(value.bitPattern), size: 4)
        }
    }

    /// Seconds since 2001-01-01T00:00:00Z.
    mutating func date(_ seconds: Double) -> Int {
        appendLeaf(maxCount: 9) { out in
            out.put(0x33)
            out.put(Int(bitPattern: UInt(seconds.bitPattern)), size: 8)
        }
    }

    mutating func data(_ data: UnsafeRawBufferPointer) -> Int {
        appendLeaf(maxCount: Self.maxMarkerSize + data.count) { out in
            out.putMarker(0x40, length: data.count)
            out.put(data)
        }
    }

    /// A string, ASCII in one byte a character, anything else in UTF-16; each distinct string
    /// is written once (keys and class names repeat in every object), strings being the same when
    /// their bytes are (see `ExactText`).
    mutating func string(_ string: String) -> Int {
        var string = string
        return string.withUTF8 { self.string(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// A name the writer gives (`$class`, `NS.objects`…): found by its number once the file
    /// holds it. A string of the same bytes from the document is noted as the name when it is
    /// added, so a name not noted is not in the table, and is added without a look.
    mutating func string(name: WriterName) -> Int {
        let known = names[name.rawValue]
        if known >= 0 { return known }
        let text = name.bytes
        let index = asciiString(text)
        strings.insert(text, hash: strings.nameHashes[name.rawValue], object: index, inContentAt: contentEnd - text.count)
        names[name.rawValue] = index
        return index
    }

    /// A string from its UTF-8 (well formed: the tape's strings are).
    mutating func string(utf8 text: UnsafeRawBufferPointer) -> Int {
        let (hash, isASCII) = strings.hash(text)
        let slot: Int
        switch content.withUnsafeBytes({ strings.find(text, hash: hash, content: $0) }) {
        case .found(let object): return object
        case .absent(let empty): slot = empty
        }
        let index: Int
        if isASCII {
            index = asciiString(text)
            // Its bytes end its encoding: the table finds them there.
            strings.insert(text, hash: hash, object: index, inContentAt: contentEnd - text.count, slot: slot)
        } else {
            let units = Array(String(decoding: text, as: UTF8.self).utf16)
            index = appendLeaf(maxCount: Self.maxMarkerSize + 2 * units.count) { out in
                out.putMarker(0x60, length: units.count)
                for unit in units { out.put(Int(unit), size: 2) }
            }
            strings.insert(text, hash: hash, object: index, inContentAt: nil, slot: slot)
        }
        if let name = strings.name(hash: hash, text) { names[name.rawValue] = index }
        return index
    }

    /// An ASCII string's object, one byte a character.
    @inline(__always)
    private mutating func asciiString(_ text: UnsafeRawBufferPointer) -> Int {
        appendLeaf(maxCount: Self.maxMarkerSize + text.count) { out in
            out.putMarker(0x50, length: text.count)
            out.put(text)
        }
    }

    /// A keyed archive's reference (a UID), in as few bytes as hold it.
    mutating func uid(_ value: UInt64) -> Int {
        if value < UInt64(uids.count), uids[Int(value)] >= 0 { return uids[Int(value)] }
        let index = appendLeaf(maxCount: 9) { out in
            let size = Self.size(of: value)
            out.put(0x80 | UInt8(size - 1))
            out.put(Int(bitPattern: UInt(value)), size: size)
        }
        // UIDs are the entries of `$objects`, counted from 0: a table of them all is small.
        if value < 1 << 26 {
            if value >= UInt64(uids.count) { uids.append(contentsOf: repeatElement(-1, count: max(Int(value) + 1 - uids.count, uids.count))) }
            uids[Int(value)] = index
        }
        return index
    }

    mutating func array<Elements: Collection<Int>>(_ elements: Elements) -> Int {
        let start = references.count
        references.append(contentsOf: elements)
        return appendContainer(marker: 0xA0, start: start, count: elements.count)
    }

    /// A container whose references are `references[start...]` (a dictionary's keys, then its
    /// values), `count` of them or of its entries.
    @inline(__always)
    private mutating func appendContainer(marker: UInt8, start: Int, count: Int) -> Int {
        containerMarkerBytes += Self.markerSize(length: count)
        objects.append(Object(isContainer: true, marker: marker, start: start, count: count))
        return objects.count - 1
    }

    /// An array of two objects.
    mutating func array(_ first: Int, _ second: Int) -> Int {
        let start = references.count
        references.append(first)
        references.append(second)
        return appendContainer(marker: 0xA0, start: start, count: 2)
    }

    /// A dictionary of the keys and values given in turn: key, value, key, value.
    mutating func dictionary(pairs: ArraySlice<Int>) -> Int {
        let first = pairs.startIndex
        return dictionary(count: pairs.count / 2, key: { pairs[first + 2 * $0] }, value: { pairs[first + 2 * $0 + 1] })
    }

    /// A dictionary of `count` entries, entry `n` being `key(n)` and `value(n)`: what a caller
    /// adds to pairs it has is given without making an array of them all.
    @inline(__always)
    mutating func dictionary(count: Int, key: (Int) -> Int, value: (Int) -> Int) -> Int {
        let start = references.count
        references.reserveCapacity(start + 2 * count)
        for entry in 0..<count { references.append(key(entry)) }
        for entry in 0..<count { references.append(value(entry)) }
        return appendContainer(marker: 0xD0, start: start, count: count)
    }

    /// Empty again, keeping what its storage grew to: one writer serves every archive of a
    /// nesting level in turn.
    mutating func reset() {
        objects.removeAll(keepingCapacity: true)
        contentEnd = 0
        references.removeAll(keepingCapacity: true)
        containerMarkerBytes = 0
        uids.removeAll(keepingCapacity: true)
        strings.reset()
        names.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
    }

    /// The file, `top` its root object: sized first, then written in one buffer.
    func bytes(top: Int) -> [UInt8] {
        let layout = layout()
        return [UInt8](unsafeUninitializedCapacity: layout.size) { buffer, initialized in
            write(top: top, layout: layout, into: buffer)
            initialized = layout.size
        }
    }

    /// The file of `nested`, `top` its root object, as a data object of this one: written in
    /// place, not made first.
    mutating func data(file nested: borrowing BinaryPropertyListWriter, top: Int) -> Int {
        let layout = nested.layout()
        return appendLeaf(maxCount: Self.maxMarkerSize + layout.size) { out in
            out.putMarker(0x40, length: layout.size)
            nested.write(top: top, layout: layout, into: UnsafeMutableBufferPointer(rebasing: out.buffer[out.position..<(out.position + layout.size)]))
            out.position += layout.size
        }
    }

    /// The sizes a file's parts take: its references, its offsets, and the whole.
    private struct Layout {
        var referenceSize: Int
        var tableOffset: Int
        var offsetSize: Int
        var size: Int
    }

    private func layout() -> Layout {
        let referenceSize = Self.size(of: UInt64(objects.count))
        let end = 8 + contentEnd + containerMarkerBytes + references.count * referenceSize
        let offsetSize = Self.size(of: UInt64(end))
        return Layout(referenceSize: referenceSize, tableOffset: end, offsetSize: offsetSize, size: end + objects.count * offsetSize + 32)
    }

    /// Writes the file into `buffer`, `layout.size` bytes: the objects, and each one's offset
    /// in the table after them as it is written.
    private func write(top: Int, layout: Layout, into buffer: UnsafeMutableBufferPointer<UInt8>) {
        var out = Cursor(buffer: buffer)
        var table = Cursor(buffer: buffer, position: layout.tableOffset)
        out.put(Array("bplist00".utf8))
        // The sizes of nested archives (few objects, a few kilobytes) and of a large file, each
        // written by a loop of its own stores; any other by the same loop over eight bytes.
        switch (layout.referenceSize, layout.offsetSize) {
        case (1, 1): writeObjects(&out, &table, references: UInt8.self, offsets: UInt8.self)
        case (1, 2): writeObjects(&out, &table, references: UInt8.self, offsets: UInt16.self)
        case (2, 2): writeObjects(&out, &table, references: UInt16.self, offsets: UInt16.self)
        case (2, 4): writeObjects(&out, &table, references: UInt16.self, offsets: UInt32.self)
        case (4, 4): writeObjects(&out, &table, references: UInt32.self, offsets: UInt32.self)
        default: writeObjects(&out, &table, references: UInt64.self, offsets: UInt64.self, sizes: (layout.referenceSize, layout.offsetSize))
        }
        precondition(out.position == layout.tableOffset, "the objects take the room they were sized for")
        table.put([0, 0, 0, 0, 0, 0, UInt8(layout.offsetSize), UInt8(layout.referenceSize)])
        table.put(objects.count, size: 8)
        table.put(top, size: 8)
        table.put(layout.tableOffset, size: 8)
        precondition(table.position == layout.size, "the file takes the room it was sized for")
    }

    /// The objects, each one's offset put in `table` as it is written; references and offsets
    /// in `Reference` and `Offset`, or in their low `sizes` bytes when given.
    @inline(__always)
    private func writeObjects<Reference: FixedWidthInteger, Offset: FixedWidthInteger>(
        _ out: inout Cursor, _ table: inout Cursor, references _: Reference.Type, offsets _: Offset.Type, sizes: (Int, Int)? = nil
    ) {
        content.withUnsafeBufferPointer { content in
            references.withUnsafeBufferPointer { references in
                // Leaves added one after another have their encodings one after another in
                // `content`: each such run is copied at once.
                var run = 0..<0
                var offset = 8
                for object in objects {
                    if let sizes { table.put(offset, size: sizes.1) } else { table.putBigEndian(Offset(truncatingIfNeeded: offset)) }
                    guard object.isContainer else {
                        if object.start == run.upperBound {
                            run = run.lowerBound..<(object.start + object.count)
                        } else {
                            out.putRun(UnsafeBufferPointer(rebasing: content[run]))
                            run = object.start..<(object.start + object.count)
                        }
                        offset += object.count
                        continue
                    }
                    out.putRun(UnsafeBufferPointer(rebasing: content[run]))
                    run = run.upperBound..<run.upperBound
                    out.putMarker(object.marker, length: object.count)
                    let count = object.marker == 0xD0 ? 2 * object.count : object.count
                    let block = UnsafeBufferPointer(rebasing: references[object.start..<(object.start + count)])
                    if let sizes {
                        for reference in block { out.put(reference, size: sizes.0) }
                    } else {
                        out.putBigEndian(block, as: Reference.self)
                    }
                    offset = out.position
                }
                out.putRun(UnsafeBufferPointer(rebasing: content[run]))
            }
        }
    }

    /// Where `bytes(top:)` writes next in the buffer it sized: a value of its own, so that the
    /// writes are plain stores (a local function capturing the position would reach it through
    /// a box, checked for exclusive access on every byte).
    private struct Cursor {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var position = 0

        init(buffer: UnsafeMutableBufferPointer<UInt8>, position: Int = 0) {
            self.buffer = buffer
            self.position = position
        }

        @inline(__always)
        mutating func put(_ byte: UInt8) {
            precondition(position < buffer.count, "the buffer was sized for what it holds")
            buffer[position] = byte
            position += 1
        }

        /// A marker with its length: in its low four bits, or 0xF and an integer after it.
        @inline(__always)
        mutating func putMarker(_ marker: UInt8, length: Int) {
            guard length >= 15 else { return put(marker | UInt8(length)) }
            put(marker | 0x0F)
            // Most lengths past 14 (keys, strings, small data) fit one byte.
            guard length > 0xFF else {
                put(0x10)
                return put(UInt8(length))
            }
            putInteger(Int128(length))
        }

        /// An integer object: its marker, then its bytes (`integerSize`), most significant first.
        mutating func putInteger(_ value: Int128) {
            let size = BinaryPropertyListWriter.integerSize(value)
            put(0x10 | UInt8(size.trailingZeroBitCount))
            if size == 16 { put(Int(truncatingIfNeeded: value >> 64), size: 8) }
            put(Int(truncatingIfNeeded: value), size: min(size, 8))
        }

        /// `value`'s low `size` bytes (1, 2, 4 or 8), most significant first.
        @inline(__always)
        mutating func put(_ value: Int, size: Int) {
            switch size {
            case 1: putBigEndian(UInt8(truncatingIfNeeded: value))
            case 2: putBigEndian(UInt16(truncatingIfNeeded: value))
            case 4: putBigEndian(UInt32(truncatingIfNeeded: value))
            case 8: putBigEndian(UInt64(truncatingIfNeeded: value))
            default: preconditionFailure("a reference or offset takes 1, 2, 4 or 8 bytes")
            }
        }

        /// `value`, most significant byte first.
        @inline(__always)
        mutating func putBigEndian<Value: FixedWidthInteger>(_ value: Value) {
            precondition(position + MemoryLayout<Value>.size <= buffer.count, "the file was sized for what it holds")
            UnsafeMutableRawPointer(buffer.baseAddress! + position).storeBytes(of: value.bigEndian, as: Value.self)
            position += MemoryLayout<Value>.size
        }

        /// Each of `values` as a `Value`, most significant byte first.
        @inline(__always)
        mutating func putBigEndian<Value: FixedWidthInteger>(_ values: UnsafeBufferPointer<Int>, as _: Value.Type) {
            let size = MemoryLayout<Value>.size
            precondition(position + values.count * size <= buffer.count, "the file was sized for what it holds")
            let place = UnsafeMutableRawPointer(buffer.baseAddress! + position)
            for (index, value) in values.enumerated() {
                place.storeBytes(of: Value(truncatingIfNeeded: value).bigEndian, toByteOffset: index * size, as: Value.self)
            }
            position += values.count * size
        }

        /// A run of leaves' encodings, most longer than a few words: copied by `memcpy`.
        @inline(__always)
        mutating func putRun(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            precondition(position + bytes.count <= buffer.count, "the buffer was sized for what it holds")
            (buffer.baseAddress! + position).update(from: base, count: bytes.count)
            position += bytes.count
        }

        /// Keys and most strings are short: see `copyShortBytes`.
        @inline(__always)
        mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
            let count = bytes.count
            guard let base = bytes.baseAddress, count > 0 else { return }
            precondition(position + count <= buffer.count, "the buffer was sized for what it holds")
            UnsafeMutableRawPointer(buffer.baseAddress! + position).copyShortBytes(from: base, count: count)
            position += count
        }

        mutating func put(_ bytes: UnsafeRawBufferPointer) {
            put(bytes.assumingMemoryBound(to: UInt8.self))
        }

        mutating func put(_ bytes: [UInt8]) {
            bytes.withUnsafeBufferPointer { put($0) }
        }
    }

    /// How many bytes a container's marker takes for `length` members.
    private static func markerSize(length: Int) -> Int {
        length >= 15 ? 2 + integerSize(Int128(length)) : 1
    }

    /// 1, 2, 4 or 8: the bytes an unsigned `value` needs.
    private static func size(of value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }
}

/// Distinct byte strings and the object written for each: open addressing over a hash of their
/// bytes taken eight at a time, the bytes those of the writer's encoding when it holds them as
/// they are (ASCII), else kept here. Swift's `Dictionary` of strings would hash
/// each with SipHash after normalizing it, for every key of every object. The hash starts from a
/// seed of each run, so that a document cannot be made of strings that all land in one slot.
struct ByteStringTable {
    private struct Entry {
        var hash: UInt64
        /// Where the bytes are: in the writer's content, or in `bytes`.
        var start: Int
        var count: Int
        var inContent: Bool
        var object: Int
    }

    private var slots = [Int32](repeating: -1, count: 256)
    private var entries: [Entry] = []
    private var bytes: [UInt8] = []

    private let seed = UInt64.random(in: .min ... .max)
    /// The hash of each `WriterName`, and the names by their hash's top bits (the name's
    /// number, or −1): a new string is compared with the one name its slot holds, if any.
    let nameHashes: [UInt64]
    private let nameSlots: [Int8]
    private static let nameSlotBits = 10

    init() {
        let seed = seed
        nameHashes = WriterName.allCases.map { Self.hash($0.bytes, seed: seed).hash }
        var slots = [Int8](repeating: -1, count: 1 << Self.nameSlotBits)
        for (number, hash) in nameHashes.enumerated() {
            let slot = Int(hash >> (64 - Self.nameSlotBits))
            // Two names in one slot: −2, and those strings are compared with every name.
            slots[slot] = slots[slot] == -1 ? Int8(number) : -2
        }
        nameSlots = slots
    }

    /// A multiply and shift per word of the bytes (the last word read as `shortWord` reads one),
    /// and their count; and whether every byte is ASCII, from the same words.
    func hash(_ text: UnsafeRawBufferPointer) -> (hash: UInt64, isASCII: Bool) {
        Self.hash(text, seed: seed)
    }

    @inline(__always)
    private static func hash(_ text: UnsafeRawBufferPointer, seed: UInt64) -> (hash: UInt64, isASCII: Bool) {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = seed ^ UInt64(text.count)
        var bits: UInt64 = 0
        var position = 0
        while position + 8 <= text.count {
            let word = text.word(at: position)
            bits |= word
            hash = (hash ^ word) &* multiplier
            hash ^= hash >> 29
            position += 8
        }
        if position < text.count {
            let word = UnsafeRawBufferPointer(rebasing: text[position...]).shortWord(padding: 0)
            bits |= word
            hash = (hash ^ word) &* multiplier
            hash ^= hash >> 29
        }
        return (hash, bits & ByteWord.highs == 0)
    }

    enum Lookup {
        case found(object: Int)
        /// Not here: the empty slot it would take.
        case absent(slot: Int)
    }

    /// The object written for `text`, if it is one here; `content` is the writer's.
    func find(_ text: UnsafeRawBufferPointer, hash: UInt64, content: UnsafeRawBufferPointer) -> Lookup {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            let entry = entries[Int(slots[slot])]
            if entry.hash == hash, entry.count == text.count {
                let range = entry.start..<(entry.start + entry.count)
                let same = entry.inContent
                    ? UnsafeRawBufferPointer(rebasing: content[range]).hasSameBytes(as: text)
                    : bytes.withUnsafeBytes { UnsafeRawBufferPointer(rebasing: $0[range]).hasSameBytes(as: text) }
                if same { return .found(object: entry.object) }
            }
            slot = (slot + 1) & mask
        }
        return .absent(slot: slot)
    }

    /// The writer's name `text` is, if it is one.
    func name(hash: UInt64, _ text: UnsafeRawBufferPointer) -> WriterName? {
        let slot = nameSlots[Int(hash >> (64 - Self.nameSlotBits))]
        if slot == -1 { return nil }
        let candidates = slot >= 0 ? Int(slot)..<(Int(slot) + 1) : 0..<nameHashes.count
        for number in candidates where nameHashes[number] == hash {
            let name = WriterName(rawValue: number)!
            if name.bytes.hasSameBytes(as: text) { return name }
        }
        return nil
    }

    /// Adds `text`, written as `object`; `inContentAt` is where the writer's content holds its
    /// bytes as they are, if it does; `slot` the empty one `find` met, if it looked.
    mutating func insert(_ text: UnsafeRawBufferPointer, hash: UInt64, object: Int, inContentAt: Int?, slot: Int? = nil) {
        if let inContentAt {
            entries.append(Entry(hash: hash, start: inContentAt, count: text.count, inContent: true, object: object))
        } else {
            entries.append(Entry(hash: hash, start: bytes.count, count: text.count, inContent: false, object: object))
            bytes.appendBytes(text)
        }
        if entries.count * 2 > slots.count {
            grow()
        } else if let slot {
            slots[slot] = Int32(entries.count - 1)
        } else {
            place(entries.count - 1)
        }
    }

    private mutating func place(_ index: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: entries[index].hash) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(index)
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        for index in entries.indices { place(index) }
    }

    /// Empty again. Slots past a small table start afresh, so that resetting after one large
    /// archive does not cost its size for each small one after it.
    mutating func reset() {
        entries.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        if slots.count <= 1024 {
            slots.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
        } else {
            slots = [Int32](repeating: -1, count: 256)
        }
    }
}

/// The strings the property-list writer names itself: the keys of a keyed archive's root, its
/// objects' `$class`, a class's keys, the fields Foundation gives its own classes.
enum WriterName: Int, CaseIterable {
    case null, version, archiver, keyedArchiver, top, objects
    case objectClass, className, classChain, classHints
    case objectsField, keysField, baseField, relativeField, timeField, uuidBytesField, proxyPathField
    case arrayClass, setClass, orderedSetClass, dictionaryClass, dateClass, uuidClass, urlClass, proxyClass, rootClass

    var text: StaticString {
        switch self {
        case .null: "$null"
        case .version: "$version"
        case .archiver: "$archiver"
        case .keyedArchiver: "NSKeyedArchiver"
        case .top: "$top"
        case .objects: "$objects"
        case .objectClass: "$class"
        case .className: "$classname"
        case .classChain: "$classes"
        case .classHints: "$classhints"
        case .objectsField: "NS.objects"
        case .keysField: "NS.keys"
        case .baseField: "NS.base"
        case .relativeField: "NS.relative"
        case .timeField: "NS.time"
        case .uuidBytesField: "NS.uuidbytes"
        case .proxyPathField: RestorationKeys.proxyPathKey
        case .arrayClass: "NSArray"
        case .setClass: "NSSet"
        case .orderedSetClass: "NSOrderedSet"
        case .dictionaryClass: "NSDictionary"
        case .dateClass: "NSDate"
        case .uuidClass: "NSUUID"
        case .urlClass: "NSURL"
        case .proxyClass: RestorationKeys.proxyClassName
        case .rootClass: "NSObject"
        }
    }

    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }
}

extension BinaryPropertyListWriter {
    /// The same property list in Apple's XML format, `top` its root: a UID as
    /// `<dict><key>CF$UID</key>…`, data in base64, a date in ISO 8601 (its fraction kept), a real
    /// as its shortest digits (a 4-byte one widened: XML has one kind of real). Nil when a date
    /// lies outside the years 1 to 9999, which the format cannot spell.
    func xml(top: Int) -> [UInt8]? {
        var output: [UInt8] = Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """.utf8)
        func line(_ depth: Int, _ text: String) {
            output.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: depth))
            output.append(contentsOf: text.utf8)
            output.append(UInt8(ascii: "\n"))
        }
        // Containers open, each with the next of its members to write.
        var open: [(object: Int, next: Int)] = []
        var pending: Int? = top
        while true {
            if let index = pending {
                pending = nil
                let depth = open.count
                let object = objects[index]
                if object.isContainer {
                    let isDictionary = object.marker == 0xD0
                    guard object.count > 0 else {
                        line(depth, isDictionary ? "<dict/>" : "<array/>")
                        continue
                    }
                    line(depth, isDictionary ? "<dict>" : "<array>")
                    open.append((index, 0))
                } else {
                    guard let text = leafXML(object) else { return nil }
                    line(depth, text)
                }
                continue
            }
            guard let (index, next) = open.last else { break }
            let object = objects[index]
            let isDictionary = object.marker == 0xD0
            guard next < object.count else {
                open.removeLast()
                line(open.count, isDictionary ? "</dict>" : "</array>")
                continue
            }
            open[open.count - 1].next += 1
            if isDictionary {
                let key = objects[references[object.start + next]]
                guard let name = leafText(key) else { return nil }
                line(open.count, "<key>" + Self.escapedXML(name) + "</key>")
                pending = references[object.start + object.count + next]
            } else {
                pending = references[object.start + next]
            }
        }
        output.append(contentsOf: "</plist>\n".utf8)
        return output
    }

    /// A string leaf's text (a dictionary's key).
    private func leafText(_ object: Object) -> String? {
        let bytes = content[object.start..<(object.start + object.count)]
        let (length, from) = Self.length(bytes)
        switch bytes.first! & 0xF0 {
        case 0x50: return String(decoding: bytes[from..<(from + length)], as: UTF8.self)
        case 0x60:
            let units = stride(from: from, to: from + 2 * length, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        default: return nil
        }
    }

    /// A marker's length, and where the content after it starts.
    private static func length(_ bytes: ArraySlice<UInt8>) -> (Int, Int) {
        let start = bytes.startIndex
        guard bytes[start] & 0x0F == 0x0F else { return (Int(bytes[start] & 0x0F), start + 1) }
        let size = 1 << Int(bytes[start + 1] & 0x0F)
        var value = 0
        for offset in 0..<size { value = value << 8 | Int(bytes[start + 2 + offset]) }
        return (value, start + 2 + size)
    }

    private func leafXML(_ object: Object) -> String? {
        let bytes = content[object.start..<(object.start + object.count)]
        let marker = bytes.first!
        func bigEndian(_ from: Int, _ size: Int) -> UInt64 {
            (0..<size).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[from + $1]) }
        }
        let first = bytes.startIndex
        switch marker & 0xF0 {
        case 0x00: return marker == 0x09 ? "<true/>" : "<false/>"
        case 0x10:
            let size = 1 << Int(marker & 0x0F)
            let value: Int128
            switch size {
            case 16: value = Int128(bitPattern: UInt128(bigEndian(first + 1, 8)) << 64 | UInt128(bigEndian(first + 9, 8)))
            case 8: value = Int128(Int64(bitPattern: bigEndian(first + 1, 8)))
            default: value = Int128(bigEndian(first + 1, size))
            }
            return "<integer>\(value)</integer>"
        case 0x20:
            let real = marker == 0x22 ? Double(Float(bitPattern: UInt32(bigEndian(first + 1, 4)))) : Double(bitPattern: bigEndian(first + 1, 8))
            return "<real>" + Self.realText(real) + "</real>"
        case 0x30:
            guard let text = ReferenceDate.iso8601(Double(bitPattern: bigEndian(first + 1, 8))) else { return nil }
            return "<date>" + text + "</date>"
        case 0x40:
            let (length, from) = Self.length(bytes)
            var text = "<data>"
            var base64: [UInt8] = []
            ByteFormatting.appendBase64(bytes[from..<(from + length)]) { base64.append($0) }
            text += String(decoding: base64, as: UTF8.self)
            return text + "</data>"
        case 0x50, 0x60:
            return leafText(object).map { "<string>" + Self.escapedXML($0) + "</string>" }
        default:
            let size = Int(marker & 0x0F) + 1
            return "<dict><key>CF$UID</key><integer>\(bigEndian(first + 1, size))</integer></dict>"
        }
    }

    private static func realText(_ real: Double) -> String {
        if real.isNaN { return "nan" }
        if real.isInfinite { return real < 0 ? "-infinity" : "+infinity" }
        return real.description
    }

    /// Text as XML content: `&`, `<` and `>` as entities, and the control characters XML does
    /// not keep as they are (all below U+0020 but tab and line feed) as character references.
    static func escapedXML(_ text: String) -> String {
        var escaped = ""
        escaped.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\t", "\n": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: escaped += "&#\(scalar.value);"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
