/// The nested archives of a file's outer archive that the decoder leaves as data, undecoded.
///
/// `diff` decodes only what can differ between its two files: it reads their outer levels
/// first, keeping every nested archive, then decodes each file again keeping all but those
/// whose bytes are found where the other file holds other bytes, or where `diff` does not
/// compare the two files place by place (see `RestorationArchive.readForComparison`).
/// Decoding depends only on an archive's bytes and its depth, so two such archives would
/// decode to identical values, which `diff` would find unchanged.
struct KeptNestedArchives: Sendable {
    /// Every nested archive of the outer archive: the outer level alone is decoded.
    static let all = KeptNestedArchives(decoded: [])

    /// The bytes of the nested archives that are decoded, and their lengths, which rule out
    /// most archives without hashing them.
    private let decoded: Set<ByteRun>
    private let decodedLengths: Set<Int>

    /// Every nested archive but those holding one of `decoded`.
    init(decoded: Set<ByteRun>) {
        self.decoded = decoded
        decodedLengths = Set(decoded.map(\.bytes.count))
    }

    var keepsAll: Bool { decoded.isEmpty }

    /// Whether the nested archive in `bytes` is left as data.
    func keeps(_ bytes: ArraySlice<UInt8>) -> Bool {
        !decodedLengths.contains(bytes.count) || !decoded.contains(ByteRun(bytes))
    }
}

/// Bytes that compare and hash whole.
struct ByteRun: Hashable, Sendable {
    let bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (a: Self, b: Self) -> Bool {
        a.bytes.withUnsafeBytes { x in b.bytes.withUnsafeBytes { y in x.hasSameBytes(as: y) } }
    }
}
