/// Why a property list could not be read, and where.
public struct PropertyListError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, as a short lower-case phrase.
    public var reason: String
    /// The byte offset in the file at which the problem was found, when the format has offsets.
    public var byteOffset: Int?
    /// True when the input may be well formed but goes past one of the `DecodingLimits`.
    public var exceedsLimit: Bool
    /// The line and column (from 1, in characters) of `byteOffset`, for text formats (XML).
    public var textPosition: TextPosition?

    public init(_ reason: String, at byteOffset: Int? = nil, exceedsLimit: Bool = false) {
        self.reason = reason
        self.byteOffset = byteOffset
        self.exceedsLimit = exceedsLimit
    }

    /// The reason cut to `maximumReasonLength` characters (see `String.cutInTheMiddle`), then
    /// where: quoted input (a 1 MB `$archiver`, a tag name, a date) cannot make a long line.
    public var description: String {
        reason.cutInTheMiddle(to: Self.maximumReasonLength) + TextPosition.suffix(textPosition, byteOffset: byteOffset)
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

/// A place in a text format's input: line and column, both from 1, the column counted in
/// characters (Unicode scalars) from the line's start.
public struct TextPosition: Hashable, Sendable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The position of `offset` (an index of `bytes`) in `bytes`, read as UTF-8 text.
    init(of offset: Int, in bytes: ArraySlice<UInt8>) {
        let end = min(max(offset, bytes.startIndex), bytes.endIndex)
        var line = 1, lineStart = bytes.startIndex
        for index in bytes.startIndex..<end where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        // Continuation bytes (10xxxxxx) do not start a character.
        let column = bytes[lineStart..<end].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        self.init(line: line, column: column)
    }

    /// " (at line L, column C)", else " (at byte N)", else nothing: where an error line says
    /// the problem is.
    static func suffix(_ position: TextPosition?, byteOffset: Int?) -> String {
        if let position { return " (at line \(position.line), column \(position.column))" }
        if let byteOffset { return " (at byte \(byteOffset))" }
        return ""
    }
}
