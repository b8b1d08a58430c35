import Foundation
import XCTest
@testable import RestorationKit

/// Keyed archives written by Apple's Foundation on macOS, from swift-corelibs-foundation's test
/// suite (`Tests/Foundation/Resources`: `Fixtures/macOS-10.14/*.archive` and
/// `NSKeyedUnarchiver-*.plist`; Apache License 2.0 with Runtime Library Exception), decoded with
/// the values that suite asserts.
///
/// They are read from `shared/apple-keyed-archives/` beside the checkout (or the folder named by
/// `APPLE_KEYED_ARCHIVES`): files brought in from other repositories are kept there, not committed
/// here (Fixtures/README.md). Without the folder the test is skipped, and says so, except in CI
/// (`CI` set, as .ci/run runs), where the folder is always laid beside the checkout: there its
/// absence fails the test.
final class AppleWrittenArchiveTests: XCTestCase {
    static var folder: String {
        ProcessInfo.processInfo.environment["APPLE_KEYED_ARCHIVES"] ?? FixtureFiles.root + "/../shared/apple-keyed-archives"
    }

    private func files() throws -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: Self.folder) else {
            let message = "no Apple-written archives at \(Self.folder) (see Fixtures/README.md)"
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail(message + ": CI must run this test") }
            throw XCTSkip(message)
        }
        return names.filter { $0.hasSuffix(".archive") || $0.hasSuffix(".plist") }.sorted()
    }

    private func root(_ name: String) throws -> ArchiveValue {
        let archive = try KeyedArchiveDecoder().decode(try InputFile.read(Self.folder + "/" + name))
        return try XCTUnwrap(archive.top["root"], name)
    }

    func testEveryArchiveDecodes() throws {
        let names = try files()
        XCTAssertGreaterThanOrEqual(names.count, 40)
        for name in names {
            XCTAssertNoThrow(try root(name), name)
        }
        print("AppleWrittenArchives: \(names.count) archives decoded")
    }

    /// The values swift-corelibs-foundation's TestNSKeyedUnarchiver and FixtureValues assert.
    func testTheValuesTheirSuiteAsserts() throws {
        _ = try files()
        let numbers = (1...5).map { ArchiveValue.integer(Int128($0)) }
        XCTAssertEqual(try root("NSKeyedUnarchiver-ArrayTest.plist"), .array(["baa", "baa", "black", "sheep"].map(ArchiveValue.string)))
        XCTAssertEqual(try root("NSKeyedUnarchiver-OrderedSetTest.plist"), .orderedSet(["valgeir", "nico", "puzzle"].map(ArchiveValue.string)))
        XCTAssertEqual(try root("NSKeyedUnarchiver-UUIDTest.plist"), .uuid(withUnsafeBytes(of: UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34")!.uuid) { Array($0) }))
        XCTAssertEqual(try root("NSKeyedUnarchiver-URLTest.plist"), .url(ArchiveURL(base: .url(ArchiveURL(base: .null, relative: "https://www.example.com")), relative: "foo.xml")))
        for (name, expected) in [("NSOrderedSet-Numbers", ArchiveValue.orderedSet(numbers)), ("NSMutableOrderedSet-Numbers", .orderedSet(numbers)),
                                 ("NSOrderedSet-Empty", .orderedSet([])), ("NSMutableOrderedSet-Empty", .orderedSet([]))] {
            XCTAssertEqual(try root(name + ".archive"), expected, name)
        }
        for name in ["NSSet-Numbers", "NSMutableSet-Numbers"] {
            let set = try root(name + ".archive")
            guard set.kind == .set, let elements = set.elements else { return XCTFail("\(name) is a set") }
            XCTAssertEqual(Set(elements.compactMap(\.integerValue)), Set(1...5), name)
        }
        guard let complex = try root("NSKeyedUnarchiver-ComplexTest.plist").dictionaryValue else { return XCTFail("a dictionary") }
        let entries = Dictionary(uniqueKeysWithValues: complex.entries.compactMap { entry in entry.key.stringValue.map { ($0, entry.value) } })
        XCTAssertEqual(entries["string"], .string("hello"))
        XCTAssertEqual(entries["uuid"], .uuid(withUnsafeBytes(of: UUID(uuidString: "71DC068E-3420-45FF-919E-3A267D55EC22")!.uuid) { Array($0) }))
        XCTAssertEqual(entries["url"], .url(ArchiveURL(base: .url(ArchiveURL(base: .null, relative: "https://www.swift.org")), relative: "index.xml")))
        guard entries["array"]?.kind == .array, let array = entries["array"]?.elements, array.count == 4 else { return XCTFail("array of 4") }
        XCTAssertEqual(array[1], .string("hello"))
        XCTAssertEqual(array[2], .integer(34545))
        XCTAssertEqual(array[3], .dictionary(ArchiveDictionary(entries: [.init(key: .string("key"), value: .string("val"))])))
    }
}
