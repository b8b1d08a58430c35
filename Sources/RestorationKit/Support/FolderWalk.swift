/// Every file in a folder and in its subfolders, at any depth: what a folder named on the command
/// line stands for, for every command that reads files (as `diff -r` takes folders), and the
/// folders `scan` searches for `.savedState` folders.
///
/// Symbolic links are not followed: one to a folder is listed as a file, like a FIFO or a
/// device, so that reading it says why it is not read. Paths of any length are walked (see
/// `PathOpening`). The walk keeps a stack of its own, so a deep tree cannot exhaust the call
/// stack; `maxDepth` bounds how far down it goes.
package struct FolderWalk: Sendable {
    /// The files found: a folder's own first, in name-byte order, then each subfolder's.
    public var files: [String] = []
    /// The folders read, the root first, in the order of `files`.
    public var folders: [String] = []
    /// Folders below the root that could not be read, with the system's reason.
    public var unreadable: [(path: String, reason: String)] = []
    /// Folders `maxDepth` levels down, which the walk did not enter, in name-byte order.
    public var tooDeep: [String] = []

    /// How many levels below a folder the commands look by default.
    public static let defaultDepth = 64

    /// Walks `root`, entering folders fewer than `maxDepth` levels below it; nil if `root`
    /// itself cannot be read as a folder. `progress` is called with the count of folders read
    /// after each one.
    public init?(_ root: String, maxDepth: Int = FolderWalk.defaultDepth, progress: (Int) -> Void = { _ in }) {
        guard let top = DirectoryListing.entries(in: root) else { return nil }
        var pending: [(path: String, depth: Int, entries: [(name: String, kind: DirectoryListing.EntryKind)]?)] = [(root, 0, top)]
        while let (folder, depth, listed) = pending.popLast() {
            guard let entries = listed ?? DirectoryListing.entries(in: folder) else {
                unreadable.append((folder, DirectoryListing.failureReason(folder) ?? "it changed while it was read"))
                continue
            }
            folders.append(folder)
            progress(folders.count)
            let prefix = folder == "/" ? "/" : folder + "/"
            files += entries.filter { $0.kind != .directory }.map { prefix + $0.name }
            for entry in entries.reversed() where entry.kind == .directory {
                if depth + 1 < maxDepth {
                    pending.append((prefix + entry.name, depth + 1, nil))
                } else {
                    tooDeep.append(prefix + entry.name)
                }
            }
        }
        tooDeep.sort { RawPath.bytes($0).lexicographicallyPrecedes(RawPath.bytes($1)) }
    }
}
