import ArgumentParser

/// The archive arguments of the commands that read one or more archive files.
struct ArchiveFiles: ParsableArguments {
    @Argument(help: ArgumentHelp("Archives to read (data.data files); - for standard input.", valueName: "file"), completion: .file())
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Missing expected argument '<file> ...'") }
        try Self.checkStandardInput(files)
    }

    /// Standard input cannot be rewound, so it may be named once.
    static func checkStandardInput(_ files: [String]) throws {
        guard files.filter({ $0 == "-" }).count <= 1 else { throw ValidationError("standard input (-) can be read only once") }
    }
}
