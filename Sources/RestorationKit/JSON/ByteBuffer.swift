/// A growable run of bytes that appends with a bounds check and a copy: the JSON writer's text.
///
/// Output is made of millions of small pieces (a bracket, an indentation, a key); appending
/// each to an `Array` costs a uniqueness check and a generic copy, which added up to a tenth of
/// a large dump's instructions. A writer owns its buffer alone, so a class is safe here.
final class ByteBuffer {
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

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { resize(to: 2 * capacity) }
        start[count] = byte
        count += 1
    }

    @inline(__always)
    func append(contentsOf source: UnsafeRawBufferPointer) {
        let added = source.count
        guard added > 0, let from = source.baseAddress else { return }
        if count + added > capacity { resize(to: max(2 * capacity, count + added)) }
        (start + count).initialize(from: from.assumingMemoryBound(to: UInt8.self), count: added)
        count += added
    }

    /// A newline, then `spaces` spaces.
    @inline(__always)
    func appendNewline(indentedBy spaces: Int) {
        let added = spaces + 1
        if count + added > capacity { resize(to: max(2 * capacity, count + added)) }
        start[count] = UInt8(ascii: "\n")
        (start + count + 1).initialize(repeating: UInt8(ascii: " "), count: spaces)
        count += added
    }

    func append(contentsOf source: [UInt8]) {
        source.withUnsafeBytes { append(contentsOf: $0) }
    }

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
