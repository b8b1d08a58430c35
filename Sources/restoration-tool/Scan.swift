import ArgumentParser
import RestorationKit

struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Find every state-restoration archive under directories and sum each up.",
        discussion: """
            Walks each directory (a simulator device folder, ~/Library/Developer/CoreSimulator/Devices, \
            an unpacked backup) for <bundle-id>.savedState folders, without following symbolic links, \
            and writes one row per archive, newest first: a table, JSON, JSON Lines, CSV or TSV. CSV \
            and TSV carry what a forensic time line needs: saved time, file modification time, bundle \
            id, scene, bundle and system versions, object count, status, findings, size, SHA-256 and \
            path; --timeline writes them as events (datetime, timestamp_desc, message) for Timesketch \
            or plaso. Warnings about the files beside an archive go to standard error. \
            Exit status: 0 success, 2 a directory or an archive in it could not be read.
            """
    )

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case table, json, jsonl, csv, tsv
    }

    @Option(name: .long, help: ArgumentHelp("Output format: table, json, jsonl, csv or tsv (table; csv with --timeline).", valueName: "format"))
    var format: Format?

    @Flag(name: .long, help: "Same as --format json (schema version 1).")
    var json = false

    @Flag(name: .long, help: "Write events for a time line (Timesketch, plaso): one per saved time and per file modification time, oldest first.")
    var timeline = false

    @Flag(name: .long, help: "Show no progress line. On a terminal, a scan that takes more than a second counts on standard error the folders walked and the archives read, and erases the line when done.")
    var quiet = false

    @Flag(name: .customLong("no-formula-guard"), help: "In CSV, write a field that begins with =, +, - or @ as it is, without the ' that keeps a spreadsheet from running it as a formula.")
    var noFormulaGuard = false

    @OptionGroup
    var color: TextOutputOptions

    @Option(name: .customLong("max-directory-depth"), parsing: .unconditional, help: ArgumentHelp("How many directory levels to descend below each directory.", valueName: "levels"))
    var maxDirectoryDepth = 64

    @OptionGroup(title: "Limits")
    var decoding: DecodingOptions

    @Argument(help: ArgumentHelp("Directories to search.", valueName: "directory"), completion: .directory)
    var directories: [String]

    /// The format asked for: `--format`, `--json`, or the default for the form.
    private var chosenFormat: Format {
        format ?? (json ? .json : timeline ? .csv : .table)
    }

    func validate() throws {
        guard !directories.isEmpty else { throw ValidationError("Missing expected argument '<directory> ...'") }
        guard (1...4096).contains(maxDirectoryDepth) else { throw ValidationError("--max-directory-depth must be from 1 to 4096") }
        if json, let format, format != .json { throw ValidationError("--json and --format \(format.rawValue) ask for different formats") }
        if timeline, chosenFormat == .table { throw ValidationError("--timeline writes csv, tsv, json or jsonl, not a table") }
    }

    func run() throws {
        color.apply()
        let roots = directories.map(Validate.trimmingTrailingSlashes)
        let limits = decoding.runLimits()
        var progress = ProgressLine(quiet: quiet)
        let result = ArchiveScanner(limits: limits, maxDirectoryDepth: maxDirectoryDepth).scan(roots) { done in
            progress.show("scanning: \(done.folders) \(done.folders == 1 ? "folder" : "folders") walked, \(done.archives) \(done.archives == 1 ? "archive" : "archives") read")
        }
        progress.erase()
        for (path, reason) in result.unreadable {
            let isFile = DirectoryListing.exists(path) && !DirectoryListing.isDirectory(path)
            Console.error(file: path, isFile ? "not a directory (scan searches directories; validate or dump read a file)" : "cannot read this directory: " + reason)
        }
        for (root, count, first) in result.notSearched {
            Console.warning(file: root, "\(count) \(count == 1 ? "directory" : "directories") \(maxDirectoryDepth) levels down, \(RawPath.display(first)) the first, not searched (--max-directory-depth)")
        }
        // Rows, or for a search that found none, the empty document of a format for programs,
        // even when no directory could be read (JSON names them, with why); the table has
        // nothing to show.
        let searched = roots.filter { root in !result.unreadable.contains { $0.path == root } }
        if !result.rows.isEmpty || chosenFormat != .table {
            guard write(result.rows, directories: roots, unreadable: result.unreadable) else { throw ExitCode(ExitStatus.unreadable) }
        }
        for root in searched where !result.rows.contains(where: { $0.path.hasPrefix(root == "/" ? "/" : root + "/") }) {
            Console.note(file: root, "no saved state found (no <bundle-id>.savedState folder holds an archive)")
        }
        // Warnings about the files beside each archive (a pending discard, say) go with the
        // errors, so that the output holds nothing but rows; JSON has them in the rows too.
        for row in result.rows {
            for note in row.sidecarNotes { Console.warning(file: row.path, note) }
        }
        // Each archive that could not be read is a row of its own (status "unreadable") and an
        // error line, and makes the status 2, as a file argument that cannot be read does.
        let unreadableArchives = result.rows.filter(\.isUnreadable)
        for row in unreadableArchives {
            Console.error(file: row.path, row.reason ?? "cannot be read")
        }
        if !result.unreadable.isEmpty || !unreadableArchives.isEmpty {
            throw ExitCode(ExitStatus.unreadable)
        }
    }

    /// Writes the rows (or their events) in the chosen format; false after an error line.
    private func write(_ rows: [ScanRow], directories roots: [String], unreadable: [(path: String, reason: String)]) -> Bool {
        let file = roots[0], limit = decoding.maxOutputBytes
        if timeline {
            let events = ScanTimelineEvent.events(rows)
            switch chosenFormat {
            case .json: return Console.writeJSON([ScanTimelineDocument(directories: roots, events: events)], asArray: false, file: file, limit: limit)
            case .jsonl: return Console.writeJSONLines(events.map(ScanTimelineEventDocument.init), file: file, limit: limit)
            case .csv: return Console.writeData(ScanDelimitedFormatter.format(events, dialect: .csv, formulaGuard: !noFormulaGuard), file: file, limit: limit)
            case .tsv: return Console.writeData(ScanDelimitedFormatter.format(events, dialect: .tsv, formulaGuard: !noFormulaGuard), file: file, limit: limit)
            case .table: preconditionFailure("refused by validate()")
            }
        }
        switch chosenFormat {
        case .table: return Console.write(ScanTextFormatter.format(rows, style: TextStyle(enabled: color.enabled)), file: file, limit: limit)
        case .json: return Console.writeJSON([ScanDocument(directories: roots, rows: rows, unreadable: unreadable)], asArray: false, file: file, limit: limit)
        case .jsonl: return Console.writeJSONLines(rows.map(ScanArchiveDocument.init), file: file, limit: limit)
        case .csv: return Console.writeData(ScanDelimitedFormatter.format(rows, dialect: .csv, formulaGuard: !noFormulaGuard), file: file, limit: limit)
        case .tsv: return Console.writeData(ScanDelimitedFormatter.format(rows, dialect: .tsv, formulaGuard: !noFormulaGuard), file: file, limit: limit)
        }
    }
}
