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

    public var errors: Int { diagnostics.filter { $0.severity == .error }.count }
    public var warnings: Int { diagnostics.filter { $0.severity == .warning }.count }
    /// No errors, and with `strict` no warnings either.
    public var isValid: Bool { errors == 0 && !(strict && warnings > 0) }
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
            let path = diagnostic.identifierPath.map(TextEscaping.escape) ?? "(archive)"
            let severity = style.paint(diagnostic.severity.rawValue, diagnostic.severity == .error ? .red : .yellow)
            text += "\(displayName): \(severity)[\(diagnostic.rule.rawValue)]: \(path): \(TextEscaping.escape(diagnostic.message))\n"
        }
        let counts = "\(count(report.errors, "error")), \(count(report.warnings, "warning"))"
        let verdict = style.paint(report.isValid ? "valid" : "invalid", report.isValid ? .green : .red)
        text += "\(displayName): \(verdict) (\(counts))\n"
        return text
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
