import ArgumentParser
import RestorationKit

struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Find every state-restoration archive under directories and sum each up.",
        discussion: """
            Walks each directory (a simulator device folder, ~/Library/Developer/CoreSimulator/Devices, \
            an unpacked backup) for <bundle-id>.savedState folders, without following symbolic links, \
            and prints one row per archive, newest first: saved time, bundle id, scene session, system \
            version, object count, validation status, and warnings from inprogress.data. \
            Exit status: 0 success, 2 a directory or an archive in it could not be read.
            """
    )

    @Flag(name: .long, help: "Write JSON (schema version 1) instead of a table.")
    var json = false

    @OptionGroup
    var color: ColorOption

    @Option(name: .customLong("max-directory-depth"), parsing: .unconditional, help: ArgumentHelp("How many directory levels to descend below each directory.", valueName: "levels"))
    var maxDirectoryDepth = 64

    @OptionGroup(title: "Limits")
    var decoding: DecodingOptions

    @Argument(help: ArgumentHelp("Directories to search.", valueName: "directory"), completion: .directory)
    var directories: [String]

    func validate() throws {
        guard !directories.isEmpty else { throw ValidationError("Missing expected argument '<directory> ...'") }
        guard (1...4096).contains(maxDirectoryDepth) else { throw ValidationError("--max-directory-depth must be from 1 to 4096") }
    }

    func run() throws {
        let roots = directories.map(Validate.trimmingTrailingSlashes)
        let result = DeepStack.run(stackSize: DeepStack.stackSize(for: decoding.limits)) {
            ArchiveScanner(limits: decoding.limits, maxDirectoryDepth: maxDirectoryDepth).scan(roots)
        }
        for root in result.unreadable {
            Console.error(file: root, !DirectoryListing.exists(root) ? "no such directory"
                : DirectoryListing.isDirectory(root) ? "cannot read this directory" : "not a directory (scan searches directories; validate or dump read a file)")
        }
        if json {
            guard Console.writeJSON([ScanDocument(directories: roots, rows: result.rows)], asArray: false, file: roots[0], limit: decoding.maxOutputBytes) else {
                throw ExitCode(ExitStatus.unreadable)
            }
        } else {
            let text = ScanTextFormatter.format(result.rows, style: TextStyle(enabled: color.enabled))
            guard Console.write(text, file: roots[0], limit: decoding.maxOutputBytes) else { throw ExitCode(ExitStatus.unreadable) }
        }
        // Each archive that could not be read is a row of its own (status "unreadable: …") and
        // an error line, and makes the status 2, as a file argument that cannot be read does.
        let unreadableArchives = result.rows.filter(\.isUnreadable)
        for row in unreadableArchives {
            Console.error(file: row.path, row.problem ?? "cannot be read")
        }
        if !result.unreadable.isEmpty || !unreadableArchives.isEmpty {
            throw ExitCode(ExitStatus.unreadable)
        }
    }
}
