/// What one thread's renderers share across the archives it renders, one archive at a time:
/// every saved object's archive describes the same few classes again, and reading a description
/// into strings costs more than writing the object.
final class StreamingContext {
    /// Classes met so far, at most `knownLimit` (a hostile file may describe thousands).
    private var known: [StreamedClass] = []
    private static var knownLimit: Int { 256 }
    /// The current archive's class descriptions read so far, by UID.
    private var archiveClasses: [(uid: Int, info: StreamedClass)] = []
    /// UIDs of the current archive being written: meeting one again is a cycle.
    var open: [Int] = []
    /// A class chain being read.
    var chain: [StreamedKey] = []
    /// The entry being rendered, copied: the file's buffer is shared by every thread, and
    /// each copy of a slice of it retains it, which makes the threads contend for one counter.
    private var entryCopy: [UInt8] = []
    /// Where an entry's text is written before it is copied out at its size.
    let textBuffer = ByteBuffer(capacity: 16 * 1024)
    /// Where entries' texts are kept, copied out of `textBuffer`.
    var texts = TextBlocks()

    /// `entry`'s bytes in this thread's own buffer (which `body` must not keep).
    func withPrivateCopy<T>(of entry: UnsafeRawBufferPointer, _ body: (ArraySlice<UInt8>) -> T) -> T {
        entryCopy.removeAll(keepingCapacity: true)
        entryCopy.append(contentsOf: entry)
        return body(entryCopy[...])
    }

    /// Forgets the previous archive's UIDs: one archive is rendered at a time.
    func beginArchive() {
        archiveClasses.removeAll(keepingCapacity: true)
        open.removeAll(keepingCapacity: true)
    }

    func archiveClass(_ uid: Int) -> StreamedClass? {
        archiveClasses.first { $0.uid == uid }?.info
    }

    func remember(_ info: StreamedClass, uid: Int) {
        // Hostile archives may hold thousands of class descriptions: keep the list searched short.
        if archiveClasses.count < 64 { archiveClasses.append((uid, info)) }
    }

    /// The first class met so far named `name` (ASCII bytes) for which `matches` holds.
    func knownClass<E: Error>(named name: UnsafeRawBufferPointer, where matches: (StreamedClass) throws(E) -> Bool) throws(E) -> StreamedClass? {
        let word = StreamedClass.firstWord(name)
        for known in known where known.hasName(name, firstWord: word) {
            if try matches(known) { return known }
        }
        return nil
    }

    /// The class named `name` with `chain` (ASCII bytes), made once.
    func interned(name: StreamedKey, chain: [StreamedKey]) -> StreamedClass {
        if let found = known.first(where: { $0.matches(name: name, chain: chain) }) { return found }
        let info = StreamedClass(name: name.string, chain: chain.map(\.string))
        if known.count < Self.knownLimit { known.append(info) }
        return info
    }
}

/// A class description.
final class StreamedClass {
    let name: String
    let chain: [String]
    let foundation: FoundationValues.Kind?
    /// The bytes of the names, which every object of the class counts (as the decoder does).
    let nameBytes: Int
    /// The names' UTF-8, for `matches`, and the name's first eight bytes (see `firstWord`),
    /// which tell most names apart without a call.
    private let nameUTF8: [UInt8]
    private let chainUTF8: [[UInt8]]
    private let nameWord: UInt64

    init(name: String, chain: [String]) {
        self.name = name
        self.chain = chain
        foundation = FoundationValues.kind(ofClass: name)
        nameBytes = chain.reduce(TextEscaping.writtenSize(name)) { $0 + TextEscaping.writtenSize($1) }
        let utf8 = Array(name.utf8)
        nameUTF8 = utf8
        chainUTF8 = chain.map { Array($0.utf8) }
        nameWord = utf8.withUnsafeBytes(Self.firstWord)
    }

    var chainCount: Int { chainUTF8.count }
    /// Whether the chain is the name alone, as for a description without `$classes`.
    var chainIsName: Bool { chainUTF8.count == 1 && chainUTF8[0] == nameUTF8 }

    /// Up to eight bytes of `bytes` in a word, zero after them.
    static func firstWord(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        guard bytes.count < 8 else { return bytes.loadUnaligned(as: UInt64.self) }
        var word: UInt64 = 0
        for position in 0..<bytes.count {
            word |= UInt64(bytes[position]) << (8 * UInt64(position))
        }
        return word
    }

    /// Whether the name is `bytes`, whose `firstWord` is `firstWord`.
    func hasName(_ bytes: UnsafeRawBufferPointer, firstWord: UInt64) -> Bool {
        firstWord == nameWord && nameUTF8.count == bytes.count && (bytes.count <= 8 || Self.equal(nameUTF8, StreamedKey(bytes)))
    }

    func hasChainName(_ position: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        Self.equal(chainUTF8[position], StreamedKey(bytes))
    }

    func matches(name: StreamedKey, chain: [StreamedKey]) -> Bool {
        guard chainUTF8.count == chain.count, Self.equal(nameUTF8, name) else { return false }
        for (known, key) in zip(chainUTF8, chain) where !Self.equal(known, key) {
            return false
        }
        return true
    }

    private static func equal(_ bytes: [UInt8], _ key: StreamedKey) -> Bool {
        bytes.withUnsafeBytes { StreamedKey($0) == key }
    }
}

extension StreamedKey {
    /// The key as a string (its bytes are ASCII).
    var string: String {
        String(decoding: bytes, as: UTF8.self)
    }
}
