/// Paths taken apart at "/".
package enum PathText {
    /// The components of `path` between its "/" separators, split on its UTF-8 bytes as the
    /// kernel splits it (a "/" before a combining mark still separates), without breaking the
    /// path into characters, which is slow on the long paths a walk meets.
    package static func components(_ path: Substring, omittingEmpty: Bool = true) -> [Substring] {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: omittingEmpty).map { Substring($0) }
    }

    package static func components(_ path: String, omittingEmpty: Bool = true) -> [Substring] {
        components(path[...], omittingEmpty: omittingEmpty)
    }
}
