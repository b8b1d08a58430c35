import Foundation
import XCTest

/// Runs the built `restoration-tool` executable and captures what it prints.
struct ToolRun {
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: Double
}

enum ToolRunner {
    static let packageRoot: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // ToolRunner.swift, RestorationToolTests, Tests
        return parts.joined(separator: "/")
    }()

    /// The executable sits beside the test bundle in the build's products folder.
    static let executable: URL = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments.first { $0.hasSuffix(".xctest") } ?? Bundle.main.bundlePath)
        var directory = bundle
        while directory.path != "/" {
            let candidate = directory.deletingLastPathComponent().appendingPathComponent("restoration-tool")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL.appendingPathComponent("restoration-tool")
    }()

    static func fixture(_ name: String) -> String {
        packageRoot + "/Fixtures/" + name
    }

    /// Whether `run(_:asUnprivilegedUser:)` can run the tool as another user than root: the
    /// tests run as root in CI, where every file is readable, and a permission check needs a
    /// user that permissions apply to (util-linux's setpriv, as `nobody`).
    static var canRunUnprivileged: Bool {
        getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    }

    /// Runs the tool with `arguments` from the package root, optionally feeding `input` on stdin;
    /// with `asUnprivilegedUser`, run by root, as `nobody`.
    static func run(
        _ arguments: [String], input: Data? = nil, environment: [String: String] = [:], asUnprivilegedUser: Bool = false, executable program: String? = nil
    ) throws -> ToolRun {
        let process = Process()
        process.executableURL = program.map(URL.init(fileURLWithPath:)) ?? executable
        process.arguments = arguments
        if asUnprivilegedUser, getuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", executable.path] + arguments
        }
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        var env = ProcessInfo.processInfo.environment
        env["COLUMNS"] = "100"
        // The expected texts are UTF-8; a machine without a locale would get ASCII (--charset).
        env["LC_ALL"] = "C.UTF-8"
        env.merge(environment) { $1 }
        process.environment = env
        // Output goes to files, not pipes, so a large output can never block the process.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("restoration-tool-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        let inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        let start = Date()
        try process.run()
        if let input {
            inPipe.fileHandleForWriting.write(input)
        }
        try inPipe.fileHandleForWriting.close()
        process.waitUntilExit()
        let outData = try Data(contentsOf: outURL)
        let errData = try Data(contentsOf: errURL)
        return ToolRun(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self),
            seconds: Date().timeIntervalSince(start))
    }
}
