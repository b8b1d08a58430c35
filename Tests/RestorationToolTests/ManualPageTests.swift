import Foundation
import XCTest

/// The man page must describe every option the tool accepts, and render without warnings.
final class ManualPageTests: XCTestCase {
    private let page = ToolRunner.packageRoot + "/man/restoration-tool.1"

    /// Options hidden from help are listed too (`--help-hidden`); the argument parser's own
    /// completion option appears in no help text, so it is named here.
    func testEveryOptionIsDocumented() throws {
        let manual = try String(contentsOfFile: page, encoding: .utf8)
        for command in [["--help-hidden"]] + ["dump", "validate", "diff", "tree", "scan", "build"].map({ [$0, "--help-hidden"] }) {
            let help = try ToolRunner.run(command).stdout
            var options = Set(help.matches(of: /(?:^|[\s,\[])--([a-z][a-z-]*)/.anchorsMatchLineEndings()).map { String($0.output.1) })
            XCTAssertFalse(options.isEmpty)
            if command.count == 1 { options.insert("generate-completion-script") }
            for option in options {
                XCTAssertTrue(manual.contains("Fl \\-\(option)"), "man page does not describe --\(option)")
            }
        }
    }

    /// In a UTF-8 locale and in the C locale (ASCII), as `man` renders the page in each.
    func testRendersWithoutWarnings() throws {
        let groff = ["/usr/bin/groff", "/usr/local/bin/groff"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let groff else { throw XCTSkip("groff is not installed") }
        for (device, locale) in [("utf8", "C.UTF-8"), ("ascii", "C")] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: groff)
            process.arguments = ["-mandoc", "-ww", "-T" + device, page]
            process.environment = ["LC_ALL": locale, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, device)
            XCTAssertEqual(warnings, "", device)
            // Quotes nest as they read, and the tree example keeps its branches in ASCII.
            XCTAssertFalse(text.contains("C.UTF-8\"\""), device)
            if device == "ascii" { XCTAssertTrue(text.contains("`-- [1] NavigationController  (selected)"), text) }
        }
    }
}
