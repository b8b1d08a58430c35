/// `validate --list-rules --json` (schema version 1): every rule with the severities it can
/// have, what it finds, the keys it reads and what UIKit does with such an archive.
package struct RuleListDocument: JSONRepresentable {
    public static let schemaVersion = 1

    public init() {}

    package var jsonNode: JSONNode {
        .members([
            "schemaVersion": Self.schemaVersion,
            "rules": ValidationRule.allCases.map { rule in
                JSONNode.members([
                    "rule": rule.rawValue,
                    "severities": rule.severities.split(separator: "/").map(String.init),
                    "summary": rule.summary,
                    "reads": rule.reads,
                    "predicts": rule.predicts,
                ])
            },
        ])
    }
}
