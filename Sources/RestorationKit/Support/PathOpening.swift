#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a path of any length: the one `open(2)` that input files and the folder walk go
/// through.
///
/// A tree from a backup can nest deeper than the system takes in one path (`PATH_MAX`, 4 096
/// bytes on Linux). When the path is too long, it is opened a component at a time, each with
/// `openat(2)` relative to the directory before it, so no path length limits what is found or
/// read.
enum PathOpening {
    /// `open(path, flags)`; with `followingLinks` false, no component is followed if it is a
    /// symbolic link when the path is opened by components (the last one never is, with
    /// `O_NOFOLLOW` in `flags`). -1 with `errno` set on failure.
    static func open(_ path: String, _ flags: Int32, followingLinks: Bool = true) -> Int32 {
        let descriptor = RawPath.withCString(path) { systemOpen($0, flags) }
        guard descriptor < 0, errno == ENAMETOOLONG else { return descriptor }
        return openByComponents(RawPath.bytes(path), flags, followingLinks: followingLinks)
    }

    private static func openByComponents(_ path: [UInt8], _ flags: Int32, followingLinks: Bool) -> Int32 {
        let components = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        guard let last = components.last else {
            errno = ENAMETOOLONG
            return -1
        }
        let start = path.first == UInt8(ascii: "/") ? "/" : "."
        var directory = systemOpen(start, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return -1 }
        let through = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW)
        for component in components.dropLast() {
            let next = openAt(directory, component, through)
            let reason = errno
            close(directory)
            guard next >= 0 else {
                errno = reason
                return -1
            }
            directory = next
        }
        let descriptor = openAt(directory, last, flags)
        let reason = errno
        close(directory)
        errno = reason
        return descriptor
    }

    private static func openAt(_ directory: Int32, _ name: ArraySlice<UInt8>, _ flags: Int32) -> Int32 {
        let terminated = name.map { CChar(bitPattern: $0) } + [0]
        return terminated.withUnsafeBufferPointer { openat(directory, $0.baseAddress!, flags) }
    }
}

/// `open(2)`, at file scope so that the name is not taken by `PathOpening.open`.
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
    open(path, flags)
}
