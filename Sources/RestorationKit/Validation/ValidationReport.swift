/// The result of validating one archive file.
public struct ValidationReport: Sendable {
    public var file: String
    public var diagnostics: [Diagnostic]
    /// Warnings count as failures (`--strict`).
    public var strict: Bool

    public init(file: String, diagnostics: [Diagnostic], strict: Bool = false) {
        self.file = file
        self.diagnostics = diagnostics
        self.strict = strict
    }

    /// False for a keyed archive that is no restoration archive: no rule applies to it, and it
    /// is not valid.
    public var isRestorationArchive = true

    public var errors: Int { diagnostics.filter { $0.severity == .error }.count }
    public var warnings: Int { diagnostics.filter { $0.severity == .warning }.count }
    /// A restoration archive without errors, and with `strict` without warnings either.
    public var isValid: Bool { isRestorationArchive && errors == 0 && !(strict && warnings > 0) }

    /// The verdict as `validate` words it: "valid (0 errors, 1 warning)", "invalid (…)", or
    /// "not a restoration archive".
    public var verdict: String {
        guard isRestorationArchive else { return "not a restoration archive" }
        return "\(isValid ? "valid" : "invalid") (\(Self.count(errors, "error")), \(Self.count(warnings, "warning")))"
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}

/// `validate --json` for one file (schema version 1).
package struct ValidationDocument: JSONRepresentable {
    public static let schemaVersion = 1
    public let report: ValidationReport

    public init(_ report: ValidationReport) {
        self.report = report
    }

    package var jsonNode: JSONNode {
        .members([
            "schemaVersion": Self.schemaVersion,
            "file": report.file,
            "valid": report.isValid,
            "errors": report.errors,
            "warnings": report.warnings,
            // The findings, written straight from the list (see `JSONDeferred.diagnostics`).
            "diagnostics": JSONNode.deferred(.diagnostics(report.diagnostics)),
        ])
    }
}

/// `validate`'s text: `file: severity[rule]: path: message` lines, then a summary line.
package enum ValidationTextFormatter {
    public static func format(_ report: ValidationReport, displayName: String, style: TextStyle = .plain) -> String {
        var text = ""
        for diagnostic in report.diagnostics {
            let path = diagnostic.identifierPath.map { TextEscaping.escape($0.rawValue) } ?? "(archive)"
            let severity = style.paint(diagnostic.severity.rawValue, diagnostic.severity == .error ? .red : .yellow)
            text += "\(displayName): \(severity)[\(diagnostic.rule.rawValue)]: \(path): \(TextEscaping.escape(diagnostic.message))\n"
        }
        // The verdict's first word colored: "valid" green, "invalid" red.
        let verdict = report.verdict
        let word = verdict.prefix { $0 != " " }
        text += "\(displayName): \(style.paint(String(word), report.isValid ? .green : .red))\(verdict.dropFirst(word.count))\n"
        return text
    }
}
