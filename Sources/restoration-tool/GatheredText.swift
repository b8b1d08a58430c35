/// Text gathered before any of it is written (a document goes out whole or not at all), in
/// blocks of at least `blockSize` bytes: each byte is copied once, into memory taken as the
/// text grows, not again whenever one array outgrows its capacity, and the blocks go out with
/// `writev(2)` as they are.
final class GatheredText {
    private var blocks: [UnsafeMutableRawBufferPointer] = []
    /// Bytes used in the last block.
    private var used = 0
    private(set) var count = 0

    static var blockSize: Int { 1 << 20 }

    deinit {
        for block in blocks { block.deallocate() }
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        count += rest.count
        while !rest.isEmpty {
            if blocks.isEmpty || used == blocks[blocks.count - 1].count {
                blocks.append(.allocate(byteCount: max(Self.blockSize, rest.count), alignment: 16))
                used = 0
            }
            let block = blocks[blocks.count - 1]
            let taken = min(rest.count, block.count - used)
            UnsafeMutableRawBufferPointer(rebasing: block[used..<(used + taken)]).copyMemory(from: UnsafeRawBufferPointer(rebasing: rest[..<taken]))
            used += taken
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
        }
    }

    /// The text's pieces, in order, valid during the call.
    func withPieces<Result>(_ body: (UnsafeBufferPointer<UnsafeRawBufferPointer>) -> Result) -> Result {
        let pieces = blocks.indices.map { index in
            UnsafeRawBufferPointer(rebasing: blocks[index][..<(index == blocks.count - 1 ? used : blocks[index].count)])
        }
        return pieces.withUnsafeBufferPointer(body)
    }
}
