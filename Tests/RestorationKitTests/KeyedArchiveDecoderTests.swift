import XCTest
@testable import RestorationKit

final class KeyedArchiveDecoderTests: XCTestCase {
    private var state: ArchiveFields!

    override func setUpWithError() throws {
        state = try XCTUnwrap(FixtureFiles.archive("values.data").objects.first?.state)
    }

    func testIntegersKeepSignAndWidth() {
        XCTAssertEqual(state["intNegative"], .integer(-42))
        XCTAssertEqual(state["intInt64Max"], .integer(Int128(Int64.max)))
        XCTAssertEqual(state["intInt64Min"], .integer(Int128(Int64.min)))
        XCTAssertEqual(state["intUInt64Max"], .integer(Int128(UInt64.max)))
        XCTAssertEqual(state["int2Pow53Plus1"], .integer(9_007_199_254_740_993))
        XCTAssertEqual(state["numberUInt64Max"], .integer(Int128(UInt64.max)))
    }

    func testRealsAreExact() throws {
        XCTAssertEqual(state["realPointOne"], .real(0.1))
        XCTAssertEqual(state["realFloat"], .real(Double(Float(0.1))))
        guard case .real(let zero)? = state["realNegativeZero"] else { return XCTFail("not a real") }
        XCTAssertEqual(zero.sign, .minus)
    }

    func testDatesKeepTheirFraction() {
        XCTAssertEqual(state["dateFraction"], .date(428_947_518.123456))
        XCTAssertEqual(state["dateBefore2001"], .date(-86_400.5))
    }

    func testFoundationClassesBecomeNaturalValues() {
        XCTAssertEqual(state["mutableString"], .string("edited text"))
        XCTAssertEqual(state["mutableArray"], .array([.integer(1), .string("two"), .real(3.5)]))
        XCTAssertEqual(state["set"], .set([.string("red"), .string("green"), .string("blue")]))
        XCTAssertEqual(state["orderedSet"], .orderedSet([.string("first"), .string("second"), .string("third")]))
        XCTAssertEqual(state["nilValue"], .null)
        XCTAssertEqual(state["stringUnicode"], .string("Zürich – 日本 ☕ 🚀 é"))
        XCTAssertEqual(
            state["uuid"].flatMap { if case .uuid(let bytes) = $0 { ByteFormatting.uuidString(bytes) } else { nil } },
            "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        XCTAssertEqual(
            state["urlRelative"],
            .url(ArchiveURL(base: .url(ArchiveURL(base: .null, relative: "https://example.com/base/")), relative: "child/page.html")))
    }

    func testDictionariesWithNonStringKeys() throws {
        guard case .dictionary(let dictionary)? = state["dictIntKeys"] else { return XCTFail("not a dictionary") }
        XCTAssertNil(dictionary.stringKeyed)
        XCTAssertEqual(dictionary.entries.map(\.key), [.integer(1), .integer(2), .integer(-3)])
    }

    func testUnknownClassesKeepClassChainAndFields() throws {
        guard case .object(let settings)? = state["settings"] else { return XCTFail("not an object") }
        XCTAssertEqual(settings.className, "StateRestorationDemo.Settings")
        XCTAssertEqual(settings.classChain, ["StateRestorationDemo.Settings", "NSObject"])
        XCTAssertEqual(settings.fields["theme"], .string("dark"))
        guard case .object(let account)? = settings.fields["account"] else { return XCTFail("nested object missing") }
        XCTAssertEqual(account.fields["name"], .string("Ada"))
        guard case .object(let null)? = state["null"] else { return XCTFail("NSNull is kept as an object") }
        XCTAssertEqual(null.className, "NSNull")
    }

    func testSharedObjectsAreTheSameValue() {
        XCTAssertNotNil(state["sharedFirst"])
        XCTAssertEqual(state["sharedFirst"], state["sharedSecond"])
    }

    func testCyclesBecomeMarkers() throws {
        guard case .object(let node)? = state["cycleSelf"], case .cycle? = node.fields["next"] else {
            return XCTFail("self reference should be a cycle marker: \(String(describing: state["cycleSelf"]))")
        }
        guard case .object(let parent)? = state["cycleParent"], case .object(let child)? = parent.fields["child"],
              case .cycle? = child.fields["parent"]
        else { return XCTFail("parent/child cycle should end in a marker") }
    }

    func testNestedArchiveThatIsNotAnObjectsState() throws {
        let archive = try FixtureFiles.archive("values.data")
        guard case .archive(let nested)? = archive.appState["AppArchivedModel"] else { return XCTFail("not decoded as an archive") }
        guard case .object(let model)? = nested.top["root"] else { return XCTFail("no root object") }
        XCTAssertEqual(model.fields["version"], .integer(2))
    }

    func testDataThatIsNotAnArchiveStaysBytes() {
        guard case .data(let data)? = state["dataBinary"] else { return XCTFail("not data") }
        XCTAssertEqual(Array(data.bytes), Array(0..<20))
        XCTAssertNil(data.archiveError)
    }

    func testNotAKeyedArchive() {
        assertArchiveError(try FixtureFiles.archive("plain.plist"), kind: .notKeyedArchive, contains: "not a keyed archive: a plain property list")
    }

    func testArchiveDepthLimitIsConfigurable() throws {
        let bytes = try FixtureFiles.bytes("hostile/nested-archives.data")
        assertArchiveError(
            try RestorationArchive(bytes: bytes[...], limits: DecodingLimits(maxArchiveDepth: 8)),
            kind: .limitExceeded, contains: "keyed archives nest deeper than the limit of 8 levels")
        // With room for all 1 000 levels, it decodes down to the innermost string.
        var archive = try RestorationArchive(bytes: bytes[...], limits: DecodingLimits(maxDepth: 4096, maxArchiveDepth: 1001)).archive
        var levels = 1
        while case .archive(let nested)? = archive.top["nested"] {
            archive = nested
            levels += 1
        }
        XCTAssertEqual(levels, 1000)
        XCTAssertEqual(archive.top["leaf"], .string("bottom"))
    }

    func testMalformedNestedArchiveIsKeptAsDataWithItsError() throws {
        // An object's entry that claims to be a binary plist but is cut short.
        let top = ArchiveFields([("a", .integer(1))])
        XCTAssertEqual(top["a"], .integer(1))
        let truncated = Array(try FixtureFiles.bytes("ios7-plain.data").prefix(40))
        let outer = try KeyedArchiveDecoder().decode(propertyList: .dictionary(PropertyListDictionary([
            ("$archiver", .string("NSKeyedArchiver")),
            ("$version", .integer(100_000)),
            ("$top", .dictionary(PropertyListDictionary([("blob", .uid(1))]))),
            ("$objects", .array([.string("$null"), .data(truncated[...])])),
        ])))
        guard case .data(let data)? = outer.top["blob"] else { return XCTFail("should stay data") }
        XCTAssertNotNil(data.archiveError)
    }
}
