#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one file's decoding carries through its nested archives: the tape being written, the
/// limits' counts, where in the archive decoding is, and the scratch of the archives under way.
///
/// A value passed `inout` down the decoder, so that its arrays are written in place without
/// reference counting or run-time exclusivity checks.
struct DecodingState {
    let limits: DecodingLimits
    let allowsConcurrency: Bool
    /// The outer archive's nested archives left as data (nil: none; see `KeptNestedArchives`).
    var kept: KeptNestedArchives?
    var tape = TapeBuilder()
    /// Values produced so far, a shared value counting once per reference.
    var nodes = 0
    /// Bytes of strings and data produced so far (keys and class names included), counted as
    /// `nodes` are.
    var bytes = 0
    /// Bytes of nested archives parsed so far, all levels together.
    var nestedBytes = 0
    /// The fixed keys (`$top` …) the file's root dictionary holds more than once.
    var repeatedRootKeys: [(key: String, count: Int)] = []
    /// `$top` keys and fields from the outer archive down to the value being decoded, as string
    /// nodes: made into strings only for an error.
    var location: [TapeNode] = []
    /// What the decoder of the archive under way has changed (see `ArchiveScratch`).
    var archive = ArchiveScratch()
    /// The values the decoder's walk has opened and not finished, the innermost last (see
    /// `ArchiveGraphDecoder.walk`).
    var walk: [WalkFrame] = []
    /// The archives under way, the file's first and the innermost nested one last (see `drive`).
    var levels: [ArchiveLevel] = []
    /// The tape's source, held in place while the file is decoded: nested binary archives in
    /// it are read where they lie.
    var sourceBuffer: UnsafeRawBufferPointer?
    /// The slots of `$objects` entries under way that hold only the UID of the next entry (a
    /// chain), to be filled with the value the chain ends in (see `WalkFrame.Owner`).
    var pendingSlots: [Int] = []
    /// One slot per `$objects` entry of each archive under way, the innermost last: the first
    /// `slotsInUse` (the array keeps its high-water size, as `tableEntries` does).
    var slots: [ObjectSlot] = []
    var slotsInUse = 0
    /// One entry per property-list object (up to `ArchiveGraphDecoder.cachedObjects`) of each
    /// archive under way, the innermost last: the first `entriesInUse`. The array does not
    /// shrink when an archive ends; the next one resets the entries it takes, which costs less
    /// than appending them again for each of an archive's thousands of nested archives.
    var tableEntries: [TableEntry] = []
    var entriesInUse = 0
    /// Class descriptions met in this file, by their strings (see `ClassSignature`), and the
    /// bytes of the one being read.
    var knownClasses = KnownClasses()
    /// The class descriptions each archive under way has met, by UID (an archive has a
    /// handful), pushed and popped like `slots`.
    var archiveClasses: [(uid: Int, info: ArchiveClassInfo)] = []
    /// Where a class description's signature is written: one buffer, reused (a state is never
    /// shared between threads).
    let classSignature = ByteBuffer()

    /// With `limits.run`, the limits are lowered to what the run has left (see `RunBudget`).
    init(limits: DecodingLimits, allowsConcurrency: Bool) {
        self.limits = limits.forDecoding
        self.allowsConcurrency = allowsConcurrency
    }

    /// What an `$objects` entry decoded to, once it has been.
    struct ObjectSlot {
        var node = TapeNode.null
        var state = State.new
        /// How many values, and bytes of strings and data, the decoded object expands to.
        var expandedSize = 0
        var expandedBytes = 0

        enum State: UInt8 {
            case new, inProgress, done
        }
    }

    /// A property-list object of an archive under way: its key node once it has been read as a
    /// dictionary key, and whether it is a container being decoded (meeting it again inside
    /// itself is a cycle).
    struct TableEntry {
        var key = TapeNode.null
        /// The key's size as written (a key is shorter than the input, at most 1 GiB).
        var keySize: UInt32 = 0
        var isOpen = false
    }

    @inline(__always)
    mutating func consume(_ count: Int) throws(ArchiveError) {
        nodes += count
        guard nodes <= limits.maxNodes else { throw limitError(.nodes) }
    }

    /// Counts what this file's decoding spent against its run's budget, if it has one: once,
    /// when the decoding ends, whether it succeeded or not.
    func chargeRun() {
        limits.run?.spend(.init(nodes: nodes, bytes: bytes, nestedBytes: nestedBytes))
    }

    /// Counts `count` bytes of text or data, as written (see `TextEscaping.writtenSize`), about
    /// to be part of the decoded archive.
    @inline(__always)
    mutating func consumeBytes(_ count: Int) throws(ArchiveError) {
        bytes += count
        guard bytes <= limits.maxExpandedBytes else { throw limitError(.expandedBytes) }
    }

