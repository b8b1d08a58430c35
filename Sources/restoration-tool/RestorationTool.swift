import ArgumentParser
import RestorationKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct RestorationTool: ParsableCommand {
    static let version = "0.2.0"

    static let configuration = CommandConfiguration(
        commandName: "restoration-tool",
        abstract: "Inspect iOS state restoration, scene sessions and macOS window state.",
        discussion: """
            UIKit saves an app's view-controller tree to
            Library/Saved Application State/<bundle-id>.savedState/data.data, a keyed archive whose \
            entries are keyed archives themselves; from iOS 13 each scene session saves its user \
            activity beside it, and macOS AppKit keeps each window's encrypted state in a folder of \
            the same name. restoration-tool reads all of these on any machine, without a device. \
            A folder stands for every file in it and in its subfolders.

            Exit status: 0 success; 1 findings (validate: errors; diff: differences); 2 a file could not be read \
            (unreadable, not a keyed archive, damaged, or past a limit); 64 usage error; 74 the results \
            could not be written.
            """,
        // `--version` (and `-V`) print the name with it, as `git --version` and `rg -V` do.
        version: "restoration-tool " + version,
        // Each subcommand gives its name in its configuration: one derived from the type's name
        // costs a runtime type lookup, a few hundred microseconds, at every start.
        subcommands: [Dump.self, Validate.self, Diff.self, Tree.self, Scan.self, Build.self]
    )

    /// The argument parser's `main`, with every message written through `Console`: help to
    /// standard output with its writes checked, usage errors to standard error escaped.
    static func main() {
        // A closed pipe ends the process as it ends cat, even when the parent ignored SIGPIPE.
        signal(SIGPIPE, SIG_DFL)
        do {
            // The arguments as bytes: a file name need not be UTF-8 (see `RawPath`).
            var arguments = (1..<Int(CommandLine.argc)).map { index in
                RawPath.string(UnsafeBufferPointer(start: CommandLine.unsafeArgv[index], count: strlen(CommandLine.unsafeArgv[index]!)).lazy.map { UInt8(bitPattern: $0) })
            }
            // `-V` is `--version` (before `--`, after which every word is a file).
            if let versionFlag = arguments.prefix(while: { $0 != "--" }).firstIndex(of: "-V") {
                arguments[versionFlag] = "--version"
            }
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            var text = HelpLayout.shown(fullMessage(for: error))
            var status = exitCode(for: error)
            // `help nosuch`: the parser prints the root help and succeeds; a command that does
            // not exist is a usage error.
            if status == .success, let unknown = unknownHelpTopic() {
                text = "Error: Unknown command '\(unknown)' for help: dump, validate, diff, tree or scan\nUsage: " + usageString()
                status = .validationFailure
            }
            if !text.isEmpty {
                if status == .success { Console.write(text + "\n") } else { Console.usageError(text) }
            }
            Console.finish(status.rawValue)
        }
    }

    /// The word after `help` when it names no command (`restoration-tool help nosuch`).
    private static func unknownHelpTopic() -> String? {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.first == "help", let topic = arguments.dropFirst().first, !topic.hasPrefix("-") else { return nil }
        let commands = configuration.subcommands.compactMap { $0.configuration.commandName }
        return commands.contains(topic) ? nil : topic
    }

    /// No command given: a usage error (status 64, usage on standard error), as for any other
    /// missing argument; `--help` prints the help.
    func run() throws {
        throw ValidationError("Missing expected command: dump, validate, diff, tree or scan")
    }
}
