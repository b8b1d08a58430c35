extension RestorationArchive {
    /// Decodes `bytes` (a binary or XML property list) into a restoration archive; a keyed
    /// archive that is not a restoration archive comes back with `isRestorationArchive` false.
    public init(bytes: ArraySlice<UInt8>, limits: DecodingLimits = .default, interpret: Bool = true) throws(ArchiveError) {
        self.init(archive: try KeyedArchiveDecoder(limits: limits).decode(bytes), interpret: interpret)
    }

    /// Reads and decodes the file at `path` (`-` for standard input). With `followingLinks` false
    /// (an archive found in a directory), a symbolic link, FIFO or device is refused.
    public init(contentsOf path: String, limits: DecodingLimits = .default, interpret: Bool = true, followingLinks: Bool = true) throws(ArchiveError) {
        let bytes = try InputFile.read(path, limit: limits.maxInputBytes, followingLinks: followingLinks)
        try self.init(bytes: bytes[...], limits: limits, interpret: interpret)
    }
}
