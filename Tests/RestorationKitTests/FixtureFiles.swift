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
