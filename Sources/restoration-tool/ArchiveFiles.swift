import ArgumentParser
import RestorationKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The archive arguments of the commands that read one or more archive files.
struct ArchiveFiles: ParsableArguments {
    @Argument(help: ArgumentHelp("Archives to read (data.data files), other files of a .savedState folder, or folders: a folder stands for every file in it and in its subfolders, at any depth. - (or none, when standard input is not a terminal) for standard input.", valueName: "file"), completion: .file())
    var files: [String] = []

    /// The files to read: a directory stands for every file in it and in its subfolders, at
    /// any depth (see `FolderWalk`), which are then `inFolder`.
    func expandedFiles(status: inout Int32) -> [(path: String, inFolder: Bool)] {
        files.flatMap { argument -> [(path: String, inFolder: Bool)] in
            let path = Validate.trimmingTrailingSlashes(argument)
            guard path != "-", DirectoryListing.isDirectory(path) else { return [(argument, false)] }
            guard let walk = Self.walk(path, status: &status) else { return [] }
            if walk.files.isEmpty { Console.note(file: path, "no files in this directory or its subfolders") }
            return walk.files.map { ($0, true) }
        }
    }

    /// The walk of the folder `path`, its unreadable subfolders and those too deep to enter
    /// reported; nil, after an error line, when `path` cannot be read. What could not be read
    /// makes the status 2.
    static func walk(_ path: String, status: inout Int32) -> FolderWalk? {
        guard let walk = FolderWalk(path) else {
            Console.error(file: path, "cannot read this directory: " + (DirectoryListing.failureReason(path) ?? "it changed while it was read"))
            status = max(status, ExitStatus.unreadable)
            return nil
        }
        for (folder, reason) in walk.unreadable {
            Console.error(file: folder, "cannot read this directory: " + reason)
            status = max(status, ExitStatus.unreadable)
        }
        if let first = walk.tooDeep.first {
            let count = walk.tooDeep.count
            Console.warning(file: path, "\(count) \(count == 1 ? "directory" : "directories") \(FolderWalk.defaultDepth) levels down, \(RawPath.display(first)) the first, not read")
        }
        return walk
    }

    mutating func validate() throws {
        try Self.defaultToStandardInput(&files)
        try Self.checkStandardInput(files)
    }

    /// No file given: standard input when it is redirected (`dump < data.data`, as jq and cat
    /// read it); at a terminal, where nothing is coming, a usage error that says how.
    static func defaultToStandardInput(_ files: inout [String]) throws {
        guard files.isEmpty else { return }
        guard isatty(0) == 0 else {
            throw ValidationError("Missing expected argument '<file> ...' (- reads standard input)")
        }
        files = ["-"]
    }

    /// Standard input cannot be rewound, so it may be named once.
    static func checkStandardInput(_ files: [String]) throws {
        guard files.filter({ $0 == "-" }).count <= 1 else { throw ValidationError("standard input (-) can be read only once") }
    }
}
