import Foundation
import XCTest
@testable import RestorationKit

/// Locates the repository's `Fixtures/` folder from this source file's path.
enum FixtureFiles {
    static let root: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // FixtureFiles.swift, RestorationKitTests, Tests
        return parts.joined(separator: "/")
    }()

    static func path(_ name: String) -> String {
        root + "/Fixtures/" + name
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        try InputFile.read(path(name))
    }

    static func archive(_ name: String, limits: DecodingLimits = .default) throws -> RestorationArchive {
        try RestorationArchive(contentsOf: path(name), limits: limits)
    }

    /// Every fixture, hostile ones and the fuzzers' regressions included, by path from the
    /// repository's root.
    /// The decoder's values of `bytes`, decoded as the model decodes a file (`KeyedArchiveDecoder.decode`
    /// refuses a plain property list at once, the model reads on and may fail later).
    static func decodedValues(_ bytes: [UInt8], limits: DecodingLimits = .default) throws -> KeyedArchive {
        let tape = try KeyedArchiveDecoder(limits: limits).decodeTape(bytes[...], allowsPlain: true)
        return tape.keyedArchive
    }

    static func everyInput() throws -> [(name: String, bytes: [UInt8])] {
        var names: [String] = []
        for folder in ["Fixtures", "Tests/Fuzz/regressions"] {
            let found = FileManager.default.enumerator(atPath: root + "/" + folder)?.compactMap { $0 as? String } ?? []
            names += found.filter { !$0.hasSuffix(".md") && !$0.hasSuffix(".py") }.map { folder + "/" + $0 }
        }
        return try names.sorted().compactMap { name in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
            return (name, try InputFile.read(root + "/" + name))
        }
    }

    /// The bytes the Python expression `expression` gives, with the fixture generator imported as
    /// `g` (`Fixtures/generate.py`, which writes archives with `plistlib`): shapes no fixture
    /// has, made for one test.
    static func generated(_ expression: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sys; sys.path.insert(0, sys.argv[1]); import generate as g; sys.stdout.buffer.write(\(expression))", root + "/Fixtures"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let bytes = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        if process.terminationStatus == 127 { throw XCTSkip("python3 is not installed") }
        XCTAssertEqual(process.terminationStatus, 0, expression)
        return bytes
    }

    /// Every fixture that is a well-formed binary property list.
    static let wellFormedBinary = [
        "ios8-tabbar.data", "ios7-plain.data", "values.data", "float32.data", "not-restoration.data", "plain.plist",
    ]
}

/// Asserts that `body` throws an `ArchiveError` of `kind` whose description contains `text`.
func assertArchiveError<T>(
    _ body: @autoclosure () throws -> T, kind: ArchiveError.Kind, contains text: String,
    file: StaticString = #filePath, line: UInt = #line
) {
    do {
        _ = try body()
        XCTFail("expected an error containing '\(text)'", file: file, line: line)
    } catch let error as ArchiveError {
        XCTAssertEqual(error.kind, kind, "\(error)", file: file, line: line)
        XCTAssertTrue(error.description.contains(text), "'\(error)' does not contain '\(text)'", file: file, line: line)
    } catch {
        XCTFail("unexpected error \(error)", file: file, line: line)
    }
}
