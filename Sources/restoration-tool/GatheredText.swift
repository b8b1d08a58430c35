import RestorationKit

/// Text gathered before any of it is written (a document goes out whole or not at all): pieces
/// with an owner are kept where they are, with their owner; the rest is copied into blocks of
/// at least `blockSize` bytes, each byte once (not again whenever one array outgrows its
/// capacity); it all goes out with `writev(2)`.
final class GatheredText {
    /// The text in order: kept pieces, and the used part of each block.
    private var pieces: [UnsafeRawBufferPointer] = []
    private var owners: [AnyObject] = []
    /// The blocks this owns, and where the last one's free room starts.
    private var blocks: [UnsafeMutableRawBufferPointer] = []
    private var used = 0
    /// Whether the last piece is copied text ending where the last block's free room starts.
    private var lastPieceIsCopied = false
    private(set) var count = 0

    static var blockSize: Int { 1 << 20 }

    deinit {
        for block in blocks { block.deallocate() }
    }

    func append(_ piece: JSONOutput.Piece) {
        guard let owner = piece.owner else { return append(piece.bytes) }
        guard !piece.bytes.isEmpty else { return }
        count += piece.bytes.count
        pieces.append(piece.bytes)
        owners.append(owner)
        lastPieceIsCopied = false
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        count += rest.count
        while !rest.isEmpty {
            if blocks.isEmpty || used == blocks[blocks.count - 1].count {
                blocks.append(.allocate(byteCount: max(Self.blockSize, rest.count), alignment: 16))
                used = 0
                lastPieceIsCopied = false
            }
            let block = blocks[blocks.count - 1]
            let taken = min(rest.count, block.count - used)
            UnsafeMutableRawBufferPointer(rebasing: block[used..<(used + taken)]).copyMemory(from: UnsafeRawBufferPointer(rebasing: rest[..<taken]))
            // Copied text follows the copied text before it in the block: one piece.
            let start = lastPieceIsCopied ? used - pieces[pieces.count - 1].count : used
            let piece = UnsafeRawBufferPointer(rebasing: block[start..<(used + taken)])
            if lastPieceIsCopied { pieces[pieces.count - 1] = piece } else { pieces.append(piece) }
            lastPieceIsCopied = true
            used += taken
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
        }
    }

    /// The text's pieces, in order, valid during the call.
    func withPieces<Result>(_ body: (UnsafeBufferPointer<UnsafeRawBufferPointer>) -> Result) -> Result {
        pieces.withUnsafeBufferPointer(body)
    }
}
