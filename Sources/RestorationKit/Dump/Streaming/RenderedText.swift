/// Text rendered ahead (a saved object's entry), kept where it stays until the document is
/// written: the writer hands it to the output as it is, without copying it again (see
/// `JSONTextWriter.writeShared`).
struct RenderedText: @unchecked Sendable {
    /// Holds the text; each text keeps its block alive. Unchecked: a block is written by the
    /// thread that renders into it, and only read once rendering is over.
    private let block: TextBlock
    private let range: Range<Int>

    fileprivate init(block: TextBlock, range: Range<Int>) {
        self.block = block
        self.range = range
    }

    /// Valid as long as this text (or another of its block) lives.
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: block.start + range.lowerBound, count: range.count)
    }

    var count: Int { range.count }
}

/// One rendering thread's texts, one after another, in blocks that are never moved or resized:
/// a text's address stays valid while it lives, and twenty thousand entries cost a few blocks,
/// not an allocation each.
struct TextBlocks {
    private var current: TextBlock?
    /// The next block's size: small for a few small entries, up to `largestBlock` for many
    /// (one large page, see `LargePages`).
    private var nextCapacity = 64 << 10
    private static var largestBlock: Int { LargePages.size }

    /// A copy of `text`.
    mutating func keep(_ text: UnsafeRawBufferPointer) -> RenderedText {
        if current.map({ $0.capacity - $0.count < text.count }) ?? true {
            current = TextBlock(capacity: max(nextCapacity, text.count))
            nextCapacity = min(2 * nextCapacity, Self.largestBlock)
        }
        let block = current!
        let start = block.count
        if let from = text.baseAddress {
            (block.start + start).copyMemory(from: from, byteCount: text.count)
        }
        block.count += text.count
        return RenderedText(block: block, range: start..<block.count)
    }
}

private final class TextBlock {
    let start: UnsafeMutableRawPointer
    let capacity: Int
    var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        if capacity >= LargePages.size {
            start = .allocate(byteCount: capacity, alignment: LargePages.size)
            LargePages.advise(start, count: capacity)
        } else {
            start = .allocate(byteCount: max(capacity, 1), alignment: 16)
        }
    }

    deinit {
        start.deallocate()
    }
}
