/// An archived NSURL: a relative string, resolved against an optional base URL.
public struct ArchiveURL: Hashable, Sendable {
    public var base: ArchiveValue
    public var relative: String

    public init(base: ArchiveValue, relative: String) {
        self.base = base
        self.relative = relative
    }

    /// The relative strings compare by bytes, as every string of an archive (see `ExactText`).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.relative.isExactly(rhs.relative) && lhs.base == rhs.base
    }
}
