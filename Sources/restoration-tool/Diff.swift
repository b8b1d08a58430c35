import ArgumentParser
import RestorationKit

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changed between two saved states.",
        usage: "restoration-tool diff [<options>] <a> <b>",
        discussion: """
            Compares the archives as restoration models, not bytes: a binary archive and its XML \
            conversion are identical, dictionary key order does not matter, array order does. Any \
            two files of one kind are compared. Two folders are compared as diff -r compares them: \
            every file in them and in their subfolders, by its path below the folder; a file and a \
            folder, the file with the one of its name in the folder. \
            Exit status, as diff(1): 0 identical, 1 different, 2 trouble (a file unreadable, or the \
            two of different kinds).
            """
    )

    @Flag(name: .long, help: "Write JSON (schema version 1) instead of text.")
    var json = false

    @Option(name: .long, help: ArgumentHelp(
        "Leave out a metadata field (\(ArchiveDiffer.metadataFields.joined(separator: ", "))) or a key, at any depth. Repeatable.",
        valueName: "name"))
    var ignore: [String] = []

    @OptionGroup
    var color: TextOutputOptions

    @OptionGroup(title: "Limits")
    var decoding: DecodingOptions

    @Argument(help: ArgumentHelp("The older archive, or a folder; - for standard input.", valueName: "a"), completion: .file())
    var a: String

    @Argument(help: ArgumentHelp("The newer archive, or a folder; - for standard input.", valueName: "b"), completion: .file())
    var b: String

    func validate() throws {
        guard !(a == "-" && b == "-") else { throw ValidationError("standard input (-) can be read only once") }
    }

    func run() throws {
        color.apply()
        compare(decoding.runLimits())
    }

    /// Ends the process (see `Console.finish`) while the decoded archives are still alive.
    private func compare(_ limits: DecodingLimits) -> Never {
        let (directoryA, directoryB) = (Validate.trimmingTrailingSlashes(a), Validate.trimmingTrailingSlashes(b))
        let (folderA, folderB) = (a != "-" && DirectoryListing.isDirectory(directoryA), b != "-" && DirectoryListing.isDirectory(directoryB))
        if folderA, folderB {
            compareDirectories(directoryA, directoryB, limits: limits)
        }
        // A file and a folder, as diff(1) takes them: the file and the one of its name in the folder.
        var (fileA, fileB) = (a, b)
        if folderA != folderB {
            let file = folderA ? b : a
            guard file != "-" else {
                Console.error(file: folderA ? a : b, "is a directory, and standard input has no name to look for in it")
                Console.finish(ExitStatus.unreadable)
            }
            let inFolder = (folderA ? directoryA : directoryB) + "/" + Validate.name(of: Validate.trimmingTrailingSlashes(file))
            if folderA { fileA = inFolder } else { fileB = inFolder }
        }
        var documents: [DiffDocument] = []
        var written = 0
        let status = compareFiles(fileA, fileB, limits: limits, documents: &documents, written: &written)
        if json, status != ExitStatus.unreadable {
            guard Console.writeJSON(documents, asArray: false, file: b, limit: decoding.maxOutputBytes) else {
                Console.finish(ExitStatus.unreadable)
            }
        }
        Console.finish(status)
    }

    /// Compares two files (text written at once; with `--json`, the document added to
    /// `documents`); their status. `written` counts the text bytes written so far, against
    /// `--max-output-size`.
    private func compareFiles(_ a: String, _ b: String, limits: DecodingLimits, documents: inout [DiffDocument], written: inout Int) -> Int32 {
        // Both are read, at the same time, so that both are reported when neither can be.
        // Any two files of one kind are compared, generic keyed archives too.
        let read = zip([a, b], RestorationArchive.readForComparison(contentsOf: [a, b], limits: limits)).compactMap { file, result in
            switch result {
            case .success(let archive): return archive
            case .failure(let error):
                Console.error(file: file, error.description)
                return nil
            }
        }
        guard read.count == 2 else { return ExitStatus.unreadable }
        guard read[0].kind == read[1].kind else {
            Console.error(file: b, "\(read[1].kind.summary), not \(read[0].kind.summary) as \(Console.displayName(a)) is: nothing to compare")
            return ExitStatus.unreadable
        }
        // The comparison stops once its changes could not be written within what is left of
        // the limit (their nodes and text would take gigabytes).
        let left = decoding.maxOutputBytes - written - documents.reduce(0) { $0 + DiffDocument.minimumSize(of: $1.changes) }
        guard let changes = withExtendedLifetime(read, { ArchiveDiffer(ignoring: ignore).diff(read[0], read[1], outputLimit: max(0, left)) }) else {
            Console.outputTooLarge(file: b, limit: decoding.maxOutputBytes)
            return ExitStatus.unreadable
        }
        if json {
            documents.append(DiffDocument(a: a, b: b, changes: changes))
        } else if !changes.isEmpty {
            let formatter = DiffTextFormatter(color: color.enabled)
            // The formatter escapes the names itself.
            guard let text = formatter.format(changes, a: a == "-" ? "(standard input)" : a, b: b == "-" ? "(standard input)" : b, outputLimit: decoding.maxOutputBytes - written) else {
                Console.outputTooLarge(file: b, limit: decoding.maxOutputBytes)
                return ExitStatus.unreadable
            }
            written += text.utf8.count
            Console.write(text)
        }
        return changes.isEmpty ? ExitStatus.success : ExitStatus.findings
    }

    /// Two `.savedState` folders, as diff -r compares directories: the files of the same
    /// relative path compared, one after the other; a file on one side only named as such
    /// (`Only in DIR: NAME`; in JSON a document whose `only` is "a" or "b"). The status is the
    /// worst of them.
    private func compareDirectories(_ a: String, _ b: String, limits: DecodingLimits) -> Never {
        var status = ExitStatus.success
        let (walkA, walkB) = (ArchiveFiles.walk(a, status: &status), ArchiveFiles.walk(b, status: &status))
        guard let walkA, let walkB else { Console.finish(ExitStatus.unreadable) }
        let relativeA = Set(walkA.files.map { Self.relative($0, to: a) })
        let relativeB = Set(walkB.files.map { Self.relative($0, to: b) })
        var documents: [DiffDocument] = []
        var written = 0
        for name in relativeA.union(relativeB).sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            let (pathA, pathB) = (a + "/" + name, b + "/" + name)
            guard relativeA.contains(name), relativeB.contains(name) else {
                let (only, folder) = relativeA.contains(name) ? ("a", a) : ("b", b)
                status = max(status, ExitStatus.findings)
                if json {
                    documents.append(DiffDocument(a: pathA, b: pathB, changes: [], only: only))
                } else {
                    let line = "Only in " + RawPath.display(folder) + ": " + RawPath.display(name) + "\n"
                    written += line.utf8.count
                    guard written <= decoding.maxOutputBytes else {
                        Console.outputTooLarge(file: b, limit: decoding.maxOutputBytes)
                        Console.finish(ExitStatus.unreadable)
                    }
                    Console.write(line)
                }
                continue
            }
            status = max(status, compareFiles(pathA, pathB, limits: limits, documents: &documents, written: &written))
        }
        if json, !Console.writeJSON(documents, asArray: true, file: b, limit: decoding.maxOutputBytes) {
            Console.finish(ExitStatus.unreadable)
        }
        Console.finish(status)
    }

    /// `path`, found by walking `folder`, relative to it.
    static func relative(_ path: String, to folder: String) -> String {
        String(String.UnicodeScalarView(path.unicodeScalars.dropFirst(folder == "/" ? 1 : folder.unicodeScalars.count + 1)))
    }
}
