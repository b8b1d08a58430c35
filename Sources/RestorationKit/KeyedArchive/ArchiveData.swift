/// Bytes from an archive that are not a decodable keyed archive.
public struct ArchiveData: Hashable, Sendable {
    /// The bytes, copied from the tape.
    public var bytes: ArraySlice<UInt8>
    /// Set when the bytes announce a property list (a `bplist00` or XML header) but could not be
    /// read as a keyed archive: why.
    public var archiveError: String?

    public init(bytes: ArraySlice<UInt8>, archiveError: String? = nil) {
        self.bytes = bytes
        self.archiveError = archiveError
    }
}