    /// The error of passing `limit`, made apart from the counts' checks, which run once per value
    /// and are inlined.
    @inline(never)
    func limitError(_ limit: DecodingLimit) -> ArchiveError {
        error(.limitExceeded, limits.exceeded(limit))
    }

    mutating func consumeText(_ text: String) throws(ArchiveError) {
        try consumeBytes(TextEscaping.writtenSize(text))
    }

    mutating func consumeData(_ count: Int) throws(ArchiveError) {
        try consumeBytes(TextEscaping.writtenSize(ofData: count))
    }

    /// The location in words, for an error.
    var locationNames: [String] {
        location.map { tape.string(of: $0) }
    }

    func error(_ kind: ArchiveError.Kind, _ reason: String, at offset: Int? = nil) -> ArchiveError {
        ArchiveError(kind, reason, at: offset, location: locationNames)
    }

    func error(_ error: PropertyListError) -> ArchiveError {
        ArchiveError(error, location: locationNames)
    }

    /// Decodes a whole file: a binary or XML property list that must be a keyed archive, or,
    /// when `allowsPlain`, may be a plain property list (one whose root is no dictionary with
    /// `$archiver`): its root value is then decoded, the keyed archives in its data included.
    mutating func decodeFile(_ bytes: ArraySlice<UInt8>, allowsPlain: Bool = false) throws(ArchiveError) -> ArchiveTape {
        defer { chargeRun() }
        let format: PropertyListFormat
        do throws(PropertyListError) {
            format = try PropertyListReader.format(of: bytes)
        } catch {
            throw ArchiveError(error)
        }
        switch format {
        case .binary:
            tape.source = bytes
            return try withSourceInPlace { (s) throws(ArchiveError) in
                let table: BinaryPropertyList
                do throws(PropertyListError) {
                    table = try BinaryPropertyList.inSource(bytes, of: s.sourceBuffer!, base: bytes.startIndex)
                } catch {
                    throw ArchiveError(error)
                }
                return try s.decodeRoot(table, input: bytes, inSource: true, allowsPlain: allowsPlain)
            }
        case .xml:
            return try decodeRoot(try readXML(bytes), input: [], inSource: false, allowsPlain: allowsPlain)
        }
    }

    /// Decodes the archive whose root dictionary is `table`'s top object (read from `input`,
    /// which is the tape's source when `inSource`).
    mutating func decodeRoot<Table: PropertyListObjectTable>(_ table: Table, input: ArraySlice<UInt8>, inSource: Bool, allowsPlain: Bool = false) throws(ArchiveError) -> ArchiveTape {
        do throws(ArchiveError) {
            let decoder = ArchiveGraphDecoder(table: table, input: input, inSource: inSource, archiveDepth: 0, baseDepth: 0)
            let level = Table.level(decoder, nested: nil, keeping: nil)
            archive = ArchiveScratch()
            level.begin(&self)
            let first = levels.count
            levels.append(level)
            let delivered: TapeNode?
            let isPlain: Bool
            do throws(ArchiveError) {
                isPlain = allowsPlain ? try decoder.isPlainPropertyList(&self) : false
                if isPlain {
                    // A broken property list is reported as such, as when plain lists are refused.
                    try checkPropertyList(table)
                    level.base = walk.count
                    delivered = try decoder.beginPlainRoot(&self)
                } else {
                    level.base = try decoder.beginCheckedArchive(&self)
                    delivered = nil
                }
            } catch {
                levels.removeLast()
                level.end(&self)
                throw error
            }
            let root = try drive(from: first, delivering: delivered)
            return isPlain ? ArchiveTape(tape, root: root, isPlainPropertyList: true) : ArchiveTape(tape, root: root, repeatedRootKeys: repeatedRootKeys)
        } catch where error.kind == .notKeyedArchive {
            // Not a keyed archive: a broken property list is reported as such first.
            try checkPropertyList(table)
            throw error
        }
    }

