#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The strings a materialisation made lately, by their bytes: a restoration archive repeats the
/// same keys and class names in every saved object, and a string longer than 15 bytes (which
/// Swift keeps inline) would otherwise be allocated and copied again for each of them. A
/// string found here is shared (one reference more), not made.
///
/// 64 slots, each holding the last string whose length, ends and middle byte led there: a miss
/// only costs a string made as before. A string is handed back only for its own bytes (so one
/// repaired from invalid UTF-8 never is). One per thread: a cache is not shared.
struct RepeatedStrings {
    /// Made when the first long string is.
    private var slots: [String?] = []

    /// The string of `bytes` (UTF-8, invalid sequences repaired as `String(decoding:)` does).
    mutating func string(_ bytes: UnsafeRawBufferPointer) -> String {
        // Short strings are inline: nothing to share.
        guard bytes.count > 15 else { return String(decoding: bytes, as: UTF8.self) }
        if slots.isEmpty { slots = [String?](repeating: nil, count: 64) }
        let slot = (bytes.count &* 31 &+ Int(bytes[0]) &* 7 &+ Int(bytes[bytes.count - 1]) &+ Int(bytes[bytes.count / 2]) &* 3) & 63
        if var cached = slots[slot], cached.utf8.count == bytes.count {
            let same = cached.withUTF8 { stored in memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
            if same { return cached }
        }
        let made = String(decoding: bytes, as: UTF8.self)
        slots[slot] = made
        return made
    }
}
