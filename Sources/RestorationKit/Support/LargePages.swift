#if canImport(Glibc)
import Glibc
#endif

/// Asks the kernel to back a large buffer with 2 MiB pages where it can (Linux's transparent
/// huge pages, `madvise(MADV_HUGEPAGE)`; elsewhere nothing happens). A 24 MB buffer then takes a
/// dozen page faults instead of six thousand, and lookups across it miss the TLB less. The
/// kernel may decline, or may first compact memory to find such pages; nothing depends on it.
enum LargePages {
    static let size = 2 << 20

    /// Advises the whole 2 MiB pages among the `count` bytes from `start`.
    static func advise(_ start: UnsafeMutableRawPointer, count: Int) {
        #if os(Linux)
        let mask = UInt(size - 1)
        let first = (UInt(bitPattern: start) + mask) & ~mask
        let end = (UInt(bitPattern: start) + UInt(count)) & ~mask
        guard end > first, let pointer = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(pointer, Int(end - first), MADV_HUGEPAGE)
        #endif
    }
}
