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
    private var content: [UInt8] = []
    private var references: [Int] = []
    private var strings = ByteStringTable()
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

    private mutating func appendLeaf(_ body: (inout [UInt8]) -> Void) -> Int {
        let start = content.count
        body(&content)
        objects.append(Object(isContainer: false, marker: 0, start: start, count: content.count - start))
        return objects.count - 1
    }

    /// A marker with its length: in its low four bits, or 0xF and an integer after it.
    private static func appendMarker(_ marker: UInt8, length: Int, to bytes: inout [UInt8]) {
        guard length >= 15 else { return bytes.append(marker | UInt8(length)) }
        bytes.append(marker | 0x0F)
        appendInteger(Int128(length), to: &bytes)
    }

    /// An integer object: 1, 2 or 4 bytes when it is not negative and fits, 8 bytes in two's
    /// complement, or 16 bytes past 64 bits, as CoreFoundation writes them.
    private static func appendInteger(_ value: Int128, to bytes: inout [UInt8]) {
        let size: Int
        switch value {
        case 0...0xFF: size = 1
        case 0x100...0xFFFF: size = 2
        case 0x1_0000...0xFFFF_FFFF: size = 4
        case Int128(Int64.min)...Int128(Int64.max): size = 8
        default: size = 16
        }
        bytes.append(0x10 | UInt8(size.trailingZeroBitCount))
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }

    mutating func boolean(_ value: Bool) -> Int {
        appendLeaf { $0.append(value ? 0x09 : 0x08) }
    }

    mutating func integer(_ value: Int128) -> Int {
        appendLeaf { Self.appendInteger(value, to: &$0) }
    }

    mutating func real(_ value: Double) -> Int {
        appendLeaf { bytes in
            bytes.append(0x23)
            Self.appendBigEndian(value.bitPattern, to: &bytes)
        }
    }

    mutating func float(_ value: Float) -> Int {
        appendLeaf { bytes in
            bytes.append(0x22)
            let bits = value.bitPattern
            for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(shift))) }
        }
    }

    /// Seconds since 2001-01-01T00:00:00Z.
    mutating func date(_ seconds: Double) -> Int {
        appendLeaf { bytes in
            bytes.append(0x33)
            Self.appendBigEndian(seconds.bitPattern, to: &bytes)
        }
    }

    private static func appendBigEndian(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func data(_ data: UnsafeRawBufferPointer) -> Int {
        appendLeaf { bytes in
            Self.appendMarker(0x40, length: data.count, to: &bytes)
            bytes.append(contentsOf: data)
        }
    }

    /// A string, ASCII in one byte a character, anything else in UTF-16; each distinct string
    /// is written once (keys and class names repeat in every object), strings being the same when
    /// their bytes are (see `ExactText`).
    mutating func string(_ string: String) -> Int {
        var string = string
        return string.withUTF8 { self.string(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// A string from its UTF-8 (well formed: the tape's strings are).
    mutating func string(utf8 text: UnsafeRawBufferPointer) -> Int {
        let hash = ByteStringTable.hash(text)
        if let known = strings.find(text, hash: hash) { return known }
        let index = appendLeaf { bytes in
            if !text.contains(where: { $0 >= 0x80 }) {
                Self.appendMarker(0x50, length: text.count, to: &bytes)
                bytes.append(contentsOf: text)
            } else {
                let units = Array(String(decoding: text, as: UTF8.self).utf16)
                Self.appendMarker(0x60, length: units.count, to: &bytes)
                for unit in units {
                    bytes.append(UInt8(unit >> 8))
                    bytes.append(UInt8(truncatingIfNeeded: unit))
                }
            }
        }
        strings.insert(text, hash: hash, object: index)
        return index
    }

    /// A keyed archive's reference (a UID), in as few bytes as hold it.
    mutating func uid(_ value: UInt64) -> Int {
        if value < UInt64(uids.count), uids[Int(value)] >= 0 { return uids[Int(value)] }
        let index = appendLeaf { bytes in
            let size = value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
            bytes.append(0x80 | UInt8(size - 1))
            for shift in stride(from: (size - 1) * 8, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
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
        objects.append(Object(isContainer: true, marker: 0xA0, start: start, count: elements.count))
        return objects.count - 1
    }

    /// A dictionary of the keys and values given in turn: key, value, key, value.
    mutating func dictionary(pairs: ArraySlice<Int>) -> Int {
        let start = references.count
        for position in stride(from: pairs.startIndex, to: pairs.endIndex, by: 2) { references.append(pairs[position]) }
        for position in stride(from: pairs.startIndex + 1, to: pairs.endIndex, by: 2) { references.append(pairs[position]) }
        objects.append(Object(isContainer: true, marker: 0xD0, start: start, count: pairs.count / 2))
        return objects.count - 1
    }

    /// The file, `top` its root object: sized first, then written in one buffer.
    func bytes(top: Int) -> [UInt8] {
        let referenceSize = Self.size(of: UInt64(objects.count))
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        var end = 8
        for object in objects {
            offsets.append(end)
            guard object.isContainer else {
                end += object.count
                continue
            }
            let references = object.marker == 0xD0 ? 2 * object.count : object.count
            end += Self.markerSize(length: object.count) + references * referenceSize
        }
        let tableOffset = end
        let offsetSize = Self.size(of: UInt64(tableOffset))
        let total = tableOffset + objects.count * offsetSize + 32
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            var position = 0
            func put(_ byte: UInt8) {
                buffer[position] = byte
                position += 1
            }
            func put(_ value: Int, size: Int) {
                for shift in stride(from: (size - 1) * 8, through: 0, by: -8) { put(UInt8(truncatingIfNeeded: value >> shift)) }
            }
            for byte in "bplist00".utf8 { put(byte) }
            content.withUnsafeBufferPointer { content in
                references.withUnsafeBufferPointer { references in
                    for object in objects {
                        guard object.isContainer else {
                            UnsafeMutableBufferPointer(rebasing: buffer[position..<(position + object.count)])
                                .initialize(from: content[object.start..<(object.start + object.count)])
                            position += object.count
                            continue
                        }
                        if object.count < 15 {
                            put(object.marker | UInt8(object.count))
                        } else {
                            put(object.marker | 0x0F)
                            var marker: [UInt8] = []
                            Self.appendInteger(Int128(object.count), to: &marker)
                            marker.forEach(put)
                        }
                        let count = object.marker == 0xD0 ? 2 * object.count : object.count
                        for reference in references[object.start..<(object.start + count)] { put(reference, size: referenceSize) }
                    }
                }
            }
            for offset in offsets { put(offset, size: offsetSize) }
            for _ in 0..<6 { put(0) }
            put(UInt8(offsetSize))
            put(UInt8(referenceSize))
            put(objects.count, size: 8)
            put(top, size: 8)
            put(tableOffset, size: 8)
            initialized = position
        }
    }

    /// How many bytes a container's marker takes for `length` members.
    private static func markerSize(length: Int) -> Int {
        guard length >= 15 else { return 1 }
        var bytes: [UInt8] = []
        appendInteger(Int128(length), to: &bytes)
        return 1 + bytes.count
    }

    /// 1, 2, 4 or 8: the bytes an unsigned `value` needs.
    private static func size(of value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }
}

/// Distinct byte strings and the object written for each: open addressing over FNV-1a hashes,
/// the bytes kept once. Swift's `Dictionary` of strings would hash each with SipHash after
/// normalizing it, for every key of every object.
struct ByteStringTable {
    private struct Entry {
        var hash: UInt64
        var start: Int
        var count: Int
        var object: Int
    }

    private var slots = [Int32](repeating: -1, count: 256)
    private var entries: [Entry] = []
    private var bytes: [UInt8] = []

    static func hash(_ text: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    func find(_ text: UnsafeRawBufferPointer, hash: UInt64) -> Int? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            let entry = entries[Int(slots[slot])]
            if entry.hash == hash, entry.count == text.count,
               bytes.withUnsafeBytes({ UnsafeRawBufferPointer(rebasing: $0[entry.start..<(entry.start + entry.count)]).elementsEqual(text) }) {
                return entry.object
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    mutating func insert(_ text: UnsafeRawBufferPointer, hash: UInt64, object: Int) {
        if (entries.count + 1) * 2 > slots.count { grow() }
        entries.append(Entry(hash: hash, start: bytes.count, count: text.count, object: object))
        bytes.append(contentsOf: text)
        place(entries.count - 1)
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
