import ArgumentParser
import RestorationKit

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Predict state-restoration failures: dangling references, missing objects, bad paths, version mismatches.",
        usage: """
            restoration-tool validate [<options>] <file> ...
            restoration-tool validate --list-rules [--json]
            """,
        discussion: """
            Prints one line per defect, file: severity[rule]: path: message, then a summary line per \
            file. Given a .savedState directory, validates the data.data inside it (and each scene \
            session's) and reads inprogress.data and restorationInfo.plist beside it. \
            Exit status: 0 no errors (warnings allowed), 1 errors (or warnings with --strict), \
            2 a file could not be read or is not a restoration archive, or a directory holds no archive.
            """
    )

    @Flag(name: .long, help: "Write JSON (schema version 1) instead of text; an array of documents for several archives.")
    var json = false

    @Flag(name: .long, help: "Treat warnings as failures for the exit status.")
    var strict = false

    @Option(name: .customLong("bundle-version"), help: ArgumentHelp("Report an archive saved by another app version (CFBundleVersion) than this.", valueName: "version"))
    var bundleVersion: String?

    @Flag(name: .customLong("list-rules"), help: "List the rules, with their severities, and exit (with --json, as a JSON document).")
    var listRules = false

    @OptionGroup
    var color: TextOutputOptions

    @OptionGroup(title: "Limits")
    var decoding: DecodingOptions

    @Argument(help: ArgumentHelp("Archives (data.data) or .savedState directories; - (or none, when standard input is not a terminal) for standard input.", valueName: "file"), completion: .file())
    var files: [String] = []

    mutating func validate() throws {
        if listRules {
            guard files.isEmpty else { throw ValidationError("--list-rules lists the rules and reads no file; leave out \(files.count == 1 ? "the file" : "the files")") }
            return
        }
        try ArchiveFiles.defaultToStandardInput(&files)
        try ArchiveFiles.checkStandardInput(files)
    }

    func run() throws {
        color.apply()
        if listRules {
            if json {
                if !Console.writeJSON([RuleListDocument()], asArray: false, file: "-") { throw ExitCode(ExitStatus.unreadable) }
            } else {
                Console.write(Self.ruleList())
            }
            return
        }
        DeepStack.run(stackSize: DeepStack.stackSize(for: decoding.limits)) { validateAll() }
    }

    static func ruleList() -> String {
        let width = ValidationRule.allCases.map(\.rawValue.count).max() ?? 0
        let severityWidth = ValidationRule.allCases.map(\.severities.count).max() ?? 0
        return ValidationRule.allCases.map { rule in
            rule.rawValue + String(repeating: " ", count: width - rule.rawValue.count + 2)
                + rule.severities + String(repeating: " ", count: severityWidth - rule.severities.count + 2) + rule.summary + "\n"
        }.joined()
    }

    /// Ends the process (see `Console.finish`) while the decoded archives are still alive.
    private func validateAll() -> Never {
        var status = ExitStatus.success
        var reports: [ValidationReport] = []
        // A report too large to write makes the whole JSON document too large.
        var jsonPastLimit = false
        let validator = ArchiveValidator(expectedBundleVersion: bundleVersion)
        // The last archive read stays alive until the process ends: freeing its values one by
        // one would take a large share of the run (see `Console.finish`).
        var lastArchive: RestorationArchive?
        for argument in files {
            let input = Self.trimmingTrailingSlashes(argument)
            let archives: [(path: String, sidecarFolders: [String])]
            if input != "-", DirectoryListing.isDirectory(input) {
                var unreadableFolders: [(path: String, reason: String)] = []
                guard let found = SavedStateDirectory.archives(in: input, unreadable: &unreadableFolders) else {
                    Console.error(file: input, "cannot read this directory: " + (DirectoryListing.failureReason(input) ?? "it changed while it was read"))
                    status = max(status, ExitStatus.unreadable)
                    continue
                }
                for (folder, reason) in unreadableFolders {
                    Console.error(file: folder, "cannot read this scene-session folder: " + reason)
                    status = max(status, ExitStatus.unreadable)
                }
                archives = found.map { path in
                    // A scene's own folder first, then the .savedState folder above it.
                    let folder = Self.parent(of: path)
                    return (path, folder == input ? [input] : [folder, input])
                }
                if archives.isEmpty {
                    Console.error(file: input, "no \(SavedStateDirectory.archiveName) in this directory or its scene-session folders (give a .savedState directory or a data.data file)")
                    status = max(status, ExitStatus.unreadable)
                }
            } else {
                archives = [(input, [])]
            }
            for (path, sidecarFolders) in archives {
                let report: ValidationReport
                switch validateArchive(path, sidecarFolders: sidecarFolders, validator, keeping: &lastArchive) {
                case .report(let read):
                    report = read
                case .skipped:
                    continue
                case .unreadable:
                    status = max(status, ExitStatus.unreadable)
                    continue
                case .pastOutputLimit:
                    // What writing the report would have found, found before it is made.
                    if json {
                        jsonPastLimit = true
                    } else {
                        Console.outputTooLarge(file: path, limit: decoding.maxOutputBytes)
                    }
                    status = max(status, ExitStatus.unreadable)
                    continue
                }
                if !report.isValid { status = max(status, ExitStatus.findings) }
                if json {
                    reports.append(report)
                } else {
                    let text = ValidationTextFormatter.format(report, displayName: Console.displayName(path), style: TextStyle(enabled: color.enabled))
                    if !Console.write(text, file: path, limit: decoding.maxOutputBytes) {
                        status = ExitStatus.unreadable
                    }
                }
            }
        }
        if json, jsonPastLimit {
            Console.outputTooLarge(files: files, limit: decoding.maxOutputBytes)
        } else if json, !reports.isEmpty || files.count > 1 || files.contains(where: DirectoryListing.isDirectory) {
            let several = files.count > 1 || files.contains(where: DirectoryListing.isDirectory)
            if !Console.writeJSON(reports.map(ValidationDocument.init), asArray: several, files: files, limit: decoding.maxOutputBytes) {
                status = ExitStatus.unreadable
            }
        }
        withExtendedLifetime(lastArchive) { Console.finish(status) }
    }

    /// What validating one archive file came to.
    private enum Outcome {
        case report(ValidationReport)
        /// A file with nothing to validate (a plain property list, a window snapshot).
        case skipped
        /// It cannot be read or is not a restoration archive (an error line says so).
        case unreadable
        /// Its findings' messages alone pass `--max-output-size`.
        case pastOutputLimit
    }

    /// Validates one archive file.
    private func validateArchive(
        _ path: String, sidecarFolders: [String], _ validator: ArchiveValidator, keeping kept: inout RestorationArchive?
    ) -> Outcome {
        let archive: RestorationArchive
        do {
            // An archive found in a directory is not followed if it is a link, FIFO or device.
            archive = try RestorationArchive.read(contentsOf: path, limits: decoding.limits, followingLinks: sidecarFolders.isEmpty)
        } catch {
            Console.error(file: path, error.description)
            return .unreadable
        }
        if archive.kind == .keyedArchive {
            Console.notRestorationArchive(path)
            return .unreadable
        }
        guard archive.kind.isValidated else {
            Console.note(file: path, "skipped: \(archive.kind.summary), which has nothing to validate")
            return .skipped
        }
        kept = archive
        guard var diagnostics = validator.validate(archive, messageLimit: decoding.maxOutputBytes) else {
            return .pastOutputLimit
        }
        for folder in sidecarFolders {
            diagnostics += SavedStateDirectory.sidecarDiagnostics(in: folder, limits: decoding.limits)
        }
        return .report(ValidationReport(file: path, diagnostics: diagnostics, strict: strict))
    }

    static func trimmingTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }

    static func parent(of path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }
}
