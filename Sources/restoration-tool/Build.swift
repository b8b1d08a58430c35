import ArgumentParser
import RestorationKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Write the archive a dump --json document describes.",
        usage: "restoration-tool build [<options>] [<document>] -o <file>",
        discussion: """
            The inverse of dump --json: edit a saved state with jq and write it back, or craft one. \
            A restoration archive is written as UIKit writes it (a binary property list, each object's \
            and view's state a keyed archive of its own); a generic keyed archive from its $top; a \
            scene's activity, the known scene sessions and other plain property lists as themselves. \
            The archive is written to a temporary file beside <file> and renamed into place, so \
            <file> is never left half written. What validate would find in a restoration archive is \
            said on standard error. \
            Exit status: 0 written; 1 not written because of --strict; 2 the document is not one dump \
            writes (an error gives its JSON path, line and column), 74 the archive could not be written.
            """
    )

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Where to write the archive; - for standard output (not a terminal).", valueName: "file"), completion: .file())
    var output: String

    @Option(name: .long, help: ArgumentHelp("The outer file's format: binary (as UIKit writes it) or xml; nested archives are binary.", valueName: "format"))
    var format: PropertyListFormat = .binary

    @Flag(name: .long, help: "Write nothing when validate finds an error in the archive.")
    var strict = false

    @OptionGroup(title: "Limits")
    var decoding: DecodingOptions

    @Argument(help: ArgumentHelp("The dump --json document; - or none for standard input.", valueName: "document"), completion: .file())
    var document = "-"

    func validate() throws {
        if output == "-", format == .binary, isatty(1) != 0 {
            throw ValidationError("standard output is a terminal: write the archive to a file (-o FILE) or a pipe, or give --format xml")
        }
        if output != "-", document != "-", Self.sameFile(output, document) {
            throw ValidationError("-o names the document being read: write the archive to another file")
        }
    }

    /// Whether two paths name one file (the output may not exist yet).
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    func run() throws {
        let limits = decoding.runLimits()
        let json: [UInt8]
        do throws(ArchiveError) {
            json = try InputFile.read(document, limit: limits.maxInputBytes)
        } catch {
            Console.error(file: document, error.description)
            Console.finish(ExitStatus.unreadable)
        }
        let built: BuiltArchive
        do throws(BuildError) {
            built = try ArchiveBuilder(limits: limits).build(json: json, format: format)
        } catch {
            Console.error(file: document, error.description)
            Console.finish(ExitStatus.unreadable)
        }
        for warning in built.warnings { Console.warning(file: document, warning) }
        if built.kind == .restorationArchive, !report(built) { Console.finish(ExitStatus.findings) }
        if output == "-" {
            Console.writeBytes(built.bytes)
        } else if let failure = Self.replace(output, with: built.bytes) {
            Console.error(file: output, "cannot write the archive: \(failure)")
            Console.finish(ExitStatus.outputError)
        }
        Console.finish(ExitStatus.success)
    }

    /// How many findings are said on standard error, at most: a crafted document can make
    /// hundreds of thousands (`validate` lists them all).
    static let shownFindings = 20

    /// Says on standard error what `validate` finds in the archive, a note a finding; false
    /// when `--strict` keeps it from being written.
    private func report(_ built: BuiltArchive) -> Bool {
        let name = output == "-" ? "(standard output)" : output
        guard let archive = built.archive else { return true }
        let report = ArchiveValidator().report(for: archive, file: name)
        for diagnostic in report.diagnostics.prefix(Self.shownFindings) {
            let place = diagnostic.identifierPath?.description ?? "(archive)"
            Console.note(file: name, "validate finds \(diagnostic.severity == .error ? "an error" : "a warning") [\(diagnostic.rule.rawValue)] in \(place): \(diagnostic.message)")
        }
        if report.diagnostics.count > Self.shownFindings {
            Console.note(file: name, "validate finds \(report.diagnostics.count - Self.shownFindings) more (validate lists them all)")
        }
        guard strict, report.errors > 0 else { return true }
        Console.error(file: name, "not written: validate finds \(report.errors) \(report.errors == 1 ? "error" : "errors") (--strict)")
        return false
    }

    /// Writes `bytes` to a new file beside `path`, then renames it to `path`; a path that is no
    /// regular file (a FIFO, a terminal, `/dev/null`) is written to as it is. Why not, if it
    /// could not (a file being written is removed).
    static func replace(_ path: String, with bytes: [UInt8]) -> String? {
        var status = stat()
        if lstat(path, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFLNK { return "it is a symbolic link: name the file it points to" }
            if status.st_mode & S_IFMT != S_IFREG {
                let descriptor = open(path, O_WRONLY | O_CLOEXEC)
                guard descriptor >= 0 else { return String(cString: strerror(errno)) }
                defer { close(descriptor) }
                return writeAll(bytes, to: descriptor).map { String(cString: strerror($0)) }
            }
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array((folder + "." + name + ".XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        func fail(_ reason: Int32) -> String {
            close(descriptor)
            unlink(temporary)
            return String(cString: strerror(reason))
        }
        // mkstemp makes the file readable by its owner only; an archive is as any new file.
        let mask = umask(0)
        umask(mask)
        guard fchmod(descriptor, 0o666 & ~mask) == 0 else { return fail(errno) }
        if let reason = writeAll(bytes, to: descriptor) { return fail(reason) }
        guard fsync(descriptor) == 0 else { return fail(errno) }
        guard close(descriptor) == 0 else {
            let reason = errno
            unlink(temporary)
            return String(cString: strerror(reason))
        }
        guard rename(temporary, path) == 0 else {
            let reason = errno
            unlink(temporary)
            return String(cString: strerror(reason))
        }
        return nil
    }

    /// Writes all of `bytes`; the error number, if a write failed.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }
}

extension PropertyListFormat: ExpressibleByArgument {}
