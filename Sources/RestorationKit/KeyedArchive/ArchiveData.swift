/// Bytes from an archive that are not a decodable keyed archive.
public struct ArchiveData: Hashable, Sendable {
    /// The bytes: a slice of the file's buffer only while the outer archive of `dump --json` is
    /// read (its entries are found by offset); decoded values hold copies (see `init(copying:)`).
    public var bytes: ArraySlice<UInt8>
    /// Set when the bytes announce a property list (a `bplist00` or XML header) but could not be
    /// read as a keyed archive: why.
    public var archiveError: String?

    public init(bytes: ArraySlice<UInt8>, archiveError: String? = nil) {
        self.bytes = bytes
        self.archiveError = archiveError
    }

    /// Data holding a copy of `bytes`: a slice would keep the whole file's buffer (24 MB for a
    /// large archive) alive as long as the decoded value, for a few bytes of it.
    init(copying bytes: ArraySlice<UInt8>, archiveError: String? = nil) {
        self.init(bytes: Array(bytes)[...], archiveError: archiveError)
    }
}
