#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Darwin)
private typealias DirectoryHandle = UnsafeMutablePointer<DIR>
#else
private typealias DirectoryHandle = OpaquePointer
#endif

/// Minimal file-system queries, without Foundation. Paths are `RawPath` names: any bytes.
package enum DirectoryListing {
    public static func isDirectory(_ path: String) -> Bool {
        status(path, followingLinks: true).map { ($0.st_mode & S_IFMT) == S_IFDIR } ?? false
    }

    /// Whether anything (a dangling symbolic link excepted) is at `path`.
    public static func exists(_ path: String) -> Bool {
        status(path, followingLinks: true) != nil
    }

    public enum EntryKind: Sendable {
        case directory, file, symbolicLink, other
    }

    /// The entries of a directory with their kinds (symbolic links are not followed), sorted by
    /// name bytes; nil if it cannot be read. A path of any length is opened (see `PathOpening`).
    public static func entries(in path: String) -> [(name: String, kind: EntryKind)]? {
        guard let directory = openDirectory(path) else { return nil }
        defer { closedir(directory) }
        // Each name's bytes kept beside it: entries sort by the bytes, into which a name would
        // otherwise be turned back at every comparison.
        var entries: [(bytes: [UInt8], name: String, kind: EntryKind)] = []
        while let entry = readdir(directory) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            guard bytes != [0x2E] && bytes != [0x2E, 0x2E] else { continue }
            let kind: EntryKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_REG): kind = .file
            case Int32(DT_LNK): kind = .symbolicLink
            case Int32(DT_UNKNOWN): kind = kindAt(dirfd(directory), bytes)
            default: kind = .other
            }
            entries.append((bytes, RawPath.string(bytes), kind))
        }
        entries.sort { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        return entries.map { ($0.name, $0.kind) }
    }

    /// What is at `path` itself (a symbolic link is not followed); nil if nothing is.
    public static func kind(of path: String) -> EntryKind? {
        status(path, followingLinks: false).map { kind($0.st_mode) }
    }

    private static func kind(_ mode: mode_t) -> EntryKind {
        switch mode & S_IFMT {
        case S_IFDIR: .directory
        case S_IFREG: .file
        case S_IFLNK: .symbolicLink
        default: .other
        }
    }

    private static func kindAt(_ directory: Int32, _ name: [UInt8]) -> EntryKind {
        var status = stat()
        let terminated = name.map { CChar(bitPattern: $0) } + [0]
        guard terminated.withUnsafeBufferPointer({ fstatat(directory, $0.baseAddress!, &status, AT_SYMLINK_NOFOLLOW) }) == 0 else { return .other }
        return kind(status.st_mode)
    }

    /// `stat` (or `lstat`) of a path of any length: a path too long for one call is looked up
    /// in its folder, opened by `PathOpening`.
    private static func status(_ path: String, followingLinks: Bool) -> stat? {
        var status = stat()
        let result = RawPath.withCString(path) { followingLinks ? stat($0, &status) : lstat($0, &status) }
        if result == 0 { return status }
        guard errno == ENAMETOOLONG else { return nil }
        var bytes = RawPath.bytes(path)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let folder = PathOpening.open(RawPath.string(bytes[..<max(slash, 1)]), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return nil }
        defer { close(folder) }
        let terminated = bytes[(slash + 1)...].map { CChar(bitPattern: $0) } + [0]
        let found = terminated.withUnsafeBufferPointer { fstatat(folder, $0.baseAddress!, &status, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW) }
        return found == 0 ? status : nil
    }

    /// The directory at `path`, opened for reading; nil with `errno` set.
    private static func openDirectory(_ path: String) -> DirectoryHandle? {
        let descriptor = PathOpening.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard let directory = fdopendir(descriptor) else {
            let reason = errno
            close(descriptor)
            errno = reason
            return nil
        }
        return directory
    }

    /// Why a directory cannot be listed, in the system's words ("Permission denied", "No such
    /// file or directory", "Not a directory"); nil if it can be.
    public static func failureReason(_ path: String) -> String? {
        guard let directory = openDirectory(path) else { return String(cString: strerror(errno)) }
        closedir(directory)
        return nil
    }
}
