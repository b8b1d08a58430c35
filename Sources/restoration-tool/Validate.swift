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
            file. A folder stands for every file in it and in its subfolders, at any depth: each that \
            holds saved state is validated, with the inprogress.data and restorationInfo.plist \
            beside it, and the others are passed over with a note. \
            Exit status: 0 no errors (warnings allowed), 1 errors (or warnings with --strict), \
            2 a file could not be read or holds no saved state to validate, or a folder holds none.
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

    @Argument(help: ArgumentHelp("Archives (data.data), other saved-state files, or folders (every file in them and their subfolders); - (or none, when standard input is not a terminal) for standard input.", valueName: "file"), completion: .file())
    var files: [String] = []

    mutating func validate() throws {
        // An empty version is no version to compare with: most often an unset variable in a CI
        // script (`--bundle-version "$BUILD"`), which must fail, not report every archive.
        if bundleVersion?.isEmpty == true {
            throw ValidationError("--bundle-version needs a version; it was given an empty one")
        }
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
        let limits = decoding.runLimits()
        validateAll(limits)
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
    private func validateAll(_ limits: DecodingLimits) -> Never {
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
            let inFolder = input != "-" && DirectoryListing.isDirectory(input)
            if inFolder {
                guard let walk = ArchiveFiles.walk(input, status: &status) else { continue }
                // The side files are read with the archive beside them, not on their own.
                archives = walk.files.filter { !Self.sidecarNames.contains(Self.name(of: $0)) }.map { path in
                    (path, Self.sidecarFolders(of: path, below: input))
                }
            } else {
                archives = [(input, [])]
            }
            // A folder in which nothing could be validated, and nothing failed to be read, is an
            // error of its own: it is not a folder of saved state.
            var validated = 0, unreadableHere = 0
            for (path, sidecarFolders) in archives {
                let report: ValidationReport
                switch validateArchive(path, sidecarFolders: sidecarFolders, inFolder: inFolder, validator, limits: limits, keeping: &lastArchive) {
                case .report(let read):
                    report = read
                    validated += 1
                case .skipped:
                    continue
                case .unreadable:
                    status = max(status, ExitStatus.unreadable)
                    unreadableHere += 1
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
            if inFolder, validated == 0, unreadableHere == 0 {
                Console.error(file: input, "no saved state to validate in this directory or its subfolders (give a .savedState directory or a data.data file)")
                status = max(status, ExitStatus.unreadable)
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
        /// A file found in a folder with nothing to validate (a plain property list, a window
        /// snapshot): a note says so.
        case skipped
        /// It cannot be read or is not a restoration archive (an error line says so).
        case unreadable
        /// Its findings' messages alone pass `--max-output-size`.
        case pastOutputLimit
    }

    /// Validates one archive file.
    private func validateArchive(
        _ path: String, sidecarFolders: [String], inFolder: Bool, _ validator: ArchiveValidator, limits: DecodingLimits, keeping kept: inout RestorationArchive?
    ) -> Outcome {
        let archive: RestorationArchive
        do {
            // An archive found in a directory is not followed if it is a symbolic link.
            archive = try RestorationArchive.read(contentsOf: path, limits: limits, followingLinks: !inFolder)
        } catch {
            Console.error(file: path, error.description)
            return .unreadable
        }
        guard archive.kind.isValidated else {
            // Named on the command line, a file that holds no saved state is an error, so that
            // a check pointed at the wrong file fails; found in a folder, it is passed over.
            if inFolder {
                Console.note(file: path, "skipped: \(archive.kind.summary), which has nothing to validate")
                return .skipped
            }
            if archive.kind == .keyedArchive {
                Console.notRestorationArchive(path)
            } else {
                Console.error(file: path, "not a restoration archive: \(archive.kind.summary), which has nothing to validate")
            }
            return .unreadable
        }
        if case .windowRecords(let records)? = archive.content, records.lacksKeys {
            Console.error(file: path, "nothing checked: " + records.keySource)
            return .unreadable
        }
        kept = archive
        guard var diagnostics = validator.validate(archive, messageLimit: Console.left(of: decoding.maxOutputBytes)) else {
            return .pastOutputLimit
        }
        for folder in sidecarFolders {
            diagnostics += SavedStateDirectory.sidecarDiagnostics(in: folder, limits: limits)
        }
        return .report(ValidationReport(file: path, diagnostics: diagnostics, strict: strict))
    }

    static func trimmingTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }

    static func parent(of path: String) -> String {
        PathText.components(path, omittingEmpty: false).dropLast().joined(separator: "/")
    }

    static func name(of path: String) -> String {
        PathText.components(path, omittingEmpty: false).last.map(String.init) ?? path
    }

    /// The files UIKit keeps beside an archive, read with it (see `SavedStateDirectory`).
    static let sidecarNames: Set<String> = [SavedStateDirectory.inProgressName, SavedStateDirectory.restorationInfoName]

    /// Where the side files of the archive at `path`, found in the folder `root`, are: its own
    /// folder, and for a scene session's archive the `.savedState` folder above it too.
    static func sidecarFolders(of path: String, below root: String) -> [String] {
        let folder = parent(of: path)
        guard folder != root, !folder.hasSuffix(".savedState") else { return [folder] }
        return [folder, parent(of: folder)]
    }
}
