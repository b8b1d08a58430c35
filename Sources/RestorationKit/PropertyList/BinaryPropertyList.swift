/// The constants of the `bplist00` format.
enum BinaryPropertyListFormat {
    static let magic: [UInt8] = Array("bplist00".utf8)
    /// `magic.count`, without the lazy global's check on every object read.
    static var magicSize: Int { 8 }
    static let trailerSize = 32

    /// `magic` as the word its eight bytes load as on this machine.
    private static var magicWord: UInt64 { UInt64(bigEndian: 0x6270_6C69_7374_3030) }

    /// Whether `bytes` begin with `magic`: one load and compare, for this is asked of every
    /// data value an archive holds.
    static func startsWithMagic(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= magicSize && bytes.loadUnaligned(as: UInt64.self) == magicWord
    }

    static func startsWithMagic(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBytes { startsWithMagic($0) }
    }
}

private struct Trailer {
    var offsetSize: Int
    var referenceSize: Int
    var objectCount: Int
    var topObject: Int
    var offsetTableStart: Int
}

/// A `bplist00` binary property list read in place: objects are decoded from the bytes when
/// asked for, each access checked against the buffer.
///
/// Not libplist: version 2.2.0 crashes on deep nesting, expands shared references into a tree
/// (a 186-byte file becomes gigabytes), loses the sign of integers and cuts dates to 32 bits.
/// Here every offset, length and reference is checked against the buffer, and `check` and the
/// decoder read each object once, refuse reference cycles and bound depth and expansion.
///
/// Valid only while the buffer is: inside `withTable`, which holds the bytes, or as long as the
/// holder of an `inSource` or `inCopy` buffer says.
struct BinaryPropertyList: PropertyListObjectTable {
    let buffer: UnsafeRawBufferPointer
    /// The bytes `buffer` points into, which data values are slices of.
    let source: ArraySlice<UInt8>
    /// The index of the buffer's first byte in the array it was read from: offsets in errors are
    /// the array's, so that a nested archive's point into the file that holds it.
    var base: Int { source.startIndex }
    private let trailer: Trailer

