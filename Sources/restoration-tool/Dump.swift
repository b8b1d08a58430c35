import ArgumentParser
import RestorationKit

struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
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

    @OptionGroup(title: "Limits")
    var decoding: DecodingOptions

    @Argument(help: ArgumentHelp("Archives to read (data.data files); - for standard input.", valueName: "file"))
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Missing expected argument '<file> ...'") }
        guard files.filter({ $0 == "-" }).count <= 1 else { throw ValidationError("standard input (-) can be read only once") }
    }

    func run() throws {
        // Printing recurses as deeply as decoding: both run on a stack sized for the limits.
        DeepStack.run(stackSize: DeepStack.stackSize(for: decoding.limits)) { dumpAll() }
    }

    /// Ends the process (see `Console.finish`) while the decoded archives are still alive.
    private func dumpAll() -> Never {
        var status = ExitStatus.success
        var documents: [DumpDocument] = []
        var wroteText = false
        let formatter = TextDumpFormatter(demangle: !noDemangle)
        for file in files {
            let archive: RestorationArchive
            do {
                archive = try RestorationArchive(contentsOf: file, limits: decoding.limits)
            } catch {
                Console.error(file: file, error.description)
                status = max(status, ExitStatus.unreadable)
                continue
            }
            if json {
                documents.append(DumpDocument(file: file, archive: archive))
            } else {
                Console.write((wroteText ? "\n" : "") + formatter.format(archive, file: file == "-" ? "(standard input)" : file))
                wroteText = true
            }
        }
        // Several files always give an array, even an empty one: the output's shape must not
        // depend on which inputs could be read.
        if json, !documents.isEmpty || files.count > 1 {
            do {
                Console.write(try JSONOutput.write(documents, asArray: files.count > 1) + "\n")
            } catch {
                Console.error(file: files.count == 1 ? files[0] : "-", "cannot write JSON: a value has no JSON form")
                status = max(status, ExitStatus.unreadable)
            }
        }
        Console.finish(status)
    }
}
