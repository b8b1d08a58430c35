#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RestorationKit
import Synchronization

/// Writes results to standard output and one-line errors to standard error.
enum Console {
    static let toolName = "restoration-tool"

    /// Whether text for people is written in ASCII (see `ASCIIText`): set once, from
    /// `--charset` and the locale, before anything is written. JSON is UTF-8 whatever it says.
    static let asciiOnly = Atomic<Bool>(false)

    /// The bytes written to standard output so far: `--max-output-size` bounds the run, all
    /// files together, so each write is held against what is left of it (`left(of:)`).
    private static let written = Atomic<Int>(0)

    /// What is left of `limit` after what the run has written.
    static func left(of limit: Int) -> Int {
        max(0, limit - written.load(ordering: .relaxed))
    }

    static func write(_ text: String) {
        var text = text
        text.withUTF8 { _ = writeText(UnsafeRawBufferPointer($0), to: 1) }
    }

    /// Writes the pieces in order, if in ASCII (`asciiOnly`) they are at most `limit` bytes;
    /// otherwise nothing, and an error line naming `file` (false).
    static func write(pieces: UnsafeBufferPointer<UnsafeRawBufferPointer>, file: String, limit: Int) -> Bool {
        guard asciiOnly.load(ordering: .relaxed) else {
            guard pieces.reduce(0, { $0 + $1.count }) <= left(of: limit) else {
                outputTooLarge(file: file, limit: limit)
                return false
            }
            writeAll(pieces, to: 1)
            return true
        }
        // Converted as one text: a character may lie across two pieces.
        var joined: [UInt8] = []
        joined.reserveCapacity(pieces.reduce(0) { $0 + $1.count })
        for piece in pieces { joined.append(contentsOf: piece) }
        guard joined.withUnsafeBytes({ writeText($0, to: 1, limit: left(of: limit)) }) else {
            outputTooLarge(file: file, limit: limit)
            return false
        }
        return true
    }

    /// Text for people on `descriptor`, in ASCII when `asciiOnly`; false, with nothing written,
    /// when that makes it longer than `limit`.
    private static func writeText(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, limit: Int = .max) -> Bool {
        guard asciiOnly.load(ordering: .relaxed) else {
            writeAll(bytes, to: descriptor)
            return true
        }
        guard let ascii = ASCIIText.converted(bytes, limit: limit) else { return false }
        ascii.withUnsafeBytes { writeAll($0, to: descriptor) }
        return true
    }

