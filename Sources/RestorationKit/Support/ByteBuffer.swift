/// A growable run of bytes that appends with a bounds check and a copy: the writers' text, and
/// the decoder's class signatures.
///
/// Output is made of millions of small pieces (a bracket, an indentation, a key); appending
/// each to an `Array` costs a uniqueness check and a generic copy. A writer owns its buffer
/// alone, so a class is safe here; a buffer passes between threads whole (the JSON writer's
/// parts hand theirs back to a shared pool, then to the thread that writes them out), never
/// written by two at once.
final class ByteBuffer: @unchecked Sendable {
    private var start: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        start = Self.allocate(self.capacity)
    }

    /// Megabytes of text (the headers of a large archive's objects) in large pages.
    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard capacity >= 2 * LargePages.size else { return .allocate(capacity: capacity) }
        let start = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: LargePages.size)
        LargePages.advise(start, count: capacity)
        return start.bindMemory(to: UInt8.self, capacity: capacity)
    }

    deinit {
        start.deallocate()
    }

    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: start, count: count)
    }

    /// A copy of the bytes.
    var array: [UInt8] {
        Array(UnsafeBufferPointer(start: start, count: count))
    }

    func reserveCapacity(_ minimum: Int) {
        if minimum > capacity { resize(to: minimum) }
    }

    func removeAll() {
        count = 0
    }

    /// Overwrites bytes already written, from `offset`.
    func replace(at offset: Int, with bytes: UnsafeRawBufferPointer) {
        precondition(offset >= 0 && offset + bytes.count <= count)
        guard let from = bytes.baseAddress else { return }
        UnsafeMutableRawPointer(start + offset).copyMemory(from: from, byteCount: bytes.count)
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { resize(to: 2 * capacity) }
        start[count] = byte
        count += 1
    }

    /// Most pieces are a few bytes (a key, a number, `": "`): see `copyShortBytes`.
    @inline(__always)
    func append(contentsOf source: UnsafeRawBufferPointer) {
        let added = source.count
        guard added > 0, let from = source.baseAddress else { return }
        if count + added > capacity { resize(to: max(2 * capacity, count + added)) }
        UnsafeMutableRawPointer(start + count).copyShortBytes(from: from, count: added)
        count += added
    }

    /// A newline, then `spaces` spaces, written eight at a time: the buffer keeps room for the
    /// last word's spaces past the count, which the next piece writes over.
    @inline(__always)
    func appendNewline(indentedBy spaces: Int) {
        let added = spaces + 1
        if count + added + 8 > capacity { resize(to: max(2 * capacity, count + added + 8)) }
        let to = UnsafeMutableRawPointer(start + count)
        to.storeBytes(of: UInt8(ascii: "\n"), as: UInt8.self)
        let eightSpaces: UInt64 = 0x2020_2020_2020_2020
        var offset = 1
        while offset < added {
            to.storeBytes(of: eightSpaces, toByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        count += added
    }

    func append(contentsOf source: [UInt8]) {
        source.withUnsafeBytes { append(contentsOf: $0) }
    }

    @inline(__always)
    func append(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: UnsafeRawBufferPointer($0)) }
    }

    private func resize(to newCapacity: Int) {
        let moved = Self.allocate(newCapacity)
        moved.initialize(from: start, count: count)
        start.deallocate()
        start = moved
        capacity = newCapacity
    }
}

/// A text stream that appends to a byte buffer. The standard library's numbers write their
/// digits to a stream as ASCII bytes (`_writeASCII`, a requirement of `TextOutputStream` with a
/// default that makes a string first): taken here as they are.
struct ByteBufferStream: TextOutputStream {
    let buffer: ByteBuffer

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { buffer.append(contentsOf: UnsafeRawBufferPointer($0)) }
    }

    mutating func _writeASCII(_ bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: UnsafeRawBufferPointer(bytes))
    }
}
