import ArgumentParser
import RestorationKit

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
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

    @Option(name: .long, help: ArgumentHelp("Color the text output: auto (a terminal, unless NO_COLOR is set to a non-empty value), always, never.", valueName: "when"))
    var color: ColorMode = .auto

    @OptionGroup(title: "Limits")
    var decoding: DecodingOptions

    @Argument(help: ArgumentHelp("The older archive; - for standard input.", valueName: "a"))
    var a: String

    @Argument(help: ArgumentHelp("The newer archive; - for standard input.", valueName: "b"))
    var b: String

    func validate() throws {
        guard !(a == "-" && b == "-") else { throw ValidationError("standard input (-) can be read only once") }
    }

    func run() throws {
        DeepStack.run(stackSize: DeepStack.stackSize(for: decoding.limits)) { compare() }
    }

    /// Ends the process (see `Console.finish`) while the decoded archives are still alive.
    private func compare() -> Never {
        var archives: [RestorationArchive] = []
        for file in [a, b] {
            do {
                let archive = try RestorationArchive(contentsOf: file, limits: decoding.limits)
                guard archive.isRestorationArchive else {
                    Console.error(file: file, "not a UIKit state-restoration archive (a keyed archive without \(RestorationKeys.majorVersion) or \(RestorationKeys.identifierPaths))")
                    continue
                }
                archives.append(archive)
            } catch {
                Console.error(file: file, error.description)
            }
        }
        guard archives.count == 2 else { Console.finish(ExitStatus.unreadable) }
        let changes = ArchiveDiffer(ignoring: Set(ignore)).diff(archives[0], archives[1])
        if json {
            do {
                Console.write(try JSONOutput.write([DiffDocument(a: a, b: b, changes: changes)], asArray: false) + "\n")
            } catch {
                Console.error(file: b, "cannot write JSON: a value has no JSON form")
                Console.finish(ExitStatus.unreadable)
            }
        } else if !changes.isEmpty {
            let formatter = DiffTextFormatter(color: color.enabled)
            // The formatter escapes the names itself.
            Console.write(formatter.format(changes, a: a == "-" ? "(standard input)" : a, b: b == "-" ? "(standard input)" : b))
        }
        Console.finish(changes.isEmpty ? ExitStatus.success : ExitStatus.findings)
    }
}
