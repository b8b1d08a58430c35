#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte tests eight bytes at a time: how keys and strings, millions in a large dump, are checked.
/// Most are shorter than sixteen bytes, so a byte-by-byte tail would cost as much as the words:
/// the last word of a longer run overlaps the one before, and a shorter run is read in two
/// loads that overlap.
extension UnsafeRawBufferPointer {
    /// The eight bytes at `offset` (callers keep `offset + 8 <= count`).
    @inline(__always)
    func word(at offset: Int) -> UInt64 {
        loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    /// The bytes of a run shorter than eight in one word, read in two loads that may overlap,
    /// so that some bytes appear twice; an empty run gives `padding` in every byte. What the
    /// callers do with it holds either way: test every byte, or compare two runs of one length.
    @inline(__always)
    func shortWord(padding: UInt8) -> UInt64 {
        switch count {
        case 4...7:
            return UInt64(loadUnaligned(as: UInt32.self)) | UInt64(loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)) << 32
        case 2...3:
            let half = UInt64(loadUnaligned(as: UInt16.self)) | UInt64(loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)) << 16
            return half | half << 32
        case 1:
            return UInt64(self[0]) &* 0x0101_0101_0101_0101
        default:
            return UInt64(padding) &* 0x0101_0101_0101_0101
        }
    }

    /// Whether every byte is ASCII, eight bytes at a time: keys and most values are ASCII, and
    /// this runs for every one.
    var isASCII: Bool {
        let high: UInt64 = 0x8080_8080_8080_8080
        guard count >= 8 else { return shortWord(padding: 0x20) & high == 0 }
        var position = 0
        while position + 8 <= count {
            guard word(at: position) & high == 0 else { return false }
            position += 8
        }
        // The last word overlaps the one before.
        return position == count || word(at: count - 8) & high == 0
    }

    /// Whether `other` holds the same bytes: eight at a time, or by the C library's `memcmp`
    /// (vector loads) past 64 bytes, the data blobs `diff` compares.
    func hasSameBytes(as other: UnsafeRawBufferPointer) -> Bool {
        guard count == other.count else { return false }
        guard count >= 8 else { return shortWord(padding: 0) == other.shortWord(padding: 0) }
        if count > 64 { return memcmp(baseAddress!, other.baseAddress!, count) == 0 }
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

extension Array where Element == UInt8 {
    /// Appends raw bytes in one copy: `append(contentsOf:)` given the raw buffer itself takes
    /// them one at a time, as any sequence.
    @inline(__always)
    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) {
        append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
    }
}

extension UnsafeMutableRawPointer {
    /// Copies `count` bytes from `source`, which do not overlap these. The writers' pieces are
    /// mostly a few bytes (a key, a number, `": "`): up to sixteen are copied as two loads and
    /// stores that may overlap, not by a call to `memcpy`.
    @inline(__always)
    func copyShortBytes(from source: UnsafeRawPointer, count: Int) {
        switch count {
        case 8...16:
            let (head, tail) = (source.loadUnaligned(as: UInt64.self), source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            storeBytes(of: head, as: UInt64.self)
            storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        case 4..<8:
            let (head, tail) = (source.loadUnaligned(as: UInt32.self), source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            storeBytes(of: head, as: UInt32.self)
            storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        case 1..<4:
            for offset in 0..<count { storeBytes(of: source.load(fromByteOffset: offset, as: UInt8.self), toByteOffset: offset, as: UInt8.self) }
        default:
            copyMemory(from: source, byteCount: count)
        }
    }
}

/// Tests of the eight bytes of a word at once (the "has a byte less than n" test of Bit
/// Twiddling Hacks): each gives the high bit of every byte found. Exact as to whether any byte
/// is found; a borrow can flag a byte more significant than one truly found, so, the word read
/// least significant byte first, the first flagged byte is a true one (`firstFlagged`).
enum ByteWord {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The bytes of `word` below `limit` (1 to 0x80).
    @inline(__always)
    static func below(_ limit: UInt8, in word: UInt64) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highs
    }

    /// The bytes of `word` equal to `byte`.
    @inline(__always)
    static func equal(to byte: UInt8, in word: UInt64) -> UInt64 {
        below(1, in: word ^ (ones &* UInt64(byte)))
    }

    /// The bytes no text output writes as they are: control characters, DEL, a backslash, any
    /// byte beyond ASCII, and a double quote when `quote`.
    @inline(__always)
    static func needingEscape(in word: UInt64, quote: Bool) -> UInt64 {
        let found = below(0x20, in: word) | equal(to: 0x7F, in: word) | equal(to: 0x5C, in: word) | word & highs
        return quote ? found | equal(to: 0x22, in: word) : found
    }

    /// Where in memory the first byte `flags` flags is (`flags` not zero): known where the
    /// word's first byte is its least significant; nil otherwise.
    @inline(__always)
    static func firstFlagged(_ flags: UInt64) -> Int? {
        #if _endian(little)
        return flags.trailingZeroBitCount / 8
        #else
        return nil
        #endif
    }
}
