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

    /// Whether every byte is ASCII, eight bytes at a time: keys and most values are ASCII, and
    /// this runs for every one.
    var isASCII: Bool {
        let high: UInt64 = 0x8080_8080_8080_8080
        guard count >= 8 else { return paddedWord(padding: 0x20) & high == 0 }
        var position = 0
        while position + 8 <= count {
            guard word(at: position) & high == 0 else { return false }
            position += 8
        }
        // The last word overlaps the one before.
        return position == count || word(at: count - 8) & high == 0
    }

    /// Whether `other` holds the same bytes, eight at a time.
    func hasSameBytes(as other: UnsafeRawBufferPointer) -> Bool {
        guard count == other.count else { return false }
        guard count >= 8 else { return paddedWord(padding: 0) == other.paddedWord(padding: 0) }
        var position = 0
        while position + 8 <= count {
            guard word(at: position) == other.word(at: position) else { return false }
            position += 8
        }
        return position == count || word(at: count - 8) == other.word(at: count - 8)
    }
}

extension StaticString {
    /// The literal's UTF-8, to compare or copy as bytes.
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: utf8Start, count: utf8CodeUnitCount)
    }
}
