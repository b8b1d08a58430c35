/// Bytes from an archive that are not a decodable keyed archive.
public struct ArchiveData: Hashable, Sendable {
    /// The bytes: a slice of the file's buffer only while the outer archive of `dump --json` is
    /// read (its entries are found by offset); decoded values hold copies made from the tape, so
    /// that a few bytes do not keep the whole file's buffer alive.
    public var bytes: ArraySlice<UInt8>
    /// Set when the bytes announce a property list (a `bplist00` or XML header) but could not be
    /// read as a keyed archive: why.
    public var archiveError: String?

    public init(bytes: ArraySlice<UInt8>, archiveError: String? = nil) {
        self.bytes = bytes
        self.archiveError = archiveError
    }
}
