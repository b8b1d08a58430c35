/// `validate --list-rules --json` (schema version 1): every rule with the severities it can
/// have, what it finds, the keys it reads and what UIKit does with such an archive.
package struct RuleListDocument: Encodable {
    public static let schemaVersion = 1

    public init() {}

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        try container.encode(Self.schemaVersion, forKey: "schemaVersion")
        try container.encode(ValidationRule.allCases.map(RuleDocument.init), forKey: "rules")
    }

    private struct RuleDocument: Encodable {
        let rule: ValidationRule

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: JSONKey.self)
            try container.encode(rule.rawValue, forKey: "rule")
            try container.encode(rule.severities.split(separator: "/").map(String.init), forKey: "severities")
            try container.encode(rule.summary, forKey: "summary")
            try container.encode(rule.reads, forKey: "reads")
            try container.encode(rule.predicts, forKey: "predicts")
        }
    }
}