    private static func writeText(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { _ = writeText(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// The default of `--max-output-size`: past four times the text a 20 000-object archive
    /// (24 MB) prints, and short of what a small file of shared values could make the tool write.
    static let defaultOutputLimit = 64 << 20

    /// Writes `text` if it is at most `limit` bytes; otherwise nothing, and an error line naming
    /// `file` (false).
    static func write(_ text: String, file: String, limit: Int) -> Bool {
        var text = text
        return text.withUTF8 { write(UnsafeRawBufferPointer($0), after: "", file: file, limit: limit) }
    }

    /// Writes `text` for programs (CSV, TSV, a DOT or Mermaid graph), in UTF-8 whatever the
    /// charset, if it is at most `limit` bytes; otherwise nothing, and an error line (false).
    static func writeData(_ text: String, file: String, limit: Int) -> Bool {
        guard text.utf8.count <= left(of: limit) else {
            outputTooLarge(file: file, limit: limit)
            return false
        }
        writeAll(text, to: 1)
        return true
    }

    /// Writes `heading`, then `text`, if the two are at most `limit` bytes; otherwise nothing,
    /// and an error line naming `file` (false).
    static func write(_ text: UnsafeRawBufferPointer, after heading: String, file: String, limit: Int) -> Bool {
        guard heading.utf8.count + text.count <= left(of: limit) else {
            outputTooLarge(file: file, limit: limit)
            return false
        }
        if asciiOnly.load(ordering: .relaxed) {
            var whole = Array(heading.utf8)
            whole.append(contentsOf: text)
            guard whole.withUnsafeBytes({ writeText($0, to: 1, limit: left(of: limit)) }) else {
                outputTooLarge(file: file, limit: limit)
                return false
            }
            return true
        }
        write(heading)
        writeAll(text, to: 1)
        return true
    }

    /// `restoration-tool: FILE: error: its output goes past …`.
    static func outputTooLarge(file: String, limit: Int) {
        error(file: file, DecodingLimit.outputSize.exceeded(limit) + "; nothing of it is written")
    }

    /// The one document or graph of several files goes past the limit: named by its last file.
    static func outputTooLarge(files: [String], limit: Int) {
        guard files.count > 1, let last = files.last else { return outputTooLarge(file: files.first ?? "-", limit: limit) }
        error(file: last, DecodingLimit.outputSize.exceeded(limit) + " with the \(files.count) files, this one the last; nothing of it is written")
    }

    /// `restoration-tool: FILE: error: what (at byte n)`. Messages quote the input (a class
    /// name, a version string): escaped, they stay one line with no control sequence.
    static func error(file: String, _ message: String) {
        writeText("\(toolName): \(displayName(file)): error: \(TextEscaping.escape(message))\n", to: 2)
    }

    /// The argument parser's message for a usage error, on standard error: each line escaped,
    /// since it echoes the arguments (a file name may hold an escape sequence).
    ///
    /// Its first line takes the tool's own form: `restoration-tool: error: …`.
    static func usageError(_ text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { TextEscaping.escape(String($0)) }
        if let first = lines.first, first.hasPrefix("Error: ") {
            lines[0] = "\(toolName): error: " + first.dropFirst("Error: ".count)
        }
        writeText(lines.joined(separator: "\n") + "\n", to: 2)
    }

    /// Ends the process once every result is written. The commands call this instead of
    /// returning so that the decoded archives, up to millions of values, are not freed one by
    /// one first, which takes long for a large archive. Output is unbuffered, so nothing is
    /// lost.
    static func finish(_ status: Int32) -> Never {
        exit(status)
    }

    /// Writes the documents as JSON (an array when `asArray`); false, after an error line
    /// naming `file`, when they do not fit `limit`.
    ///
    /// The text is gathered whole before it is written, at most `limit` bytes of it: a document
    /// past the limit is not written at all (an error line instead), so that no command leaves
    /// half a document behind a failure.
    static func writeJSON<Document: JSONRepresentable>(_ documents: [Document], asArray: Bool, file: String, limit: Int = .max) -> Bool {
        writeJSON(documents, asArray: asArray, files: [file], limit: limit)
    }

    /// As `writeJSON(_:asArray:file:limit:)`, the document of `files` (named as
    /// `outputTooLarge(files:limit:)` names them).
    static func writeJSON<Document: JSONRepresentable>(_ documents: [Document], asArray: Bool, files: [String], limit: Int = .max) -> Bool {
        let text = GatheredText()
        guard renderJSON(documents, asArray: asArray, compact: false, files: files, limit: left(of: limit), into: text, limitGiven: limit) else { return false }
        text.withPieces { writeAll($0, to: 1) }
        return true
    }

    /// Writes each document on a line of its own (JSON Lines), all or nothing as `writeJSON`.
    static func writeJSONLines<Document: JSONRepresentable>(_ documents: [Document], file: String, limit: Int = .max) -> Bool {
        let text = GatheredText()
        for document in documents {
            guard renderJSON([document], asArray: false, compact: true, files: [file], limit: left(of: limit) - text.count, into: text, limitGiven: limit) else { return false }
        }
        text.withPieces { writeAll($0, to: 1) }
        return true
    }

    /// Renders the documents within `limit` bytes; past it, an error line names the limit the
    /// user gave (`limitGiven`), not what was left of it.
    private static func renderJSON<Document: JSONRepresentable>(
        _ documents: [Document], asArray: Bool, compact: Bool, files: [String], limit: Int, into text: GatheredText, limitGiven: Int? = nil
    ) -> Bool {
        do {
            try JSONOutput.write(documents, asArray: asArray, limit: limit, compact: compact, to: text.append)
        } catch {
            outputTooLarge(files: files, limit: limitGiven ?? limit)
            return false
        }
        return true
    }

    /// Reads an archive that must be a restoration archive; nil after an error line otherwise.
    static func readRestorationArchive(_ file: String, limits: DecodingLimits, savedState: Bool = false) -> RestorationArchive? {
        restorationArchive(file, Result { () throws(ArchiveError) in try RestorationArchive.read(contentsOf: file, limits: limits) }, savedState: savedState)
    }

    /// The archive read from `file`, or nil after reporting why it could not be read; with
    /// `savedState`, a saved-state file of another kind (a scene's activity, a macOS folder's
    /// file) too, but no generic keyed archive.
    static func restorationArchive(_ file: String, _ result: Result<RestorationArchive, ArchiveError>, savedState: Bool = false) -> RestorationArchive? {
        switch result {
        case .success(let read) where read.isRestorationArchive || (savedState && read.kind != .keyedArchive):
            return read
        case .success:
            notRestorationArchive(file)
        case .failure(let error):
            Console.error(file: file, error.description)
        }
        return nil
    }

    static func notRestorationArchive(_ file: String) {
        Console.error(file: file, "not a UIKit state-restoration archive (a keyed archive without \(RestorationKeys.majorVersion) or \(RestorationKeys.identifierPaths))")
    }

    /// `restoration-tool: FILE: warning: what`: on standard error, not a failure.
    static func warning(file: String, _ message: String) {
        writeText("\(toolName): \(displayName(file)): warning: \(TextEscaping.escape(message))\n", to: 2)
    }

    /// `restoration-tool: FILE: note: what`: on standard error, not a failure.
    static func note(file: String, _ message: String) {
        writeText("\(toolName): \(displayName(file)): note: \(TextEscaping.escape(message))\n", to: 2)
    }

    /// Unbuffered writes straight to the descriptor: output is produced in large pieces, and
    /// nothing is left in a buffer if the process exits with an error status.
    /// Writes bytes that are no text (an archive `build` wrote) to standard output, checked.
    static func writeBytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { writeAll($0, to: 1) }
    }

    /// Text for people on standard error, as it is (a report whose lines are escaped already).
    static func writeToStandardError(_ text: String) {
        writeText(text, to: 2)
    }

    private static func writeAll(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
        guard let base = bytes.baseAddress else { return }
        if descriptor == 1 { written.add(bytes.count, ordering: .relaxed) }
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                writeFailed(descriptor)
                return
            }
            offset += written
        }
    }

