/// An archived NSURL: a relative string, resolved against an optional base URL.
public struct ArchiveURL: Hashable, Sendable {
    public var base: ArchiveValue
    public var relative: String

    public init(base: ArchiveValue, relative: String) {
        self.base = base
        self.relative = relative
    }
}
