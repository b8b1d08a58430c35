import XCTest
@testable import RestorationKit

final class KeyedArchiveDecoderTests: XCTestCase {
    private var state: ArchiveFields!

    override func setUpWithError() throws {
        state = try XCTUnwrap(FixtureFiles.archive("values.data").objects.first?.state)
    }

    /// Decoded data values hold copies: a slice of the file would keep its whole buffer alive as
    /// long as the value (`diff` held both 24 MB files to the end).
    func testDataValuesDoNotHoldTheFileBuffer() throws {
        let bytes = try FixtureFiles.bytes("values.data")
        let archive = try RestorationArchive(bytes: bytes[...])
        var found = 0
        func check(_ value: ArchiveValue) {
            switch value.content {
            case .data(let data):
                found += 1
                bytes.withUnsafeBufferPointer { file in
                    data.bytes.withUnsafeBufferPointer { own in
                        let inside = own.baseAddress.map { file.baseAddress! <= $0 && $0 < file.baseAddress! + file.count } ?? false
                        XCTAssertFalse(inside, "\(data.bytes.count) bytes of data point into the file's buffer")
                    }
                }
            case .object(let object): object.fields.entries.forEach { check($0.1) }
            case .array(let elements), .set(let elements), .orderedSet(let elements): elements.forEach(check)
            default: break
            }
        }
        for object in archive.objects { object.state?.entries.forEach { check($0.1) } }
        XCTAssertGreaterThanOrEqual(found, 2, "values.data holds plain data and NSMutableData")
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
        guard case .real(let zero)? = state["realNegativeZero"]?.content else { return XCTFail("not a real") }
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
        XCTAssertEqual(state["stringUnicode"], .string("Zürich – 日本 ☕ 🚀 e\u{301}"), "the file writes é decomposed, and the string keeps it so")
        XCTAssertEqual(
            state["uuid"]?.uuidValue.map(ByteFormatting.uuidString),
            "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        XCTAssertEqual(
            state["urlRelative"],
            .url(ArchiveURL(base: .url(ArchiveURL(base: .null, relative: "https://example.com/base/")), relative: "child/page.html")))
    }

    func testDictionariesWithNonStringKeys() throws {
        guard case .dictionary(let dictionary)? = state["dictIntKeys"]?.content else { return XCTFail("not a dictionary") }
        XCTAssertNil(dictionary.stringKeyed)
        XCTAssertEqual(dictionary.entries.map(\.key), [.integer(1), .integer(2), .integer(-3)])
    }

    func testUnknownClassesKeepClassChainAndFields() throws {
        guard case .object(let settings)? = state["settings"]?.content else { return XCTFail("not an object") }
        XCTAssertEqual(settings.className, "StateRestorationDemo.Settings")
        XCTAssertEqual(settings.classChain, ["StateRestorationDemo.Settings", "NSObject"])
        XCTAssertEqual(settings.fields["theme"], .string("dark"))
        guard case .object(let account)? = settings.fields["account"]?.content else { return XCTFail("nested object missing") }
        XCTAssertEqual(account.fields["name"], .string("Ada"))
        guard case .object(let null)? = state["null"]?.content else { return XCTFail("NSNull is kept as an object") }
        XCTAssertEqual(null.className, "NSNull")
    }

    func testSharedObjectsAreTheSameValue() {
        XCTAssertNotNil(state["sharedFirst"])
        XCTAssertEqual(state["sharedFirst"], state["sharedSecond"])
    }

    func testCyclesBecomeMarkers() throws {
        guard case .object(let node)? = state["cycleSelf"]?.content, case .cycle? = node.fields["next"]?.content else {
            return XCTFail("self reference should be a cycle marker: \(String(describing: state["cycleSelf"]))")
        }
        guard case .object(let parent)? = state["cycleParent"]?.content, case .object(let child)? = parent.fields["child"]?.content,
              case .cycle? = child.fields["parent"]?.content
        else { return XCTFail("parent/child cycle should end in a marker") }
    }