    /// A result that cannot be written ends the run: one error line and `ExitStatus.outputError`
    /// (a full disk must not leave a truncated file behind a status of 0). A closed pipe ends it
    /// quietly, as SIGPIPE ends cat. A failed write to standard error has nowhere to be told.
    private static func writeFailed(_ descriptor: Int32) {
        guard descriptor == 1 else { return }
        let reason = errno
        if reason == EPIPE { exit(ExitStatus.brokenPipe) }
        let message = "\(toolName): (standard output): error: cannot write the results: \(String(cString: strerror(reason)))\n"
        message.utf8CString.withUnsafeBufferPointer { _ = systemWrite(2, $0.baseAddress!, $0.count - 1) }
        exit(ExitStatus.outputError)
    }

    /// Writes the pieces in order with `writev(2)`, as many at a time as it takes.
    private static func writeAll(_ pieces: UnsafeBufferPointer<UnsafeRawBufferPointer>, to descriptor: Int32) {
        if descriptor == 1 { written.add(pieces.reduce(0) { $0 + $1.count }, ordering: .relaxed) }
        var vectors = pieces.compactMap { piece in
            piece.isEmpty ? nil : iovec(iov_base: UnsafeMutableRawPointer(mutating: piece.baseAddress), iov_len: piece.count)
        }
        var first = 0
        while first < vectors.count {
            let count = min(vectors.count - first, maximumVectors)
            let written = vectors.withUnsafeBufferPointer { systemWritev(descriptor, $0.baseAddress! + first, Int32(count)) }
            if written < 0 {
                if errno == EINTR { continue }
                writeFailed(descriptor)
                return
            }
            // Past the pieces written whole, then into the one written in part.
            var left = written
            while left > 0, left >= vectors[first].iov_len {
                left -= vectors[first].iov_len
                first += 1
            }
            if left > 0 {
                vectors[first].iov_base += left
                vectors[first].iov_len -= left
            }
        }
    }

    /// How many pieces one `writev` takes (1 024 on Linux; POSIX promises 16).
    private static let maximumVectors = max(16, sysconf(Int32(_SC_IOV_MAX)))

    /// How a file is named in messages; `-` is standard input.
    static func displayName(_ path: String) -> String {
        path == "-" ? "(standard input)" : RawPath.display(path)
    }
}

/// Exit statuses shared by every command (64, usage, comes from the argument parser).
enum ExitStatus {
    static let success: Int32 = 0
    /// validate found errors (or warnings, with --strict); diff found differences.
    static let findings: Int32 = 1
    static let unreadable: Int32 = 2
    /// The results could not be written (a full disk, an I/O error): EX_IOERR of sysexits(3),
    /// beside the argument parser's 64 (EX_USAGE).
    static let outputError: Int32 = 74
    /// Standard output was a pipe whose reader had gone: 128 + SIGPIPE, as the shell reports a
    /// command that SIGPIPE ended.
    static let brokenPipe: Int32 = 141
}

/// `write(2)`, at file scope so the name is not taken by `Console.write`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// `writev(2)`, at file scope beside `systemWrite`.
private func systemWritev(_ descriptor: Int32, _ vectors: UnsafePointer<iovec>, _ count: Int32) -> Int {
    writev(descriptor, vectors, count)
}
