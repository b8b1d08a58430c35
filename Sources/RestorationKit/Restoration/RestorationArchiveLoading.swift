extension RestorationArchive {
    /// Decodes `bytes` (a binary or XML property list) into a restoration archive; a keyed
    /// archive that is not a restoration archive comes back with `isRestorationArchive` false.
    ///
    /// Any other file of a `.savedState` folder (a plain property list, macOS window records) is
    /// read as `kind` says, shown as a keyed archive would be (see `SavedStateKind`).
    ///
    /// The work runs on the calling thread, whatever its stack (no walk recurses per level of
    /// the input, nested archives included), parts of large archives on all processors.
    public init(bytes: ArraySlice<UInt8>, limits: DecodingLimits = .default, interpret: Bool = true) throws(ArchiveError) {
        self = try Self.read(bytes: bytes, limits: limits, interpret: interpret)
    }

    /// Reads and decodes the file at `path` (`-` for standard input). With `followingLinks` false
    /// (an archive found in a directory), a symbolic link, FIFO or device is refused. It runs
    /// as `init(bytes:)` does.
    public init(contentsOf path: String, limits: DecodingLimits = .default, interpret: Bool = true, followingLinks: Bool = true) throws(ArchiveError) {
        self = try Self.read(contentsOf: path, limits: limits, followingLinks: followingLinks, interpret: interpret)
    }

    /// Reads and decodes the files at `paths` at the same time, each as `init(contentsOf:)`
    /// does, for a reader that needs them all (`diff`): the steps of one file that use a single
    /// processor (reading it, listing its nested archives, the model's top level) overlap the
    /// others' work. The results are in the order of `paths`; a file that cannot be read does not
    /// stop the others.
    public static func read(contentsOf paths: [String], limits: DecodingLimits = .default) -> [Result<RestorationArchive, ArchiveError>] {
        var limits = limits
        limits.runShares = paths.count
        return concurrently(paths.count) { index in
            Result { () throws(ArchiveError) in try read(contentsOf: paths[index], limits: limits) }
        }
    }

    /// `body` of each index in `0..<count`, at the same time on several processors.
    static func concurrently<Result>(_ count: Int, _ body: (Int) -> Result) -> [Result] {
        var results = [Result?](repeating: nil, count: count)
        results.withUnsafeMutableBufferPointer { results in
            Parallel.forEach(count) { index in
                results[index] = body(index)
            }
        }
        return results.map { $0! }
    }

    /// As `init(contentsOf:limits:interpret:followingLinks:)`, with the options of the files of
    /// a `.savedState` folder.
    package static func read(
        contentsOf path: String, limits: DecodingLimits, followingLinks: Bool = true, interpret: Bool = true, options: SavedStateReading.Options = .init()
    ) throws(ArchiveError) -> RestorationArchive {
        try read(bytes: InputFile.read(path, limit: limits.maxInputBytes, followingLinks: followingLinks, run: limits.run)[...], limits: limits, interpret: interpret,
                 path: path == "-" ? nil : path, options: options)
    }

    /// As `init(bytes:limits:interpret:)`; `path` (nil for standard input) finds the keys of
    /// macOS window records; the nested archives `kept` are left as data (see
    /// `readForComparison`).
    static func read(
        bytes: ArraySlice<UInt8>, limits: DecodingLimits, interpret: Bool = true, path: String? = nil, options: SavedStateReading.Options = .init(),
        keeping kept: KeptNestedArchives? = nil
    ) throws(ArchiveError) -> RestorationArchive {
        if let shown = try SavedStateReading.readUnlessPropertyList(bytes: bytes, path: path, limits: limits, options: options) {
            return shown
        }
        let tape = try KeyedArchiveDecoder(limits: limits).decodeTape(bytes, allowsPlain: true, keeping: kept)
        if tape.isPlainPropertyList {
            return SavedStateReading.plain(tape, path: path, limits: limits)
        }
        return RestorationArchive(tape: tape, limits: limits, interpret: interpret)
    }

    /// A file of another kind than a keyed archive, shown as one whose `$top` is `tape`'s root
    /// archive.
    static func shown(kind: SavedStateKind, content: SavedStateContent?, tape: ArchiveTape, notes: [String], limits: DecodingLimits) -> RestorationArchive {
        var archive = RestorationArchive(tape: tape, limits: limits, interpret: false)
        archive.kind = kind
        archive.content = content
        archive.notes = notes
        return archive
    }
}
