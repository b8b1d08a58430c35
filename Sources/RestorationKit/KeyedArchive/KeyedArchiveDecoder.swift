/// Decodes NSKeyedArchiver archives, nested archives included, into an `ArchiveTape`, from
/// which `KeyedArchive` trees are made.
///
/// Every UID is checked against `$objects`; each object is decoded once and shared after that;
/// a reference back to an object still being decoded becomes `.cycle`; depth, the number of
/// values (a shared value counts once per reference) and archive nesting are bounded by `limits`.
///
/// A binary archive is decoded straight from its bytes (see `PropertyListObjectTable`); only the
/// objects the archive reaches from `$top` are read.
public struct KeyedArchiveDecoder: Sendable {
    public var limits: DecodingLimits
    /// Whether a large archive's nested archives may be decoded on several threads (the result is
    /// the same either way; tests compare the two).
    var allowsConcurrency = true

    public init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    /// Reads `bytes` as a property list (binary or XML) and decodes it, on the calling thread
    /// (parts of a large archive on all processors): the decoder keeps stacks of its own.
    public func decode(_ bytes: ArraySlice<UInt8>) throws(ArchiveError) -> KeyedArchive {
        var state = DecodingState(limits: limits, allowsConcurrency: allowsConcurrency)
        return try state.decodeFile(bytes).keyedArchive
    }

    public func decode(_ bytes: [UInt8]) throws(ArchiveError) -> KeyedArchive {
        try decode(bytes[...])
    }

    /// Decodes `bytes` into a tape; with `allowsPlain`, a plain property list too (see
    /// `DecodingState.decodeFile`), leaving the nested archives `kept` as data.
    func decodeTape(_ bytes: ArraySlice<UInt8>, allowsPlain: Bool = false, keeping kept: KeptNestedArchives? = nil) throws(ArchiveError) -> ArchiveTape {
        var state = DecodingState(limits: limits, allowsConcurrency: allowsConcurrency)
        state.kept = kept
        return try state.decodeFile(bytes, allowsPlain: allowsPlain)
    }
}