    /// Runs `body` with the table of `bytes` (whose trailer is checked first).
    static func withTable<T, E: Error>(
        _ bytes: ArraySlice<UInt8>, _ body: (BinaryPropertyList) throws(E) -> T
    ) throws(E) -> T where E: PropertyListErrorConvertible {
        let result: Result<T, E> = bytes.withUnsafeBytes { buffer in
            do throws(E) {
                let table: BinaryPropertyList
                do throws(PropertyListError) {
                    table = try BinaryPropertyList(buffer: buffer, source: bytes)
                } catch {
                    throw E(error)
                }
                return .success(try body(table))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The table of `bytes`, a slice of the array whose bytes `buffer` holds in place from
    /// index `base` on: valid while that buffer is.
    static func inSource(_ bytes: ArraySlice<UInt8>, of buffer: UnsafeRawBufferPointer, base: Int) throws(PropertyListError) -> BinaryPropertyList {
        try BinaryPropertyList(buffer: UnsafeRawBufferPointer(rebasing: buffer[(bytes.startIndex - base)..<(bytes.endIndex - base)]), source: bytes)
    }

    /// The table of `bytes`, read from `copy`, which holds the same bytes: valid while it lives.
    static func inCopy(_ copy: CopiedBytes, of bytes: ArraySlice<UInt8>) throws(PropertyListError) -> BinaryPropertyList {
        try BinaryPropertyList(buffer: UnsafeRawBufferPointer(rebasing: copy.buffer[0..<bytes.count]), source: bytes)
    }

    private init(buffer: UnsafeRawBufferPointer, source: ArraySlice<UInt8>) throws(PropertyListError) {
        self.buffer = buffer
        self.source = source
        self.trailer = try Self.readTrailer(buffer, base: source.startIndex)
    }

    var objectCount: Int { trailer.objectCount }
    var topObject: Int { trailer.topObject }

    func byteOffset(of index: Int) -> Int? {
        (try? offsetOfObject(index)).map { base + $0 }
    }

    private static func readTrailer(_ buffer: UnsafeRawBufferPointer, base: Int) throws(PropertyListError) -> Trailer {
        let size = buffer.count
        let magicSize = BinaryPropertyListFormat.magicSize
        let trailerSize = BinaryPropertyListFormat.trailerSize
        guard size >= magicSize + 1 + 1 + trailerSize else {
            throw PropertyListError("binary property list is truncated: \(size) bytes is too short to hold a header, an object and a trailer", at: base)
        }
        let start = size - trailerSize
        let offsetSize = Int(buffer[start + 6])
        let referenceSize = Int(buffer[start + 7])
        let objectCount = readUInt64(buffer, at: start + 8)
        let topObject = readUInt64(buffer, at: start + 16)
        let tableStart = readUInt64(buffer, at: start + 24)
        guard (1...8).contains(offsetSize) else {
            throw PropertyListError("trailer gives an offset size of \(offsetSize) bytes; it must be 1 to 8", at: base + start + 6)
        }
        guard (1...8).contains(referenceSize) else {
            throw PropertyListError("trailer gives an object reference size of \(referenceSize) bytes; it must be 1 to 8", at: base + start + 7)
        }
        guard objectCount >= 1 else {
            throw PropertyListError("trailer says the file holds no objects", at: base + start + 8)
        }
        guard topObject < objectCount else {
            throw PropertyListError("trailer's top object \(topObject) is out of range (\(objectCount) objects)", at: base + start + 16)
        }
        guard tableStart >= UInt64(magicSize + 1), tableStart <= UInt64(start) else {
            throw PropertyListError("trailer's offset table position \(tableStart) lies outside the object area (bytes \(magicSize + 1) to \(start))", at: base + start + 24)
        }
        let (tableSize, overflow) = objectCount.multipliedReportingOverflow(by: UInt64(offsetSize))
        guard !overflow, tableSize <= UInt64(start) - tableStart else {
            throw PropertyListError("offset table of \(objectCount) entries of \(offsetSize) bytes runs past the trailer", at: base + Int(tableStart))
        }
        return Trailer(
            offsetSize: offsetSize, referenceSize: referenceSize, objectCount: Int(objectCount),
            topObject: Int(topObject), offsetTableStart: Int(tableStart))
    }

    // MARK: Objects

    @inline(__always)
    private func offsetOfObject(_ index: Int) throws(PropertyListError) -> Int {
        let entry = trailer.offsetTableStart + index * trailer.offsetSize
        let offset = Self.readUInt(buffer, at: entry, size: trailer.offsetSize)
        guard offset >= UInt64(BinaryPropertyListFormat.magicSize), offset < UInt64(trailer.offsetTableStart) else {
            throw PropertyListError("object \(index) has offset \(offset), outside the object area (bytes 8 to \(trailer.offsetTableStart - 1))", at: base + entry)
        }
        return Int(offset)
    }

    func object(_ index: Int) throws(PropertyListError) -> PropertyListObject {
        switch try rawObject(index) {
        case .boolean(let value): return .scalar(.boolean(value))
        case .integer(let value): return .scalar(.integer(value))
        case .real(let value): return .scalar(.real(value))
        case .float(let value): return .scalar(.float(value))
        case .date(let value): return .scalar(.date(value))
        case .data(let start, let count): return .data(source[(base + start)..<(base + start + count)])
        case .asciiString(let start, let count): return .string(asciiString(start: start, count: count))
        case .utf16String(let start, let count): return .string(utf16String(start: start, count: count))
        case .utf8String(let start, let count):
            let slice = UnsafeRawBufferPointer(rebasing: buffer[start..<(start + count)])
            return .string(String(decoding: slice, as: UTF8.self))
        case .uid(let value): return .scalar(.uid(value))
        case .array(let container): return .array(container)
        case .dictionary(let container): return .dictionary(container)
        }
    }

    func item(_ index: Int, text: inout [UInt8]) throws(PropertyListError) -> PropertyListItem {
        let offset = text.count
        switch try rawObject(index) {
        case .asciiString(let start, let count):
            let slice = UnsafeRawBufferPointer(rebasing: buffer[start..<(start + count)])
            // One pass for the usual string, plain ASCII, whose written size is its length.
            if TextEscaping.isPlain(slice) { return .inputString(start: start, count: count, plain: true) }
            if slice.isASCII { return .inputString(start: start, count: count, plain: false) }
            text.append(contentsOf: asciiString(start: start, count: count).utf8)
        case .utf16String(let start, let count):
            text.append(contentsOf: utf16String(start: start, count: count).utf8)
        case .utf8String(let start, let count):
            text.append(contentsOf: String(decoding: UnsafeRawBufferPointer(rebasing: buffer[start..<(start + count)]), as: UTF8.self).utf8)
        case .data(let start, let count): return .inputData(start: start, count: count)
        case .boolean(let value): return .scalar(.boolean(value))
        case .integer(let value): return .scalar(.integer(value))
        case .real(let value): return .scalar(.real(value))
        case .float(let value): return .scalar(.float(value))
        case .date(let value): return .scalar(.date(value))
        case .uid(let value): return .scalar(.uid(value))
        case .array(let container): return .array(container)
        case .dictionary(let container): return .dictionary(container)
        }
        return .textString(offset: offset, count: text.count - offset)
    }

    func asciiBytes(_ index: Int) -> UnsafeRawBufferPointer? {
        guard let offset = try? offsetOfObject(index), buffer[offset] >> 4 == 0x5,
              let (count, start) = try? countAndStart(offset: offset, info: Int(buffer[offset] & 0x0F)),
              (try? need(count, after: start, for: "", at: offset)) != nil else { return nil }
        let bytes = inputBytes(start, count)
        return bytes.isASCII ? bytes : nil
    }

    func inputBytes(_ start: Int, _ count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[start..<(start + count)])
    }

    /// One object as the format stores it, every bound checked, payloads left in the buffer:
    /// `object` builds values from it, and `item` reads it for the decoder without building any.
    enum RawObject {
        case boolean(Bool)
        case integer(Int128)
        case real(Double)
        case float(Float)
        case date(Double)
        /// Payloads: `count` bytes (UTF-16 strings: code units) from buffer offset `start`.
        case data(start: Int, count: Int)
        case asciiString(start: Int, count: Int)
        case utf16String(start: Int, count: Int)
        case utf8String(start: Int, count: Int)
        case uid(UInt64)
        case array(PropertyListContainer)
        case dictionary(PropertyListContainer)
    }

    @inline(__always)
    func rawObject(_ index: Int) throws(PropertyListError) -> RawObject {
        let offset = try offsetOfObject(index)
        let marker = buffer[offset]
        let kind = marker >> 4
        let info = Int(marker & 0x0F)
        switch kind {
        case 0x0:
            switch info {
            case 0x8: return .boolean(false)
            case 0x9: return .boolean(true)
            default: throw PropertyListError("unsupported object marker 0x\(hex(marker))", at: base + offset)
            }
        case 0x1:
            return .integer(try integer(at: offset, sizeExponent: info))
        case 0x2:
            return try real(at: offset, sizeExponent: info)
        case 0x3:
            guard info == 3 else {
                throw PropertyListError("date marker 0x\(hex(marker)) has an unsupported size", at: base + offset)
            }
            try need(8, after: offset + 1, for: "date", at: offset)
            return .date(Double(bitPattern: Self.readUInt64(buffer, at: offset + 1)))
        case 0x4:
            let (count, start) = try countAndStart(offset: offset, info: info)
            try need(count, after: start, for: "data object of \(count) bytes", at: offset)
            return .data(start: start, count: count)
        case 0x5:
            let (count, start) = try countAndStart(offset: offset, info: info)
            try need(count, after: start, for: "ASCII string of \(count) bytes", at: offset)
            return .asciiString(start: start, count: count)
        case 0x6:
            let (count, start) = try countAndStart(offset: offset, info: info)
            let (bytes, overflow) = count.multipliedReportingOverflow(by: 2)
            guard !overflow else {
                throw PropertyListError("UTF-16 string length \(count) is too large", at: base + offset)
            }
            try need(bytes, after: start, for: "UTF-16 string of \(count) code units", at: offset)
            return .utf16String(start: start, count: count)
        case 0x7:
            let (count, start) = try countAndStart(offset: offset, info: info)
            try need(count, after: start, for: "UTF-8 string of \(count) bytes", at: offset)
            return .utf8String(start: start, count: count)
        case 0x8:
            let size = info + 1
            guard size <= 8 else {
                throw PropertyListError("UID of \(size) bytes is too large (at most 8)", at: base + offset)
            }
            try need(size, after: offset + 1, for: "UID", at: offset)
            return .uid(Self.readUInt(buffer, at: offset + 1, size: size))
        case 0xA, 0xC:
            // 0xC is the format's set type; a property list has no set value, so it reads as an array.
            let (count, start) = try countAndStart(offset: offset, info: info)
            try referenceList(count: count, start: start, what: "array", at: offset)
            return .array(PropertyListContainer(index: index, count: count, references: start))
        case 0xD:
            let (count, start) = try countAndStart(offset: offset, info: info)
            try referenceList(count: count, start: start, what: "dictionary keys", at: offset)
            try referenceList(count: count, start: start + count * trailer.referenceSize, what: "dictionary values", at: offset)
            return .dictionary(PropertyListContainer(index: index, count: count, references: start))
        default:
            throw PropertyListError("unknown object marker 0x\(hex(marker))", at: base + offset)
        }
    }

    func member(_ position: Int, of container: PropertyListContainer) throws(PropertyListError) -> Int {
        try reference(container.references + position * trailer.referenceSize)
    }

    // MARK: Scalars

    private func integer(at offset: Int, sizeExponent: Int) throws(PropertyListError) -> Int128 {
        guard sizeExponent <= 4 else {
            throw PropertyListError("integer of 2^\(sizeExponent) bytes is not supported (at most 16 bytes)", at: base + offset)
        }
        let size = 1 << sizeExponent
        try need(size, after: offset + 1, for: "integer", at: offset)
        switch size {
        case 1, 2, 4:
            // Smaller integers are unsigned in this format.
            return Int128(Self.readUInt(buffer, at: offset + 1, size: size))
        case 8:
            return Int128(Int64(bitPattern: Self.readUInt64(buffer, at: offset + 1)))
        default:
            let high = Self.readUInt64(buffer, at: offset + 1)
            let low = Self.readUInt64(buffer, at: offset + 9)
            return Int128(Int64(bitPattern: high)) << 64 | Int128(low)
        }
    }

    private func real(at offset: Int, sizeExponent: Int) throws(PropertyListError) -> RawObject {
        switch sizeExponent {
        case 2:
            try need(4, after: offset + 1, for: "real", at: offset)
            return .float(Float(bitPattern: UInt32(Self.readUInt(buffer, at: offset + 1, size: 4))))
        case 3:
            try need(8, after: offset + 1, for: "real", at: offset)
            return .real(Double(bitPattern: Self.readUInt64(buffer, at: offset + 1)))
        default:
            throw PropertyListError("real of 2^\(sizeExponent) bytes is not supported (4 or 8 bytes)", at: base + offset)
        }
    }

    func asciiString(start: Int, count: Int) -> String {
        let slice = UnsafeRawBufferPointer(rebasing: buffer[start..<(start + count)])
        if slice.isASCII {
            return String(decoding: slice, as: UTF8.self)
        }
        // Not ASCII after all: read each byte as the code point of the same value (Latin-1),
        // which keeps every byte recoverable instead of replacing it.
        var scalars = String.UnicodeScalarView()
        for byte in slice {
            scalars.append(Unicode.Scalar(byte))
        }
        return String(scalars)
    }

    func utf16String(start: Int, count: Int) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(count)
        for position in 0..<count {
            let at = start + 2 * position
            units.append(UInt16(buffer[at]) << 8 | UInt16(buffer[at + 1]))
        }
        // Unpaired surrogates become U+FFFD: a Swift string cannot hold them.
        return String(decoding: units, as: UTF16.self)
    }

    // MARK: Counts and references

    /// The element count of a variable-length object and where its payload starts.
    @inline(__always)
    private func countAndStart(offset: Int, info: Int) throws(PropertyListError) -> (Int, Int) {
        if info != 0x0F {
            return (info, offset + 1)
        }
        try need(1, after: offset + 1, for: "length", at: offset)
        let lengthMarker = buffer[offset + 1]
        guard lengthMarker >> 4 == 0x1, lengthMarker & 0x0F <= 3 else {
            throw PropertyListError("length of the object is not an integer of 1 to 8 bytes (marker 0x\(hex(lengthMarker)))", at: base + offset + 1)
        }
        let size = 1 << Int(lengthMarker & 0x0F)
        try need(size, after: offset + 2, for: "length", at: offset)
        let count = Self.readUInt(buffer, at: offset + 2, size: size)
        // Lengths beyond the file are caught by `need`; this only keeps the arithmetic in range.
        guard count <= UInt64(buffer.count) else {
            throw PropertyListError("object declares a length of \(count), larger than the file (\(buffer.count) bytes)", at: base + offset)
        }
        return (Int(count), offset + 2 + size)
    }

    private func referenceList(count: Int, start: Int, what: @autoclosure () -> String, at offset: Int) throws(PropertyListError) {
        let (size, overflow) = count.multipliedReportingOverflow(by: trailer.referenceSize)
        guard !overflow else {
            throw PropertyListError("\(what()) count \(count) is too large", at: base + offset)
        }
        try need(size, after: start, for: "\(what()) (\(count) references)", at: offset)
    }

    @inline(__always)
    private func reference(_ position: Int) throws(PropertyListError) -> Int {
        let index = Self.readUInt(buffer, at: position, size: trailer.referenceSize)
        guard index < UInt64(trailer.objectCount) else {
            throw PropertyListError("object reference \(index) is out of range (\(trailer.objectCount) objects)", at: base + position)
        }
        return Int(index)
    }

    /// Fails unless `count` bytes starting at `start` lie inside the object area. The message is
    /// an autoclosure: this runs for every object, and building the text each time costs more
    /// than the check.
    @inline(__always)
    private func need(_ count: Int, after start: Int, for what: @autoclosure () -> String, at offset: Int) throws(PropertyListError) {
        let end = trailer.offsetTableStart
        guard start <= end, count <= end - start else {
            throw PropertyListError("\(what()) runs past the end of the object area", at: base + offset)
        }
    }

    // MARK: Raw reads (callers have checked the bounds)

    @inline(__always)
    static func readUInt(_ buffer: UnsafeRawBufferPointer, at offset: Int, size: Int) -> UInt64 {
        // Offsets and references of archives are one or two bytes wide.
        switch size {
        case 1: return UInt64(buffer[offset])
        case 2: return UInt64(buffer[offset]) << 8 | UInt64(buffer[offset + 1])
        default: break
        }
        var value: UInt64 = 0
        for position in offset..<(offset + size) {
            value = value << 8 | UInt64(buffer[position])
        }
        return value
    }

    static func readUInt64(_ buffer: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        readUInt(buffer, at: offset, size: 8)
    }
}

func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}
