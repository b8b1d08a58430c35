#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Minimal file-system queries, without Foundation. Paths are `RawPath` names: any bytes.
package enum DirectoryListing {
    public static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return RawPath.withCString(path) { stat($0, &status) } == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether anything (a dangling symbolic link excepted) is at `path`.
    public static func exists(_ path: String) -> Bool {
        var status = stat()
        return RawPath.withCString(path) { stat($0, &status) } == 0
    }

    public enum EntryKind: Sendable {
        case directory, file, symbolicLink, other
    }

    /// The entries of a directory with their kinds (symbolic links are not followed), sorted by
    /// name; nil if it cannot be read.
    public static func entries(in path: String) -> [(name: String, kind: EntryKind)]? {
        guard let directory = RawPath.withCString(path, { opendir($0) }) else { return nil }
        defer { closedir(directory) }
        var entries: [(name: String, kind: EntryKind)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                RawPath.string(raw.prefix { $0 != 0 })
            }
            guard name != "." && name != ".." else { continue }
            let kind: EntryKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_REG): kind = .file
            case Int32(DT_LNK): kind = .symbolicLink
            case Int32(DT_UNKNOWN): kind = kindByLstat(path + "/" + name)
            default: kind = .other
            }
            entries.append((name, kind))
        }
        return entries.sorted { $0.name < $1.name }
    }

    /// What is at `path` itself (a symbolic link is not followed); nil if nothing is.
    public static func kind(of path: String) -> EntryKind? {
        var status = stat()
        guard RawPath.withCString(path, { lstat($0, &status) }) == 0 else { return nil }
        return kind(status.st_mode)
    }

    private static func kind(_ mode: mode_t) -> EntryKind {
        switch mode & S_IFMT {
        case S_IFDIR: .directory
        case S_IFREG: .file
        case S_IFLNK: .symbolicLink
        default: .other
        }
    }

    private static func kindByLstat(_ path: String) -> EntryKind {
        var status = stat()
        guard RawPath.withCString(path, { lstat($0, &status) }) == 0 else { return .other }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .file
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// Why a directory cannot be listed, in the system's words ("Permission denied", "File name
    /// too long", "No such file or directory", "Not a directory"); nil if it can be.
    public static func failureReason(_ path: String) -> String? {
        guard let directory = RawPath.withCString(path, { opendir($0) }) else { return String(cString: strerror(errno)) }
        closedir(directory)
        return nil
    }

    /// The names in a directory, sorted, without `.` and `..`; nil if it cannot be read.
    public static func names(in path: String) -> [String]? {
        guard let directory = RawPath.withCString(path, { opendir($0) }) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                RawPath.string(raw.prefix { $0 != 0 })
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
