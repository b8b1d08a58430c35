/// Byte tests eight bytes at a time: how keys and strings, millions in a large dump, are checked.
/// Most are shorter than sixteen bytes, so a byte-by-byte tail would cost as much as the words:
/// the last word of a longer run overlaps the one before, and a shorter run is padded.
extension UnsafeRawBufferPointer {
    /// The eight bytes at `offset` (callers keep `offset + 8 <= count`).
    @inline(__always)
    func word(at offset: Int) -> UInt64 {
        loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    /// The bytes of a run shorter than eight, in a word whose other bytes are `padding`.
    @inline(__always)
    func paddedWord(padding: UInt8) -> UInt64 {
        var word = (UInt64(padding) &* 0x0101_0101_0101_0101) << (8 * UInt64(count))
        for position in 0..<count {
            word |= UInt64(self[position]) << (8 * UInt64(position))
        }
        return word
    }
}
