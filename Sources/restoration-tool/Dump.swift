import ArgumentParser
import RestorationKit

struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print a state-restoration archive: metadata, class map, every object's state and views.",
        discussion: """
            Reads binary and XML property lists alike (told apart by content); - reads standard input. \
            A keyed archive that is not a restoration archive is shown as a generic keyed archive. \
            With several files each is dumped in turn; the exit status is the worst of them.
            """
    )

    @Flag(name: .long, help: "Write JSON (schema version 1) instead of text; an array of documents for several files.")
    var json = false

    @Flag(name: .customLong("no-demangle"), help: "Show Swift class names as stored, without demangling them.")
    var noDemangle = false

    @Option(name: .customLong("path"), help: ArgumentHelp("Show only the objects at or below this identifier path.", valueName: "prefix"))
    var pathPrefix: String?

    @Flag(name: .long, help: "Show the generic keyed-archive tree, without reading it as a restoration archive.")
    var raw = false

    @Flag(name: .long, help: "For macOS window state (data.data records), show every window's older records too, not only its current one.")
    var history = false

    @OptionGroup
    var color: TextOutputOptions

    @OptionGroup(title: "Limits")
    var decoding: DecodingOptions

    @OptionGroup
    var input: ArchiveFiles

    func validate() throws {
        guard !(raw && pathPrefix != nil) else { throw ValidationError("--path needs the restoration reading; it cannot be used with --raw") }
        guard pathPrefix?.isEmpty != true else { throw ValidationError("--path needs a non-empty identifier path") }
    }

    func run() throws {
        color.apply()
        dumpAll(decoding.runLimits())
    }

    /// Ends the process (see `Console.finish`) while the decoded archives are still alive.
    private func dumpAll(_ limits: DecodingLimits) -> Never {
        var status = ExitStatus.success
        let expanded = input.expandedFiles(status: &status)
        let files = expanded.map(\.path)
        // A folder, like several files, gives JSON an array, whatever it holds (one file, or
        // none: then the count of files differs from the arguments').
        let several = files.count > 1 || expanded.contains(where: \.inFolder) || files.count != input.files.count
        let options = SavedStateReading.Options(includesHistory: history)
        var documents: [DumpDocument] = []
        var wroteText = false
        let formatter = TextDumpFormatter(demangle: !noDemangle, style: TextStyle(enabled: color.enabled))
        // The last archive read stays alive until the process ends: freeing its values one by
        // one would take a large share of the run (see `Console.finish`).
        var lastArchive: RestorationArchive?
        for file in files {
            if json {
                do {
                    var document = try DumpDocument(contentsOf: file, file: file, limits: limits, interpret: !raw, options: options)
                    if let prefix = restriction(for: document.archive, file: file) {
                        document = document.restricted(to: prefix)
                    }
                    documents.append(document)
                } catch {
                    Console.error(file: file, error.description)
                    status = max(status, ExitStatus.unreadable)
                }
                continue
            }
            var archive: RestorationArchive
            do {
                archive = try RestorationArchive.read(contentsOf: file, limits: limits, interpret: !raw, options: options)
                lastArchive = archive
                if let prefix = restriction(for: archive, file: file) {
                    archive = archive.restricted(to: prefix)
                }
            } catch {
                Console.error(file: file, error.description)
                status = max(status, ExitStatus.unreadable)
                continue
            }
            // In ASCII (`--charset`), the text may grow past the limit as it is written: then the
            // write says so itself.
            var writtenInASCII = true
            let written = formatter.withFormattedPieces(archive, file: file == "-" ? "(standard input)" : file, outputLimit: Console.left(of: decoding.maxOutputBytes)) { pieces in
                if wroteText { Console.write("\n") }
                writtenInASCII = Console.write(pieces: pieces, file: file, limit: decoding.maxOutputBytes)
            }
            guard written, writtenInASCII else {
                if !written { Console.outputTooLarge(file: file, limit: decoding.maxOutputBytes) }
                status = max(status, ExitStatus.unreadable)
                continue
            }
            wroteText = true
        }
        // Several files always give an array, even an empty one: the output's shape must not
        // depend on which inputs could be read.
        if json, !documents.isEmpty || several {
            if !Console.writeJSON(documents, asArray: several, files: files, limit: decoding.maxOutputBytes) {
                status = max(status, ExitStatus.unreadable)
            }
        }
        withExtendedLifetime(lastArchive) { Console.finish(status) }
    }

    /// The `--path` prefix to show, if any and if `archive` has identifier paths (a note otherwise).
    private func restriction(for archive: RestorationArchive, file: String) -> IdentifierPath? {
        guard let pathPrefix else { return nil }
        guard archive.isRestorationArchive else {
            Console.note(file: file, "--path ignored: not a restoration archive, so there are no identifier paths")
            return nil
        }
        // "A/B/" names the same subtree as "A/B".
        return IdentifierPath(Validate.trimmingTrailingSlashes(pathPrefix))
    }
}