    func testNestedArchiveThatIsNotAnObjectsState() throws {
        let archive = try FixtureFiles.archive("values.data")
        guard case .archive(let nested)? = archive.appState["AppArchivedModel"]?.content else { return XCTFail("not decoded as an archive") }
        guard case .object(let model)? = nested.top["root"]?.content else { return XCTFail("no root object") }
        XCTAssertEqual(model.fields["version"], .integer(2))
    }

    func testDataThatIsNotAnArchiveStaysBytes() {
        guard case .data(let data)? = state["dataBinary"]?.content else { return XCTFail("not data") }
        XCTAssertEqual(Array(data.bytes), Array(0..<20))
        XCTAssertNil(data.archiveError)
    }

    func testNotAKeyedArchive() throws {
        let bytes = try FixtureFiles.bytes("plain.plist")
        assertArchiveError(try KeyedArchiveDecoder().decode(bytes), kind: .notKeyedArchive, contains: "not a keyed archive: a plain property list")
        // The model reads it as the plain property list it is.
        XCTAssertEqual(try FixtureFiles.archive("plain.plist").kind, .propertyList)
    }

    func testArchiveDepthLimitIsConfigurable() throws {
        let bytes = try FixtureFiles.bytes("hostile/nested-archives.data")
        assertArchiveError(
            try RestorationArchive(bytes: bytes[...], limits: DecodingLimits(maxArchiveDepth: 8)),
            kind: .limitExceeded, contains: "keyed archives nest deeper than the limit of 8 levels")
        // With room for all 1 000 levels, it decodes down to the innermost string.
        var archive = try RestorationArchive(bytes: bytes[...], limits: DecodingLimits(maxDepth: 4096, maxArchiveDepth: 1001)).archive
        var levels = 1
        while case .archive(let nested)? = archive.top["nested"]?.content {
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
        let outer = try KeyedArchiveDecoder().decode(tree: .dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")),
            ("$version", .integer(100_000)),
            ("$top", .dictionary(PlistDictionary([("blob", .uid(1))]))),
            ("$objects", .array([.string("$null"), .data(truncated[...])])),
        ])))
        guard case .data(let data)? = outer.top["blob"]?.content else { return XCTFail("should stay data") }
        XCTAssertNotNil(data.archiveError)
    }

    /// How a binary list is laid out does not change what it decodes to: each fixture, and the
    /// same values written again with nothing shared (every key and class name repeated),
    /// decode to the same archive.
    func testBinaryBytesAndTheirTreeDecodeAlike() throws {
        for name in ["ios8-tabbar.data", "ios7-plain.data", "values.data", "not-restoration.data", "float32.data"] {
            let bytes = try FixtureFiles.bytes(name)
            let fromBytes = try KeyedArchiveDecoder().decode(bytes)
            let fromTree = try KeyedArchiveDecoder().decode(tree: PlistTree.read(bytes))
            XCTAssertEqual(fromBytes, fromTree, name)
        }
    }

    func testObjectCountIsBoundedByTheValueLimit() {
        let plist = PlistTree.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")),
            ("$version", .integer(100_000)),
            ("$top", .dictionary(PlistDictionary([("a", .uid(1))]))),
            ("$objects", .array([.string("$null")] + Array(repeating: .string("x"), count: 10))),
        ]))
        assertArchiveError(
            try KeyedArchiveDecoder(limits: DecodingLimits(maxNodes: 10)).decode(tree: plist),
            kind: .limitExceeded, contains: "the input expands to more than the limit of 10 values (--max-nodes)")
        XCTAssertNoThrow(try KeyedArchiveDecoder(limits: DecodingLimits(maxNodes: 11)).decode(tree: plist))
    }

    func testContainerHoldingItselfInsideAnArchiveIsACycleError() {
        func ascii(_ text: String) -> [UInt8] {
            let bytes = Array(text.utf8)
            return (bytes.count < 15 ? [0x50 | UInt8(bytes.count)] : [0x5F, 0x10, UInt8(bytes.count)]) + bytes
        }
        let bytes = BinaryPlistBuilder.objects([
            [0xD4, 1, 2, 3, 4, 5, 6, 7, 8],  // {$archiver: 5, $top: 6, $objects: 7, $version: 8}
            ascii("$archiver"), ascii("$top"), ascii("$objects"), ascii("$version"), ascii("NSKeyedArchiver"),
            [0xD1, 10, 9],  // $top: {k: 9}
            [0xA1, 11],  // $objects: ["$null"]
            [0x12, 0x00, 0x01, 0x86, 0xA0],  // 100000
            [0xA1, 9],  // an array whose only element is itself
            ascii("k"), ascii("$null"),
        ])
        assertArchiveError(try KeyedArchiveDecoder().decode(bytes), kind: .unreadable, contains: "reference cycle: object 9 contains itself")
    }

    /// The root dictionary's keys are read in one pass, which finds what a search for each key
    /// in turn would: the first of a repeated key, and a key that is not a string only when a
    /// search would meet it (after `$top` was checked, if `$top` comes first). Seen in a nested
    /// archive, whose reason for not being read is kept as it is.
    func testRootKeysAreFoundAsASearchForEachFindsThem() throws {
        func ascii(_ text: String) -> [UInt8] {
            let bytes = Array(text.utf8)
            return (bytes.count < 15 ? [0x50 | UInt8(bytes.count)] : [0x5F, 0x10, UInt8(bytes.count)]) + bytes
        }
        // Objects 1-4 are the four keys, 5 an integer key, 6 "$archiver"'s value, 7 a string
        // `$top`, 8 a dictionary `$top`, 9 `$objects`, 10 `$version`.
        func nestedError(_ pairs: [(key: UInt8, value: UInt8)]) throws -> String? {
            let inner = BinaryPlistBuilder.objects([
                [0xD0 | UInt8(pairs.count)] + pairs.map(\.key) + pairs.map(\.value),
                ascii("$archiver"), ascii("$top"), ascii("$objects"), ascii("$version"), [0x10, 5], ascii("NSKeyedArchiver"),
                ascii("text"), [0xD0], [0xA1, 11], [0x12, 0x00, 0x01, 0x86, 0xA0], ascii("$null"),
            ])
            let outer = try KeyedArchiveDecoder().decode(tree: .dictionary(PlistDictionary([
                ("$archiver", .string("NSKeyedArchiver")),
                ("$version", .integer(100_000)),
                ("$top", .dictionary(PlistDictionary([("blob", .uid(1))]))),
                ("$objects", .array([.string("$null"), .data(inner[...])])),
            ])))
            if outer.top["blob"]?.kind == .archive { return nil }
            guard case .data(let data)? = outer.top["blob"]?.content else { throw XCTSkip("neither an archive nor data") }
            return data.archiveError
        }
        let (archiver, objects, version): ((UInt8, UInt8), (UInt8, UInt8), (UInt8, UInt8)) = ((1, 6), (3, 9), (4, 10))
        let (textTop, top, integerKey): ((UInt8, UInt8), (UInt8, UInt8), (UInt8, UInt8)) = ((2, 7), (2, 8), (5, 6))
        XCTAssertNil(try nestedError([archiver, top, objects, version, integerKey]))
        XCTAssertNil(try nestedError([version, top, textTop, objects, archiver]))
        let notADictionary = "not a keyed archive: $top is a string, not a dictionary"
        XCTAssertEqual(try nestedError([archiver, textTop, top, integerKey, objects, version]), notADictionary)
        XCTAssertEqual(try nestedError([archiver, textTop, integerKey, objects, version]), notADictionary)
        XCTAssertEqual(try nestedError([archiver, integerKey, textTop, objects, version]), "dictionary key (object 5) is not a string (at byte 8 of the data)")
        XCTAssertEqual(try nestedError([top, objects, version, integerKey]), "dictionary key (object 5) is not a string (at byte 8 of the data)")
    }

    /// An outer archive whose `$top` refers to 120 nested archives, enough for them to be decoded
    /// on several threads; with `sharedBy` entries referring to each archive (an entry and
    /// another far after it, decoded on another thread).
    private func manyNestedArchives(sharedBy sharing: Int = 1) throws -> PlistTree {
        let nested = try ["ios7-plain.data", "ios8-tabbar.data", "values.data", "not-restoration.data"].map(FixtureFiles.bytes)
        let count = 120
        return .dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")),
            ("$version", .integer(100_000)),
            ("$top", .dictionary(PlistDictionary((0..<count).map { ("object\($0)", .uid(UInt64($0 % (count / sharing) + 1))) }))),
            ("$objects", .array([.string("$null")] + (0..<(count / sharing)).map { .data(nested[$0 % nested.count][...]) })),
        ]))
    }

    func testConcurrentDecodingGivesTheSequentialResult() throws {
        for sharing in [1, 3] {
            let plist = try manyNestedArchives(sharedBy: sharing)
            var sequential = KeyedArchiveDecoder()
            sequential.allowsConcurrency = false
            let expected = try sequential.decode(tree: plist)
            XCTAssertEqual(expected.top.count, 120)
            XCTAssertTrue(expected.top.values.allSatisfy { $0.archiveValue != nil })
            XCTAssertEqual(try KeyedArchiveDecoder().decode(tree: plist), expected)
        }
    }

    /// A batch of nested archives decoded ahead reserves room for its nodes from its first
    /// archive, within bounds a hostile first archive or raised limits cannot pass.
    func testBatchesReserveRoomWithinBounds() {
        typealias Decoder = ArchiveGraphDecoder<BinaryPropertyList>
        XCTAssertEqual(Decoder.batchNodes(afterFirst: 1_000, positions: 100, batches: 16, limits: .default), 112_500)
        // The batch's share of twice the node limit: 5 000 000 / 16 * 2.
        XCTAssertEqual(Decoder.batchNodes(afterFirst: 100_000, positions: 1_000, batches: 16, limits: .default), 625_000)
        XCTAssertEqual(Decoder.batchNodes(afterFirst: Int.max / 2, positions: 3, batches: 16, limits: .default), 625_000, "no overflow")
        XCTAssertEqual(Decoder.batchNodes(afterFirst: Int.max - 1, positions: 1, batches: 16, limits: .default), 625_000, "no overflow adding an eighth")
        var raised = DecodingLimits.default
        raised.maxNodes = Int.max
        XCTAssertEqual(Decoder.batchNodes(afterFirst: 100_000, positions: 1_000, batches: 16, limits: raised), 1 << 20)
        XCTAssertEqual(Decoder.batchNodes(afterFirst: 0, positions: 1_000, batches: 16, limits: .default), 0)
    }

    /// A limit crossed partway through the nested archives fails exactly as a sequential decode
    /// does: same message, same place; also when several entries refer to one archive.
    func testLimitCrossedAmidConcurrentDecodingFailsAsSequentialDecodingDoes() throws {
        for (plist, limits) in try [manyNestedArchives(), manyNestedArchives(sharedBy: 3)].flatMap({ plist in
            [DecodingLimits(maxNodes: 5_000), DecodingLimits(maxNestedArchiveBytes: 200_000)].map { (plist, $0) }
        }) {
            var sequential = KeyedArchiveDecoder(limits: limits)
            sequential.allowsConcurrency = false
            var expected: ArchiveError?
            XCTAssertThrowsError(try sequential.decode(tree: plist)) { expected = $0 as? ArchiveError }
            XCTAssertEqual(expected?.kind, .limitExceeded)
            XCTAssertThrowsError(try KeyedArchiveDecoder(limits: limits).decode(tree: plist)) { error in
                XCTAssertEqual(error as? ArchiveError, expected)
            }
        }
    }

    /// Every object shows its class name and every dictionary its keys: shared as they are in the
    /// file, they count once per use, like strings (a class name twice: as the class and as the
    /// chain it heads).
    func testSharedClassNamesAndKeysCountTowardTheByteLimit() throws {
        let longName = String(repeating: "N", count: 1_000)
        let objects: [PlistTree] = [.string("$null"), .dictionary(PlistDictionary([("$classname", .string(longName))]))]
            + (0..<100).map { _ in .dictionary(PlistDictionary([("$class", .uid(1)), ("k", .integer(1))])) }
        let plist = PlistTree.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")),
            ("$version", .integer(100_000)),
            ("$top", .dictionary(PlistDictionary((0..<100).map { ("o\($0)", .uid(UInt64($0 + 2))) }))),
            ("$objects", .array(objects)),
        ]))
        XCTAssertNoThrow(try KeyedArchiveDecoder(limits: DecodingLimits(maxExpandedBytes: 210_000)).decode(tree: plist))
        assertArchiveError(
            try KeyedArchiveDecoder(limits: DecodingLimits(maxExpandedBytes: 150_000)).decode(tree: plist),
            kind: .limitExceeded, contains: "strings and data expand to more than the limit of 150000 bytes (--max-expanded-bytes)")
    }

    /// `$objects` entries that are UIDs of other entries nest no deeper, so no depth limit
    /// bounds a chain of them: the decoder follows one as long as `$objects` on its own stack.
    /// On a 256 KiB thread, with no hop to a larger stack, a chain of 300 000 entries decodes;
    /// each of its entries is the value at its end, and a chain that comes back to itself is
    /// a cycle. (Followed by recursion, a chain of 400 000 crashed a release build.)
    func testChainsOfEntriesThatAreUIDsDecodeOnAnOrdinaryStack() throws {
        let links = 300_000
        // Entries 1…links each refer to the next; entry links + 1 is the string at the end;
        // the two after it refer to each other.
        let loop = links + 2
        let objects: [PlistTree] = [.string("$null")] + (1...links).map { .uid(UInt64($0 + 1)) }
            + [.string("end"), .uid(UInt64(loop + 1)), .uid(UInt64(loop))]
        let plist = PlistTree.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")),
            ("$version", .integer(100_000)),
            ("$top", .dictionary(PlistDictionary([("first", .uid(1)), ("middle", .uid(UInt64(links / 2))), ("loop", .uid(UInt64(loop)))]))),
            ("$objects", .array(objects)),
        ]))
        let bytes = plist.binary()
        let top = try onSmallStack {
            var decoder = KeyedArchiveDecoder()
            decoder.allowsConcurrency = false
            return try decoder.decode(bytes).top
        }
        XCTAssertEqual(top["first"], .string("end"))
        XCTAssertEqual(top["middle"], .string("end"))
        XCTAssertEqual(top["loop"]?.cycleValue, UInt64(loop))
    }

    /// An XML archive is laid out as an object table for the decoder (`XMLPropertyList`) while
    /// it is parsed, with a stack of its own: on a 256 KiB thread an archive whose value nests
    /// 4 000 levels is laid out and decoded.
    func testDeepXMLArchivesAreLaidOutOnAnOrdinaryStack() throws {
        let levels = 4_000
        let nested = String(repeating: "<array><integer>1</integer>", count: levels) + "<string>bottom</string>" + String(repeating: "</array>", count: levels)
        let document = Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>$archiver</key><string>NSKeyedArchiver</string><key>$version</key><integer>100000</integer>
            <key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>
            <key>$objects</key><array><string>$null</string>\(nested)</array>
            </dict></plist>
            """.utf8)
        let limits = DecodingLimits(maxDepth: levels + 8)
        let (objectCount, root) = try onSmallStack {
            var decoder = KeyedArchiveDecoder(limits: limits)
            decoder.allowsConcurrency = false
            return (try XMLPropertyListReader(limits: limits).table(document[...]).objectCount, try decoder.decode(document).top["root"])
        }
        // The root, its four keys and four values, `$top`'s key and value, `$null`, the string
        // at the bottom, and each level's array and integer.
        XCTAssertEqual(objectCount, 1 + 8 + 2 + 2 + 2 * levels)
        var value = try XCTUnwrap(root)
        var depth = 0
        while let elements = value.elements, elements.count == 2, elements[0].integerValue == 1 {
            depth += 1
            value = elements[1]
        }
        XCTAssertEqual(depth, levels)
        XCTAssertEqual(value.stringValue, "bottom")
    }

    private func archive(version: PlistTree?, objects: [PlistTree], top: [(String, PlistTree)]) throws -> KeyedArchive {
        var root: [(String, PlistTree)] = [("$archiver", .string("NSKeyedArchiver"))]
        if let version { root.append(("$version", version)) }
        root += [("$top", .dictionary(PlistDictionary(top))), ("$objects", .array(objects))]
        return try KeyedArchiveDecoder().decode(tree: .dictionary(PlistDictionary(root)))
    }

    /// Foundation reads only `$version` 100000 ("Unknown archive version"); so does this.
    func testOnlyNSKeyedArchiversVersionIsRead() throws {
        XCTAssertNoThrow(try archive(version: .integer(100_000), objects: [.string("$null")], top: []))
        for (version, shown) in [(PlistTree.integer(18), "18"), (.integer(10_000), "10000"), (.string("100000"), "a string"), (nil, "missing")] {
            assertArchiveError(try archive(version: version, objects: [.string("$null")], top: []), kind: .malformed,
                contains: "unsupported keyed archive: $version is \(shown), not 100000")
        }
    }

    /// NSOrderedSet as Foundation writes it: one field per element, in any order, none when empty.
    func testIndexedCollectionFieldsAreElements() throws {
        let orderedSetClass = PlistTree.dictionary(PlistDictionary([
            ("$classname", .string("NSOrderedSet")), ("$classes", .array([.string("NSOrderedSet"), .string("NSObject")])),
        ]))
        let decoded = try archive(version: .integer(100_000), objects: [
            .string("$null"),
            .dictionary(PlistDictionary([("NS.object.1", .uid(3)), ("$class", .uid(2)), ("NS.object.0", .uid(4))])),
            orderedSetClass, .string("second"), .string("first"),
            .dictionary(PlistDictionary([("$class", .uid(2))])),
            .dictionary(PlistDictionary([("$class", .uid(2)), ("NS.object.0", .uid(3)), ("NS.object.2", .uid(4))])),
        ], top: [("set", .uid(1)), ("empty", .uid(5)), ("gap", .uid(6))])
        XCTAssertEqual(decoded.top["set"], .orderedSet([.string("first"), .string("second")]))
        XCTAssertEqual(decoded.top["empty"], .orderedSet([]))
        // Not Foundation's form (index 1 is missing): kept as the object it is.
        guard case .object(let gap)? = decoded.top["gap"]?.content else { return XCTFail("a generic object") }
        XCTAssertEqual(gap.fields.keys, ["NS.object.0", "NS.object.2"])
    }

    func testClassHintsAreKept() throws {
        let decoded = try archive(version: .integer(100_000), objects: [
            .string("$null"),
            .dictionary(PlistDictionary([("$class", .uid(2)), ("value", .integer(1))])),
            .dictionary(PlistDictionary([
                ("$classname", .string("MyView")), ("$classes", .array([.string("MyView"), .string("NSObject")])),
                ("$classhints", .array([.string("UIView")])),
            ])),
        ], top: [("root", .uid(1))])
        guard case .object(let object)? = decoded.top["root"]?.content else { return XCTFail("an object") }
        XCTAssertEqual(object.classHints, ["UIView"])
        XCTAssertEqual(object.classChain, ["MyView", "NSObject"])
        let json = JSONOutput.text([HintsDocument(value: .object(object))], asArray: false)
        XCTAssertTrue(json.contains("\"$classhints\": [\n"), json)
        XCTAssertTrue(TextDumpFormatter().summary(.object(object)).hasSuffix("(class hints: UIView)"))
    }
}

private struct HintsDocument: JSONRepresentable {
    let value: ArchiveValue

    var jsonNode: JSONNode {
        .members(["value": value])
    }
}
