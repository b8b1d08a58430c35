import ArgumentParser
import RestorationKit

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changed between two saved states.",
        discussion: """
            Compares the archives as restoration models, not bytes: a binary archive and its XML \
            conversion are identical, dictionary key order does not matter, array order does. \
            Exit status, as diff(1): 0 identical, 1 different, 2 trouble (a file unreadable or not a \
            restoration archive).
            """
    )

    @Flag(name: .long, help: "Write JSON (schema version 1) instead of text.")
    var json = false

    @Option(name: .long, help: ArgumentHelp(
        "Leave out a metadata field (\(ArchiveDiffer.metadataFields.joined(separator: ", "))) or a key, at any depth. Repeatable.",
        valueName: "name"))
    var ignore: [String] = []

    @OptionGroup
    var color: ColorOption

    @OptionGroup(title: "Limits")
    var decoding: DecodingOptions

    @Argument(help: ArgumentHelp("The older archive; - for standard input.", valueName: "a"), completion: .file())
    var a: String

    @Argument(help: ArgumentHelp("The newer archive; - for standard input.", valueName: "b"), completion: .file())
    var b: String

    func validate() throws {
        guard !(a == "-" && b == "-") else { throw ValidationError("standard input (-) can be read only once") }
    }

    func run() throws {
        DeepStack.run(stackSize: DeepStack.stackSize(for: decoding.limits)) { compare() }
    }

    /// Ends the process (see `Console.finish`) while the decoded archives are still alive.
    private func compare() -> Never {
        // Both are read, at the same time, so that both are reported when neither can be.
        // Each saved object's state stays on the decoder's tape until it is compared.
        let read = zip([a, b], DeferredStates.read(contentsOf: [a, b], limits: decoding.limits)).compactMap { file, result in
            Console.restorationArchive(file, result)
        }
        guard read.count == 2 else { Console.finish(ExitStatus.unreadable) }
        let changes = ArchiveDiffer(ignoring: ignore).diff(read[0].0, read[1].0, deferred: (read[0].1, read[1].1))
        // A document bound to go past the limit is not built (its nodes would take gigabytes).
        if json, DiffDocument.minimumSize(of: changes) > decoding.maxOutputBytes {
            Console.outputTooLarge(file: b, limit: decoding.maxOutputBytes)
            Console.finish(ExitStatus.unreadable)
        }
        if json {
            guard Console.writeJSON([DiffDocument(a: a, b: b, changes: changes)], asArray: false, file: b, limit: decoding.maxOutputBytes) else {
                Console.finish(ExitStatus.unreadable)
            }
        } else if !changes.isEmpty {
            let formatter = DiffTextFormatter(color: color.enabled)
            // The formatter escapes the names itself.
            guard let text = formatter.format(changes, a: a == "-" ? "(standard input)" : a, b: b == "-" ? "(standard input)" : b, outputLimit: decoding.maxOutputBytes) else {
                Console.outputTooLarge(file: b, limit: decoding.maxOutputBytes)
                Console.finish(ExitStatus.unreadable)
            }
            Console.write(text)
        }
        Console.finish(changes.isEmpty ? ExitStatus.success : ExitStatus.findings)
    }
}
