extension RestorationArchive {
    /// Decodes `bytes` (a binary or XML property list) into a restoration archive; a keyed
    /// archive that is not a restoration archive comes back with `isRestorationArchive` false.
    ///
    /// Any other file of a `.savedState` folder (a plain property list, macOS window records) is
    /// read as `kind` says, shown as a keyed archive would be (see `SavedStateKind`).
    ///
    /// The work runs on a thread of the library's pool whose stack fits the nesting `limits`
    /// allow (input-controlled nesting recurses), large archives on all processors; the call
    /// waits for it.
    public init(bytes: ArraySlice<UInt8>, limits: DecodingLimits = .default, interpret: Bool = true) throws(ArchiveError) {
        self = try DeferredStates.read(bytes: bytes, limits: limits, interpret: interpret, deferring: false).0
    }

    /// Reads and decodes the file at `path` (`-` for standard input). With `followingLinks` false
    /// (an archive found in a directory), a symbolic link, FIFO or device is refused. It runs
    /// as `init(bytes:)` does.
    public init(contentsOf path: String, limits: DecodingLimits = .default, interpret: Bool = true, followingLinks: Bool = true) throws(ArchiveError) {
        self = try DeferredStates.read(contentsOf: path, limits: limits, followingLinks: followingLinks, interpret: interpret, deferring: false).0
    }
}

extension RestorationArchive {
    /// Reads and decodes the files at `paths` at the same time, each as `init(contentsOf:)`
    /// does, for a reader that needs them all (`diff`): the steps of one file that use a single
    /// processor (reading it, listing its nested archives, the model's top level) overlap the
    /// others' work. The results are in the order of `paths`; a file that cannot be read does not
    /// stop the others.
    public static func read(contentsOf paths: [String], limits: DecodingLimits = .default) -> [Result<RestorationArchive, ArchiveError>] {
        // Every archive read whole: no states left on the tape.
        DeferredStates.read(contentsOf: paths, limits: limits, deferring: false).map { $0.map(\.0) }
    }
}
