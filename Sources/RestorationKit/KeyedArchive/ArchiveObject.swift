/// An archived object of a class the decoder has no natural value for: its class and every field.
public struct ArchiveObject: Hashable, Sendable {
    /// `$classname`.
    public var className: String
    /// `$classes`: the class and its superclasses, most derived first.
    public var classChain: [String]
    /// `$classhints`: classes an unarchiver may use when it lacks the class itself; nil when the
    /// class description has none.
    public var classHints: [String]?
    public var fields: ArchiveFields

    public init(className: String, classChain: [String], classHints: [String]? = nil, fields: ArchiveFields) {
        self.className = className
        self.classChain = classChain
        self.classHints = classHints
        self.fields = fields
    }

    /// Whether both have the same class description, its names compared by bytes (see `ExactText`).
    func hasSameClass(as other: Self) -> Bool {
        className.isExactly(other.className) && classChain.isExactly(other.classChain) && classHints.isExactly(other.classHints)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.hasSameClass(as: rhs) && lhs.fields == rhs.fields
    }
}
