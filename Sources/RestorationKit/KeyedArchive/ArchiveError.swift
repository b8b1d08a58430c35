/// Why a file could not be decoded as a keyed archive.
public struct ArchiveError: Error, Equatable, Sendable, CustomStringConvertible, PropertyListErrorConvertible {
    public enum Kind: Sendable, Equatable {
        /// The bytes are not a readable property list.
        case unreadable
        /// A property list, but not an NSKeyedArchiver archive.
        case notKeyedArchive
        /// A keyed archive whose object graph is broken (a UID out of range, a bad `$class` …).
        case malformed
        /// Input that goes past one of the `DecodingLimits`.
        case limitExceeded
    }

    public var kind: Kind
    public var reason: String
    public var byteOffset: Int?
    /// Where in the archive: `$top` keys and fields leading to the problem, outermost first.
    public var location: [String]
    /// The line and column of `byteOffset`, for XML input.
    public var textPosition: TextPosition?

    public init(_ kind: Kind, _ reason: String, at byteOffset: Int? = nil, location: [String] = []) {
        self.kind = kind
        self.reason = reason
        self.byteOffset = byteOffset
        self.location = location
    }

    init(_ error: PropertyListError) {
        self.init(error, location: [])
    }

    init(_ error: PropertyListError, location: [String]) {
        self.init(error.exceedsLimit ? .limitExceeded : .unreadable, error.reason, at: error.byteOffset, location: location)
        textPosition = error.textPosition
    }

    /// A location of at most seven steps of at most 100 characters each: hostile nesting makes
    /// trails thousands long and keys 100 KB long, and the error must stay one readable line.
    /// The outermost keys name the object; the innermost, the spot. (Printing escapes it.)
    static func shortened(_ location: [String]) -> [String] {
        func cut(_ key: String) -> String { key.shortened(to: 100) }
        guard location.count > 7 else { return location.map(cut) }
        let hidden = location.count - 6
        return location.prefix(3).map(cut) + ["(\(hidden) more)"] + location.suffix(3).map(cut)
    }

    public var description: String {
        var text = reason.cutInTheMiddle(to: PropertyListError.maximumReasonLength)
        if !location.isEmpty {
            text += " (in \(Self.shortened(location).joined(separator: " > ")))"
        }
        return text + TextPosition.suffix(textPosition, byteOffset: byteOffset)
    }
}
