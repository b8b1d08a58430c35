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
    @Argument(help: ArgumentHelp("Archives to read (data.data files), other files of a .savedState folder, or such folders; - (or none, when standard input is not a terminal) for standard input.", valueName: "file"), completion: .file())
    var files: [String] = []

    /// The files to read: a directory (a `.savedState` folder) stands for every file in it and
    /// in its subfolders (see `SavedStateDirectory.allFiles`), which are then `inFolder`.
    func expandedFiles(status: inout Int32) -> [(path: String, inFolder: Bool)] {
        files.flatMap { argument -> [(path: String, inFolder: Bool)] in
            let path = Validate.trimmingTrailingSlashes(argument)
            guard path != "-", DirectoryListing.isDirectory(path) else { return [(argument, false)] }
            var unreadable: [String] = []
            guard let found = SavedStateDirectory.allFiles(in: path, unreadable: &unreadable) else {
                Console.error(file: path, "cannot read this directory")
                status = max(status, ExitStatus.unreadable)
                return []
            }
            for folder in unreadable {
                Console.error(file: folder, "cannot read this directory")
                status = max(status, ExitStatus.unreadable)
            }
            if found.isEmpty { Console.note(file: path, "no files in this directory or its subfolders") }
            return found.map { ($0, true) }
        }
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
