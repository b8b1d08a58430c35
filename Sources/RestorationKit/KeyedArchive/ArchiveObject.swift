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
        func same(_ lhs: [String], _ rhs: [String]) -> Bool { lhs.elementsEqual(rhs) { $0.isExactly($1) } }
        guard className.isExactly(other.className), same(classChain, other.classChain) else { return false }
        switch (classHints, other.classHints) {
        case (nil, nil): return true
        case (let lhs?, let rhs?): return same(lhs, rhs)
        default: return false
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.hasSameClass(as: rhs) && lhs.fields == rhs.fields
    }
}
