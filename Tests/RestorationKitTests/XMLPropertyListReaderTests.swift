import XCTest
@testable import RestorationKit

/// Our XML reader keeps what libplist 2.2.0 lost (each case below was wrong through libplist:
/// integers outside the signed 64-bit range, U+0000 in strings, dates beyond 32-bit seconds) and
/// stays linear where libplist was quadratic (entities).
final class XMLPropertyListReaderTests: XCTestCase {
    private func read(_ body: String, limits: DecodingLimits = .default) throws -> PlistTree {
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            \(body)
            </plist>

            """
        return try PlistTree.read(Array(document.utf8), limits: limits)
    }

    func testIntegersKeepTheirValueBeyondSigned64Bits() throws {
        let cases: [(String, Int128)] = [
            ("18446744073709551615", Int128(UInt64.max)),
            ("9223372036854775808", Int128(Int64.max) + 1),
            ("-9223372036854775809", Int128(Int64.min) - 1),
            ("-9223372036854775808", Int128(Int64.min)),
            ("170141183460469231731687303715884105727", Int128.max),
            ("-170141183460469231731687303715884105728", Int128.min),
            ("0x7f", 127), ("-42", -42), (" 7\n", 7), ("+5", 5), ("0", 0),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try read("<integer>\(text)</integer>"), .integer(expected), text)
        }
        for text in ["170141183460469231731687303715884105728", "12a", "", "-", "1.5"] {
            XCTAssertThrowsError(try read("<integer>\(text)</integer>"), text)
        }
    }

    func testStringsKeepEveryCharacterAfterANul() throws {
        XCTAssertEqual(try read("<string>A\u{0}BC</string>"), .string("A\u{0}BC"))
        XCTAssertEqual(try read("<string>A&#0;B&#x1F680;&lt;&amp;&gt;&quot;&apos;</string>"), .string("A\u{0}B🚀<&>\"'"))
        XCTAssertEqual(try read("<string><![CDATA[<not> &a tag;]]>!<!-- gone --></string>"), .string("<not> &a tag;!"))
        XCTAssertEqual(try read("<string/>"), .string(""))
        XCTAssertThrowsError(try read("<string>&nbsp;</string>"))
    }

    func testDatesAreExactForAnyYear() throws {
        // Expected seconds from Python: (datetime(…, tzinfo=utc) - datetime(2001, 1, 1, tzinfo=utc)).total_seconds()
        let cases: [(String, Double)] = [
            ("2001-01-01T00:00:00Z", 0),
            ("2014-07-06T16:05:18Z", 426_355_518),
            ("2080-01-01T00:00:00Z", 2_492_985_600),
            ("1900-01-01T00:00:00Z", -3_187_296_000),
            ("0001-01-01T00:00:00Z", -63_113_904_000),
            ("9999-12-31T23:59:59Z", 252_423_993_599),
            ("2014-07-06T16:05:18.25Z", 426_355_518.25),
            ("2000-12-31T23:59:59.5Z", -0.5),
            ("1970-01-01T00:00:00.123456Z", -978_307_199.876544),
            ("2024-02-29T09:41:59Z", 730_892_519),
        ]
        for (text, seconds) in cases {
            XCTAssertEqual(try read("<date>\(text)</date>"), .date(seconds), text)
        }
        for text in ["2014-07-06", "2014-13-01T00:00:00Z", "2014-07-06T16:05:18", "2014-07-06T16:05:18+01:00"] {
            XCTAssertThrowsError(try read("<date>\(text)</date>"), text)
        }
        // Days a month does not have, a 60th second, and a fraction finer than the double holds
        // are refused as month 13 is, not shown as another instant.
        for text in ["2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2024-04-31T00:00:00Z", "2014-07-06T09:41:60Z", "2014-07-06T16:05:18.123456789Z"] {
            XCTAssertThrowsError(try read("<date>\(text)</date>"), text)
        }
    }

    /// Text an error quotes is cut in its middle: a megabyte of it makes a line of at most a
    /// few hundred characters, which still says what and where.
    func testErrorsQuoteAtMostAFewHundredCharacters() throws {
        let long = String(repeating: "9", count: 1 << 20)
        XCTAssertThrowsError(try read("<date>\(long)</date>")) { error in
            let text = (error as! PropertyListError).description
            XCTAssertLessThan(text.utf8.count, 500)
            XCTAssertTrue(text.contains("<date> holds '9999"), text)
            XCTAssertTrue(text.contains(" … ") && text.hasSuffix(")") && text.contains("(at line 4, column 1)"), text)
        }
        let archiver = "<dict><key>$archiver</key><string>\(String(repeating: "é", count: 1 << 19))</string><key>$top</key><dict/><key>$objects</key><array/></dict>"
        let document = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\">\(archiver)</plist>"
        XCTAssertThrowsError(try KeyedArchiveDecoder().decode(Array(document.utf8))) { error in
            let text = (error as! ArchiveError).description
            XCTAssertLessThan(text.utf8.count, 500)
            XCTAssertTrue(text.hasPrefix("not a keyed archive: $archiver is 'éé"), text)
            XCTAssertFalse(text.contains("\u{FFFD}"), "no character is cut in two")
        }
    }

    func testOtherScalars() throws {
        XCTAssertEqual(try read("<real>0.1</real>"), .real(0.1))
        XCTAssertEqual(try read("<real>-0.0</real>"), .real(-0.0))
        XCTAssertEqual(try read("<real>-0.0</real>").realBitPattern, (-0.0 as Double).bitPattern)
        XCTAssertEqual(try read("<real>-inf</real>"), .real(-.infinity))
        XCTAssertTrue(try read("<real>nan</real>").realValue?.isNaN == true)
        XCTAssertThrowsError(try read("<real>0x1p3</real>"))
        XCTAssertEqual(try read("<true/>"), .boolean(true))
        XCTAssertEqual(try read("<false/>"), .boolean(false))
        XCTAssertEqual(try read("<data>\n\tAAEC\n\t/w==\n</data>"), .data([0, 1, 2, 0xFF]))
        XCTAssertThrowsError(try read("<data>AA*C</data>"))
        XCTAssertEqual(try read("<dict><key>CF$UID</key><integer>7</integer></dict>"), .uid(7))
        XCTAssertEqual(try read("<array/>"), .array([]))
    }

    func testRepeatedKeysAreKept() throws {
        let value = try read("<dict><key>a</key><integer>1</integer><key>a</key><integer>2</integer></dict>")
        XCTAssertEqual(value.dictionaryValue?.keys, ["a", "a"])
        XCTAssertEqual(value.dictionaryValue?.values, [.integer(1), .integer(2)])
    }

    func testErrorsSayWhereAndWhat() throws {
        let cases: [(String, String)] = [
            ("<dict><integer>1</integer></dict>", "a dictionary holds <integer> where a <key> belongs"),
            ("<array><string>x</array>", "</array> closes <string>"),
            ("<nope/>", "unknown element <nope>"),
            ("<string>x", "</plist> closes <string>"),
        ]
        for (body, message) in cases {
            XCTAssertThrowsError(try read(body)) { error in
                let error = error as? PropertyListError
                XCTAssertTrue(error?.reason.contains(message) == true, "\(body): \(String(describing: error))")
                XCTAssertNotNil(error?.byteOffset, body)
            }
        }
    }

    func testDepthAndValueLimits() throws {
        let limits = DecodingLimits(maxDepth: 10, maxNodes: 100)
        XCTAssertNoThrow(try read(String(repeating: "<array>", count: 10) + String(repeating: "</array>", count: 10), limits: limits))
        XCTAssertThrowsError(try read(String(repeating: "<array>", count: 11) + String(repeating: "</array>", count: 11), limits: limits)) { error in
            XCTAssertEqual((error as? PropertyListError)?.exceedsLimit, true)
        }
        XCTAssertThrowsError(try read("<array>" + String(repeating: "<true/>", count: 100) + "</array>", limits: limits)) { error in
            XCTAssertEqual((error as? PropertyListError)?.exceedsLimit, true)
        }
    }

    /// The reader keeps a stack of its own: on a 256 KiB thread it lays out and checks arrays
    /// and dictionaries 4 000 levels deep (the recursive reader it replaced took several KiB a
    /// level in a debug build), and a UID at the bottom. The tree that shows what was read is
    /// made here, on the test's thread, by recursion.
    func testDeepNestingIsReadOnAnOrdinaryStack() throws {
        let levels = 4_000
        let body = String(repeating: "<array><dict><key>k</key>", count: levels) + "<dict><key>CF$UID</key><integer>7</integer></dict>"
            + String(repeating: "</dict></array>", count: levels)
        let document = Array(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">" + body + "</plist>").utf8)
        let limits = DecodingLimits(maxDepth: 2 * levels + 1)
        let objects = try onSmallStack {
            let table = try XMLPropertyListReader(limits: limits).table(document[...])
            try table.check(limits: limits)
            return table.objectCount
        }
        XCTAssertEqual(objects, 3 * levels + 1)
        var value = try PlistTree.read(document, limits: limits)
        var depth = 0
        while case .array(let elements) = value, case .dictionary(let dictionary) = elements.first, let inner = dictionary["k"] {
            depth += 1
            value = inner
        }
        XCTAssertEqual(depth, levels)
        XCTAssertEqual(value, .uid(7))
    }

    /// XML is read as an object table made while the document is parsed, in the layout of a
    /// binary list that does not share: for every XML fixture and fuzz seed, and for the shapes
    /// a UID takes or only seems to, the table holds what the binary list written from its tree
    /// holds, object for object ({CF$UID: n} one object, not three).
    func testTheXMLTableHoldsWhatTheBinaryOneHolds() throws {
        let seeds = FixtureFiles.root + "/Tests/Fuzz/xml-seeds/"
        var documents = try (FixtureFiles.everyInput() + FileManager.default.contentsOfDirectory(atPath: seeds).map { (name: $0, bytes: try InputFile.read(seeds + $0)) })
            .filter { PropertyListReader.looksLikeXML($0.bytes[...]) }
        XCTAssertGreaterThan(documents.count, 10)
        let bodies: [(String, PlistTree)] = [
            ("<dict><key>CF$UID</key><integer>7</integer></dict>", .uid(7)),
            ("<dict><key>CF$UID</key><integer>-1</integer></dict>", .dictionary(PlistDictionary([("CF$UID", .integer(-1))]))),
            ("<dict><key>CF$UID</key><string>7</string></dict>", .dictionary(PlistDictionary([("CF$UID", .string("7"))]))),
            ("<dict><key>CF$UID</key><integer>1</integer><key>x</key><true/></dict>", .dictionary(PlistDictionary([("CF$UID", .integer(1)), ("x", .boolean(true))]))),
            ("<array><dict><key>CF$UID</key><integer>3</integer></dict><dict/><array/><dict><key>a</key><dict><key>CF$UID</key><integer>0</integer></dict></dict></array>",
             .array([.uid(3), .dictionary(PlistDictionary([])), .array([]), .dictionary(PlistDictionary([("a", .uid(0))]))])),
            ("<dict><key>a</key><integer>1</integer><key>a</key><array><dict/></array><key>b</key><dict><key>c</key><array/></dict></dict>",
             .dictionary(PlistDictionary(keys: ["a", "a", "b"], values: [.integer(1), .array([.dictionary(PlistDictionary([]))]), .dictionary(PlistDictionary([("c", .array([]))]))]))),
            ("<string>alone</string>", .string("alone")), ("<dict/>", .dictionary(PlistDictionary([]))), ("<array/>", .array([])),
        ]
        for (body, expected) in bodies {
            XCTAssertEqual(try read(body), expected, body)
        }
        documents += bodies.map { body, _ in (name: body, bytes: Array(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">" + body + "</plist>").utf8)) }
        let reader = XMLPropertyListReader(limits: .default)
        var compared = 0
        for (name, bytes) in documents {
            guard let tree = try? PlistTree.read(bytes) else { continue }
            let binary = tree.binary()
            XCTAssertEqual(try PlistTree.read(binary), tree, name)
            let objects = try BinaryPropertyList.withTable(binary[...]) { (table) throws(PropertyListError) in table.objectCount }
            XCTAssertEqual(try reader.table(bytes[...]).objectCount, objects, name)
            compared += 1
        }
        XCTAssertGreaterThan(compared, 15)
    }

    /// libplist 2.2.0 decoded entities in quadratic time (2 MB: 9 s); 4.4 MB of them read here
    /// as a matter of course (Tests/Benchmarks and the hostile-input harness measure the time).
    func testManyEntities() throws {
        let count = 400_000
        let value = try read("<string>" + String(repeating: "&amp;&#x41;", count: count) + "</string>")
        XCTAssertEqual(value.stringValue, String(repeating: "&A", count: count))
    }
}

private extension PlistTree {
    var realValue: Double? {
        if case .real(let value) = self { return value }
        return nil
    }

    var realBitPattern: UInt64? { realValue?.bitPattern }
}
