import ArgumentParser
import RestorationKit

struct Tree: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree",
        abstract: "Draw the identifier-path hierarchy of an archive, like tree(1).",
        usage: "restoration-tool tree [<options>] <file> ...",
        discussion: """
            One line per saved object, under its parent path, with its restoration class and marks for \
            views, presented and selected controllers; references to paths that were not saved are \
            drawn as leaves marked ✗. --format dot writes a Graphviz graph (dot -Tsvg), --format mermaid \
            a Mermaid flowchart (GitHub renders it in a ```mermaid block), --format json the nested \
            form. Exit status: 0 success, 2 a file could not be read or is not a restoration archive.
            """
    )

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json, dot, mermaid
    }

    @Option(name: .long, help: ArgumentHelp("Output format: text, json, dot or mermaid (text).", valueName: "format"))
    var format: Format?

    @Flag(name: .long, help: "Same as --format json (schema version 1).")
    var json = false

    @Flag(name: .customLong("no-demangle"), help: "Show Swift class names as stored, without demangling them.")
    var noDemangle = false

    @OptionGroup
    var color: TextOutputOptions

    @OptionGroup(title: "Limits")
    var decoding: DecodingOptions

    @OptionGroup
    var input: ArchiveFiles

    private var chosenFormat: Format { format ?? (json ? .json : .text) }

    func validate() throws {
        if json, let format, format != .json { throw ValidationError("--json and --format \(format.rawValue) ask for different formats") }
    }

    func run() throws {
        color.apply()
        drawAll(decoding.runLimits())
    }

    /// Ends the process (see `Console.finish`) while the decoded archives are still alive.
    private func drawAll(_ limits: DecodingLimits) -> Never {
        var status = ExitStatus.success
        let expanded = input.expandedFiles(status: &status)
        let files = expanded.map(\.path)
        // A folder's files with nothing to draw (a plain property list) are passed over, with a note.
        let inFolder = Set(expanded.filter(\.inFolder).map(\.path))
        // A folder, like several files, gives each tree under its name, and JSON an array.
        let several = files.count > 1 || !inFolder.isEmpty
        var documents: [TreeDocument] = []
        var graphs: [(file: String, tree: RestorationTree)] = []
        var wroteText = false
        // A tree too large to write makes the one JSON document or graph of all files too large;
        // the file whose tree passed the limit is named.
        var documentPastLimit: String?
        // What the trees held for one JSON document or graph take at least: each next tree is
        // built within what is left of the limit, so that the files together hold no more.
        var held = 0
        let formatter = TreeTextFormatter(style: TextStyle(enabled: color.enabled), demangle: !noDemangle)
        // The last archive read and its tree stay alive until the process ends: freeing their
        // values one by one would take a large share of the run (see `Console.finish`).
        var lastArchive: RestorationArchive?
        var lastTree: RestorationTree?
        for file in files {
            guard let archive = Console.readRestorationArchive(file, limits: limits, savedState: true) else {
                status = ExitStatus.unreadable
                continue
            }
            lastArchive = archive
            let drawn: RestorationTree?
            if archive.isRestorationArchive {
                drawn = held > Console.left(of: decoding.maxOutputBytes) ? nil : RestorationTree(archive, outputLimit: Console.left(of: decoding.maxOutputBytes) - held)
            } else if let savedState = RestorationTree(savedState: archive) {
                drawn = savedState
            } else if inFolder.contains(file) {
                Console.note(file: file, "skipped: \(archive.kind.summary) has no windows, scenes or objects to draw")
                continue
            } else {
                Console.error(file: file, "nothing to draw: \(archive.kind.summary) has no windows, scenes or objects")
                status = ExitStatus.unreadable
                continue
            }
            guard let tree = drawn else {
                // What writing the tree would have found, found before it is made.
                switch chosenFormat {
                case .text: Console.outputTooLarge(file: file, limit: decoding.maxOutputBytes)
                case .json, .dot, .mermaid: documentPastLimit = documentPastLimit ?? file
                }
                status = ExitStatus.unreadable
                continue
            }
            lastTree = tree
            switch chosenFormat {
            case .json:
                held += tree.minimumOutputSize
                documents.append(TreeDocument(file: file, tree: tree))
            case .dot, .mermaid:
                held += tree.minimumOutputSize
                graphs.append((Console.displayName(file), tree))
            case .text:
                // Several trees: each under its file's name, a blank line between them.
                let heading = several ? (wroteText ? "\n" : "") + Console.displayName(file) + ":\n" : ""
                let written = formatter.withFormattedText(tree) { text in
                    Console.write(text, after: heading, file: file, limit: decoding.maxOutputBytes)
                }
                guard written else {
                    status = ExitStatus.unreadable
                    continue
                }
                wroteText = true
            }
        }
        if let documentPastLimit {
            Console.outputTooLarge(file: documentPastLimit, limit: decoding.maxOutputBytes)
        } else if !graphs.isEmpty {
            // One graph for all the files that could be read, clusters when there are several.
            let formatter = TreeGraphFormatter(language: chosenFormat == .dot ? .dot : .mermaid, demangle: !noDemangle)
            if let text = formatter.format(graphs, clustered: several, outputLimit: decoding.maxOutputBytes) {
                if !Console.writeData(text, file: files.last ?? "-", limit: decoding.maxOutputBytes) {
                    status = ExitStatus.unreadable
                }
            } else {
                Console.outputTooLarge(files: files, limit: decoding.maxOutputBytes)
                status = ExitStatus.unreadable
            }
        }
        if chosenFormat == .json, documentPastLimit == nil, !documents.isEmpty || several {
            if !Console.writeJSON(documents, asArray: several, files: files, limit: decoding.maxOutputBytes) {
                status = ExitStatus.unreadable
            }
        }
        // One call each: given the two as a tuple, the optimizer freed the tree at the end of
        // its loop pass.
        withExtendedLifetime(lastArchive) { withExtendedLifetime(lastTree) { Console.finish(status) } }
    }
}
