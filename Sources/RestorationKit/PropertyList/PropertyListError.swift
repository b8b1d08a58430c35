/// Why a property list could not be read, and where.
public struct PropertyListError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, as a short lower-case phrase.
    public var reason: String
    /// The byte offset in the file at which the problem was found, when the format has offsets.
    public var byteOffset: Int?
    /// True when the input may be well formed but goes past one of the `DecodingLimits`.
    public var exceedsLimit: Bool

    public init(_ reason: String, at byteOffset: Int? = nil, exceedsLimit: Bool = false) {
        self.reason = reason
        self.byteOffset = byteOffset
        self.exceedsLimit = exceedsLimit
    }

    /// The reason cut to `maximumReasonLength` characters (see `String.cutInTheMiddle`), then
    /// where: quoted input (a 1 MB `$archiver`, a tag name, a date) cannot make a long line.
    public var description: String {
        let reason = reason.cutInTheMiddle(to: Self.maximumReasonLength)
        if let byteOffset {
            return "\(reason) (at byte \(byteOffset))"
        }
        return reason
    }

    /// The most characters of a reason an error line shows.
    public static let maximumReasonLength = 400
}

/// An error type that a `PropertyListError` can become, so that code generic over its error
/// type can report one.
protocol PropertyListErrorConvertible: Error {
    init(_ error: PropertyListError)
}

extension PropertyListError: PropertyListErrorConvertible {
    init(_ error: PropertyListError) {
        self = error
    }
}
