import ArgumentParser
import RestorationKit

/// The archive arguments of the commands that read one or more archive files.
struct ArchiveFiles: ParsableArguments {
    @Argument(help: ArgumentHelp("Archives to read (data.data files), other files of a .savedState folder, or such folders; - for standard input.", valueName: "file"), completion: .file())
    var files: [String]

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

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Missing expected argument '<file> ...'") }
        try Self.checkStandardInput(files)
    }

    /// Standard input cannot be rewound, so it may be named once.
    static func checkStandardInput(_ files: [String]) throws {
        guard files.filter({ $0 == "-" }).count <= 1 else { throw ValidationError("standard input (-) can be read only once") }
    }
}
