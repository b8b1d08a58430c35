import Foundation

/// Runs a program we did not write (coreutils, Graphviz) on bytes given as a file, for tests that
/// compare our output with its reading.
enum OtherTools {
    /// The program's exit status and standard output; the input is written to a temporary file
    /// named last on its command line (never a pipe, which it may stop reading).
    static func run(_ program: String, _ arguments: [String], input: Data) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("other-tool-\(UUID().uuidString)")
        try input.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments + [file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