    /// Runs `body` with `sourceBuffer` holding the tape's source in place.
    mutating func withSourceInPlace<T>(_ body: (inout DecodingState) throws(ArchiveError) -> T) throws(ArchiveError) -> T {
        let source = tape.source
        let result: Result<T, ArchiveError> = source.withUnsafeBytes { buffer in
            sourceBuffer = buffer
            defer { sourceBuffer = nil }
            do throws(ArchiveError) { return .success(try body(&self)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Fails with the first problem of a property list that is not decoded as an archive.
    func checkPropertyList<Table: PropertyListObjectTable>(_ table: Table) throws(ArchiveError) {
        do throws(PropertyListError) {
            try table.check(limits: limits)
        } catch {
            throw self.error(error)
        }
    }

    /// An XML property list, laid out as an object table.
    func readXML(_ bytes: ArraySlice<UInt8>) throws(ArchiveError) -> XMLPropertyList {
        do throws(PropertyListError) {
            return try XMLPropertyListReader(limits: limits).table(bytes)
        } catch {
            throw self.error(error)
        }
    }
}

/// Class descriptions met in a file, by signature: their bytes kept in one array, so that a
/// search compares bytes without reference counting. At most 64 are kept (hostile archives may
/// describe thousands of classes; a class not kept is only read again).
struct KnownClasses {
    private var signatures: [UInt8] = []
    private var ends: [Int] = []
    private var infos: [ArchiveClassInfo] = []

    func find(_ wanted: UnsafeRawBufferPointer) -> ArchiveClassInfo? {
        signatures.withUnsafeBytes { stored in
            var start = 0
            for (index, end) in ends.enumerated() {
                defer { start = end }
                guard end - start == wanted.count else { continue }
                if wanted.count == 0 || memcmp(stored.baseAddress! + start, wanted.baseAddress!, wanted.count) == 0 { return infos[index] }
            }
            return nil
        }
    }

    mutating func add(_ signature: UnsafeRawBufferPointer, _ info: ArchiveClassInfo) {
        guard infos.count < 64 else { return }
        signatures.append(contentsOf: signature)
        ends.append(signatures.count)
        infos.append(info)
    }
}

/// What the decoder keeps of a class description.
struct ArchiveClassInfo {
    /// The class's entry in the tape's class table.
    var index: Int
    var foundation: FoundationValues.Kind?
    /// The bytes of the names (the class, its chain and hints), which every object of the class shows.
    var nameBytes: Int
}

/// A class description's strings in one byte string: the name, then the chain (or a mark that
/// there is none), then the hints (or a mark), each list a count and each string a length and
/// its UTF-8. Two descriptions with the same signature describe the same class.
struct ClassSignature {
    private let buffer: ByteBuffer
    private static let absent = UInt32.max

    /// An empty signature written into `buffer`, which it overwrites.
    init(in buffer: ByteBuffer) {
        self.buffer = buffer
        buffer.removeAll()
    }

    /// Valid until the buffer is written again.
    var bytes: UnsafeRawBufferPointer {
        buffer.bytes
    }

    var count: Int {
        buffer.count
    }

    func append(_ string: UnsafeRawBufferPointer) {
        appendCount(string.count)
        buffer.append(contentsOf: string)
    }

    @inline(__always)
    func appendCount(_ count: Int) {
        withUnsafeBytes(of: UInt32(count).littleEndian) { buffer.append(contentsOf: $0) }
    }

    @inline(__always)
    func setCount(_ count: Int, at offset: Int) {
        withUnsafeBytes(of: UInt32(count).littleEndian) { buffer.replace(at: offset, with: $0) }
    }

    @inline(__always)
    func appendAbsence() {
        withUnsafeBytes(of: Self.absent.littleEndian) { buffer.append(contentsOf: $0) }
    }

    /// The class the signature describes.
    var tapeClass: TapeClass {
        var reader = Reader(bytes: buffer.array)
        let name = reader.string()
        let chain = reader.count().map { count in (0..<count).map { _ in reader.string() } } ?? [name]
        let hints = reader.count().map { count in (0..<count).map { _ in reader.string() } }
        return TapeClass(name: name, chain: chain, hints: hints)
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        /// A list's count, or nil for the mark of an absent list.
        mutating func count() -> Int? {
            var value: UInt32 = 0
            for shift in 0..<4 { value |= UInt32(bytes[position + shift]) << (8 * shift) }
            position += 4
            return value == ClassSignature.absent ? nil : Int(value)
        }

        mutating func string() -> String {
            let length = count()!
            defer { position += length }
            return String(decoding: bytes[position..<(position + length)], as: UTF8.self)
        }
    }
}

/// A value the decoder's walk has opened and is decoding the members of: `$top` or an object's
/// fields, an array, or a dictionary whose keys may be any value.
///
/// A struct updated in place (`s.walk[top].position += 1`): the walk visits a frame once per
/// member, and copying a whole frame out and back each time cost more than the visit.
struct WalkFrame {
    enum Kind {
        /// `$top`'s entries (`info` nil), or an object's fields.
        case fields
        /// A nested archive, whose value its level delivers (see `DecodingState.drive`).
        case nested
        case array
        case dictionary
    }

    let kind: Kind
    let container: PropertyListContainer
    /// The depth of the members.
    let depth: Int
    /// Where the members start on the tape's stack.
    let mark: Int
    /// The `$objects` entries whose value this is, when it is one being decoded.
    let owner: Owner?
    /// An object's class (nil for `$top` and containers).
    let info: ArchiveClassInfo?
    /// The next member to read.
    var position = 0
    /// The fields pushed so far (an object's `$class` is none).
    var count = 0

    /// An `$objects` entry being decoded, and the counts before it: its slot, and those of a
    /// chain of entries before it that each hold the UID of the next (`pendingSlots` from
    /// `chain` on), are filled when its value is done.
    struct Owner {
        let slot: Int
        let chain: Int
        let nodes: Int
        let bytes: Int
    }
}
