/// One defect `ArchiveValidator` found.
public struct Diagnostic: Hashable, Sendable {
    public enum Severity: String, Sendable, Comparable, CaseIterable {
        case warning
        case error

        public static func < (lhs: Self, rhs: Self) -> Bool {
            lhs == .warning && rhs == .error
        }
    }

    public var severity: Severity
    public var rule: ValidationRule
    /// The identifier path the defect concerns; nil for the archive as a whole.
    public var identifierPath: IdentifierPath?
    /// The key the defect concerns, when there is one.
    public var key: String?
    /// What is wrong and what UIKit will do about it, in words.
    public var message: String
    /// For a reference that goes nowhere: the path it names.
    public var target: IdentifierPath?

    public init(_ severity: Severity, _ rule: ValidationRule, path: IdentifierPath? = nil, key: String? = nil, target: IdentifierPath? = nil, _ message: String) {
        self.severity = severity
        self.rule = rule
        self.identifierPath = path
        self.key = key
        self.target = target
        self.message = message
    }
}
