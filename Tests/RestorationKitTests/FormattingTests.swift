import XCTest
@testable import RestorationKit

final class ReferenceDateTests: XCTestCase {
    func testKnownDates() {
        // Reference values computed with Python's datetime.
        XCTAssertEqual(ReferenceDate.iso8601(0), "2001-01-01T00:00:00Z")
        XCTAssertEqual(ReferenceDate.iso8601(426_355_518), "2014-07-06T16:05:18Z")
        XCTAssertEqual(ReferenceDate.iso8601(-978_307_200), "1970-01-01T00:00:00Z")
        XCTAssertEqual(ReferenceDate.iso8601(-26_481_600), "2000-02-29T12:00:00Z")
        XCTAssertEqual(ReferenceDate.iso8601(-63_113_904_000), "0001-01-01T00:00:00Z")
        XCTAssertEqual(ReferenceDate.iso8601(252_423_993_599), "9999-12-31T23:59:59Z")
    }

    func testFractionsAreExactAndOnlyWhenPresent() {
        XCTAssertEqual(ReferenceDate.iso8601(428_947_518.123456), "2014-08-05T16:05:18.123456Z")
        XCTAssertEqual(ReferenceDate.iso8601(0.5), "2001-01-01T00:00:00.5Z")
        XCTAssertEqual(ReferenceDate.iso8601(0.00001), "2001-01-01T00:00:00.00001Z")
        XCTAssertEqual(ReferenceDate.iso8601(-0.25), "2000-12-31T23:59:59.75Z")
        XCTAssertEqual(ReferenceDate.iso8601(-86_400.5), "2000-12-30T23:59:59.5Z")
        XCTAssertEqual(ReferenceDate.iso8601(-1e-5), "2000-12-31T23:59:59.99999Z")
    }

    /// The formatter works on bytes for speed; this compares it with a plain String
    /// formulation of the same rules over many doubles of every magnitude and sign.
    func testAgreesWithAStringFormulation() {
        var generator = SystemRandomNumberGenerator()
        var samples: [Double] = [0, -0.0, 0.1, -0.1, 1e-7, -1e-7, 59.999999, -59.999999, 3.1e11, -3.1e11, Double.leastNonzeroMagnitude]
        for _ in 0..<20_000 {
            let magnitude = Double.random(in: -8...11.5, using: &generator)
            let sign: Double = Bool.random(using: &generator) ? 1 : -1
            samples.append(sign * Foundation.pow(10, magnitude))
            samples.append(Double(Int64.random(in: -70_000_000_000...260_000_000_000, using: &generator)) / 1000)
        }
        for seconds in samples {
            XCTAssertEqual(ReferenceDate.iso8601(seconds), Self.stringFormulation(seconds), "\(seconds)")
        }
    }

    private static func stringFormulation(_ seconds: Double) -> String? {
        guard seconds.isFinite, abs(seconds) < 3.2e11 else { return nil }
        let text = abs(seconds).description
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...])!
        }
        var digits = mantissa.filter { $0 != "." }
        var point = (mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count) + exponent
        if point < 0 {
            digits = String(repeating: "0", count: -point) + digits
            point = 0
        }
        if point > digits.count { digits += String(repeating: "0", count: point - digits.count) }
        var whole = Int64(String(digits.prefix(point))) ?? 0
        var fraction = String(digits.dropFirst(point))
        while fraction.hasSuffix("0") { fraction.removeLast() }
        if seconds < 0 {
            whole = -whole
            if !fraction.isEmpty {
                whole -= 1
                // 10^n - f, by column subtraction with borrows.
                var borrow = 0
                var complemented = ""
                for character in fraction.reversed() {
                    var digit = -Int(String(character))! - borrow
                    borrow = digit < 0 ? 1 : 0
                    if digit < 0 { digit += 10 }
                    complemented = String(digit) + complemented
                }
                fraction = complemented
                while fraction.hasSuffix("0") { fraction.removeLast() }
            }
        }
        var days = whole / 86_400
        if whole % 86_400 != 0, whole < 0 { days -= 1 }
        let secondOfDay = whole - days * 86_400
        let (year, month, day) = ReferenceDate.civilDate(daysSince1970: days + 11_323)
        guard (1...9999).contains(year) else { return nil }
        func pad(_ value: Int64, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        let time = pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + time + (fraction.isEmpty ? "" : "." + fraction) + "Z"
    }

    func testUnrepresentableDates() {
        XCTAssertNil(ReferenceDate.iso8601(.nan))
        XCTAssertNil(ReferenceDate.iso8601(.infinity))
        XCTAssertNil(ReferenceDate.iso8601(1e300))
        XCTAssertNil(ReferenceDate.iso8601(-63_113_904_001))
        XCTAssertNil(ReferenceDate.iso8601(252_423_993_600))
    }
}

final class FormattingTests: XCTestCase {
    /// Plain text (printable ASCII, no quote or backslash) is found a word at a time: every byte
    /// value, at every position of runs shorter and longer than a word, against a byte's test.
    func testPlainTextIsFoundByteForByte() {
        func isPlainByte(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") }
        for length in [1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 23] {
            for position in 0..<length {
                for byte in UInt8.min...UInt8.max {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = byte
                    let plain = bytes.withUnsafeBytes(TextEscaping.isPlain)
                    XCTAssertEqual(plain, isPlainByte(byte), "\(byte) at \(position) of \(length)")
                    XCTAssertEqual(bytes.withUnsafeBytes(TextEscaping.writtenSize) == length, plain, "\(byte) at \(position) of \(length)")
                    XCTAssertEqual(bytes.withUnsafeBytes(\.isASCII), byte < 0x80, "\(byte) at \(position) of \(length)")
                }
            }
        }
        XCTAssertTrue(UnsafeRawBufferPointer(start: nil, count: 0).isEmpty && TextEscaping.isPlain(UnsafeRawBufferPointer(start: nil, count: 0)))
    }

    /// Runs of bytes are compared a word at a time, short runs in overlapping loads: a run equals
    /// another only when every byte does, whatever its length and wherever they differ.
    func testByteRunsAreEqualOnlyWhenEveryByteIs() {
        // Past 64 bytes the comparison is the C library's.
        for length in Array(0...17) + [63, 64, 65, 200] {
            let run = (0..<length).map { UInt8(truncatingIfNeeded: 0x41 + $0) }
            let copy = Array(run)
            XCTAssertTrue(run.withUnsafeBytes { run in copy.withUnsafeBytes { run.hasSameBytes(as: $0) } }, "\(length)")
            for position in 0..<length {
                var other = run
                other[position] ^= 0x01
                XCTAssertFalse(run.withUnsafeBytes { run in other.withUnsafeBytes { run.hasSameBytes(as: $0) } }, "byte \(position) of \(length)")
            }
            let longer = run + [0x41]
            XCTAssertFalse(run.withUnsafeBytes { run in longer.withUnsafeBytes { run.hasSameBytes(as: $0) } }, "\(length)")
        }
    }

    func testEscapingKeepsOutputOnOneSafeLine() {
        XCTAssertEqual(TextEscaping.escape("plain Zürich ☕"), "plain Zürich ☕")
        XCTAssertEqual(TextEscaping.escape("a\nb\tc"), "a\\nb\\tc")
        XCTAssertEqual(TextEscaping.escape("\u{1B}[31mred"), "\\u{1b}[31mred")
        XCTAssertEqual(TextEscaping.escape("x\u{202E}y\u{0}"), "x\\u{202e}y\\u{0}")
        XCTAssertEqual(TextEscaping.escape("back\\slash"), "back\\\\slash")
        // Invisible characters: two paths that differ only by one never print the same.
        for scalar in ["\u{200B}", "\u{200D}", "\u{061C}", "\u{FEFF}", "\u{00AD}", "\u{2060}", "\u{E0041}", "\u{180E}", "\u{3164}"] {
            let text = "Tab" + scalar + "Controller"
            XCTAssertNotEqual(TextEscaping.escape(text), "TabController", scalar.unicodeScalars.first!.escaped(asASCII: true))
            XCTAssertTrue(TextEscaping.escape(text).hasPrefix("Tab\\u{"), TextEscaping.escape(text))
        }
    }

    /// One long key does not pad its siblings to its length.
    func testALongLabelDoesNotWidenItsSiblings() {
        let long = String(repeating: "k", count: 100_000)
        let state = ArchiveFields((0..<100).map { ("key\($0)", ArchiveValue.integer(Int128($0))) } + [(long, .integer(1))])
        let archive = RestorationArchive(archive: KeyedArchive(top: ArchiveFields([
            (RestorationKeys.majorVersion, .integer(2)), (RestorationKeys.identifierPaths, .array([.string("Root")])),
            ("Root", .archive(KeyedArchive(top: state))),
        ])))
        let text = TextDumpFormatter().format(archive, file: "f")
        XCTAssertLessThan(text.utf8.count, 100_000 + 100 * 100, "a long label widened its siblings")
        XCTAssertTrue(text.contains("    key7" + String(repeating: ".", count: 64 - 4 + 4) + "7\n"), text.prefix(2000).description)
    }

    /// The text writer pads by characters, not bytes, labels arrays by index, and writes
    /// numbers and quotes as `String` would (the expected lines are the string-built writer's).
    func testLabelsAndSummariesAsWritten() {
        let state = ArchiveFields([
            ("e\u{301}cole", .integer(-9_223_372_036_854_775_808)),
            ("ctl\u{1B}\n", .integer(9_223_372_036_854_775_813)),
            ("👨‍👩‍👧", .string("say \"hi\" \\ \u{200B}")),
            ("list", .array((0..<11).map { ArchiveValue.integer(Int128($0)) })),
        ])
        let archive = RestorationArchive(archive: KeyedArchive(top: ArchiveFields([
            (RestorationKeys.majorVersion, .integer(2)), (RestorationKeys.identifierPaths, .array([.string("Root")])),
            ("Root", .archive(KeyedArchive(top: state))),
        ])))
        let lines = TextDumpFormatter().format(archive, file: "f").split(separator: "\n").map(String.init)
        for expected in [
            "    école..................-9223372036854775808",
            "    ctl\\u{1b}\\n............9223372036854775813",
            "    👨\\u{200d}👩\\u{200d}👧....\"say \\\"hi\\\" \\\\ \\u{200b}\"",
            "    list...................Array (11 items)",
            "        [0].....0",
            "        [10]....10",
        ] {
            XCTAssertTrue(lines.contains(expected), "missing \(expected) in \(lines)")
        }
        let formatter = TextDumpFormatter()
        XCTAssertEqual(formatter.summary(.cycle(7)), "(cycle: back to $objects[7], which contains this value)")
        XCTAssertEqual(formatter.summary(.dictionary(ArchiveDictionary(entries: [.init(key: .integer(1), value: .null)]))), "Dictionary (1 entry)")
        XCTAssertEqual(formatter.summary(.data(ArchiveData(bytes: [1, 2][...], archiveError: "bad\n"))), "2 bytes: 01 02 (not a readable keyed archive: bad\\n)")
        XCTAssertEqual(formatter.summary(.url(ArchiveURL(base: .null, relative: "a\"b"))), "URL \"a\\\"b\"")
    }

    func testBase64() {
        XCTAssertEqual(ByteFormatting.base64([UInt8]()), "")
        XCTAssertEqual(ByteFormatting.base64(Array("f".utf8)), "Zg==")
        XCTAssertEqual(ByteFormatting.base64(Array("fo".utf8)), "Zm8=")
        XCTAssertEqual(ByteFormatting.base64(Array("foobar".utf8)), "Zm9vYmFy")
        XCTAssertEqual(ByteFormatting.base64([0xDE, 0xAD, 0xBE, 0xEF]), "3q2+7w==")
    }

    func testHexPreview() {
        XCTAssertEqual(ByteFormatting.hexPreview([0x00, 0xAB], limit: 4), "00 ab")
        XCTAssertEqual(ByteFormatting.hexPreview(Array(0..<6), limit: 4), "00 01 02 03 …")
        XCTAssertEqual(ByteFormatting.hexPreview([0x7F], limit: 0), " …")
        XCTAssertEqual(ByteFormatting.hexPreview([UInt8](), limit: 4), "")
        // Every byte value, each digit as `String(_:radix:)` writes it.
        let all = (0...255).map(UInt8.init)
        XCTAssertEqual(ByteFormatting.hexPreview(all, limit: 256),
                       all.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " "))
        // The text dump writes the same text straight into its output.
        for limit in [0, 1, 16, 300] {
            var out = TextOutput(capacity: 16)
            out.appendHexPreview(all[3...], limit: limit)
            XCTAssertEqual(out.string, ByteFormatting.hexPreview(all[3...], limit: limit), "limit \(limit)")
        }
    }

    func testDemangling() {
        XCTAssertEqual(SwiftDemangler.demangle("_TtC20StateRestorationDemo18CityViewController"), "StateRestorationDemo.CityViewController")
        XCTAssertEqual(SwiftDemangler.demangle("_TtCC3App5Outer5Inner"), "App.Outer.Inner")
        XCTAssertEqual(SwiftDemangler.demangle("_TtCV3App5Outer5Inner"), "App.Outer.Inner")
        XCTAssertEqual(SwiftDemangler.demangle("$s20StateRestorationDemo18CityViewControllerC"), "StateRestorationDemo.CityViewController")
        XCTAssertNil(SwiftDemangler.demangle("UINavigationController"))
        XCTAssertNil(SwiftDemangler.demangle("_TtC20Short"))
        XCTAssertNil(SwiftDemangler.demangle("_TtC3App5Outer5Extra"))
        XCTAssertNil(SwiftDemangler.demangle("_TtC" + String(repeating: "9", count: 2000)))
        XCTAssertEqual(SwiftDemangler.demangle("$ss5Int64V"), "Swift.Int64")
    }

    /// A cycle reads the same in `diff` as in `dump`.
    func testACycleReadsTheSameInDiffAndDump() {
        XCTAssertEqual(DiffTextFormatter.compact(.array([.cycle(3)]), limit: 160), "[(cycle: back to $objects[3], which contains this value)]")
        XCTAssertEqual(TextDumpFormatter.cycleText(3), "(cycle: back to $objects[3], which contains this value)")
    }

    /// The tool reads plain nominal names itself; the Swift runtime's demangler, which it no
    /// longer calls, is the oracle: both give the same name for every such form.
    func testDemanglingAgreesWithTheSwiftRuntime() {
        let names = [
            "$s20StateRestorationDemo18CityViewControllerC", "$ss5Int64V", "$s3App5OuterC5InnerC",
            "$s3App5OuterV5InnerO", "_$s4Demo4CityC", "$S4Demo4CityC", "_$S4Demo4CityC", "$s1A1BC1CC1DC",
            "$s5Demo_5City_C", "$s4Demo5OuterC6Inner_V", "$s2A01BC",
        ]
        for name in names {
            let runtime: String? = name.withCString { pointer in
                guard let result = runtimeDemangle(pointer, strlen(pointer), nil, nil, 0) else { return nil }
                defer { free(result) }
                return String(cString: result)
            }
            XCTAssertNotNil(SwiftDemangler.demangle(name), name)
            XCTAssertEqual(SwiftDemangler.demangle(name), runtime, name)
        }
    }

    /// Manglings with substitutions can expand exponentially (this 249-byte one to 1.3 GB in the
    /// runtime's demangler): only plain nominal type names are demangled.
    func testOnlyPlainNominalTypeNamesAreDemangled() {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let bomb = "$sSaySiG" + (0..<24).map { "SayA\(letters[$0])_A\(letters[$0])tG" }.joined() + "D"
        XCTAssertEqual(bomb.utf8.count, 249)
        XCTAssertFalse(SwiftDemangler.isPlainNominalType(bomb))
        XCTAssertNil(SwiftDemangler.demangle(bomb))
        for name in ["$sSaySiGD", "$s4Demo4CityCSgD", "$s4Demo4City", "$s4DemoC", "$s", "_$s4Demo4CityC7membersSaySiGvp"] {
            XCTAssertFalse(SwiftDemangler.isPlainNominalType(name), name)
        }
        XCTAssertTrue(SwiftDemangler.isPlainNominalType("$s4Demo5OuterC5InnerV"))
    }
}

final class PlainASCIITests: XCTestCase {
    /// The word-at-a-time check agrees with the byte-by-byte definition: every byte value at
    /// every position of strings 0 to 24 bytes long, and random strings.
    func testWordCheckAgreesWithBytes() {
        func naive(_ bytes: [UInt8]) -> Bool { bytes.allSatisfy { (0x20...0x7E).contains($0) && $0 != 0x5C } }
        for length in 0...24 {
            for position in 0..<max(length, 1) {
                for byte in UInt8.min...UInt8.max where length > 0 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = byte
                    let text = String(decoding: bytes, as: UTF8.self)
                    XCTAssertEqual(TextEscaping.isPlainASCII(text), naive(Array(text.utf8)), "byte \(byte) at \(position) of \(length)")
                }
            }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0x1E...0x80, using: &generator) }
            let text = String(decoding: bytes, as: UTF8.self)
            XCTAssertEqual(TextEscaping.isPlainASCII(text), naive(Array(text.utf8)))
        }
    }
}

/// The size limits count text as written (`TextEscaping.writtenSize`): its word-at-a-time path
/// must count what the byte-by-byte rule counts.
final class WrittenSizeTests: XCTestCase {
    private func bytewise(_ bytes: [UInt8]) -> Int {
        bytes.reduce(bytes.count) { size, byte in
            size + (byte < 0x20 || byte == 0x7F ? 5 : (0xC0..<0xE0).contains(byte) ? 3 : byte >= 0x80 ? 2 : byte == 0x22 || byte == 0x5C ? 1 : 0)
        }
    }

    func testWordAtATimeCountsAsByteByByte() {
        var generator = SystemRandomNumberGenerator()
        // Plain text with one special byte at every position of every length up to three words,
        // then random bytes.
        let specials: [UInt8] = [0x00, 0x1F, 0x20, 0x22, 0x5C, 0x7E, 0x7F, 0x80, 0xC3, 0xFF]
        for length in 0...24 {
            for position in 0..<max(length, 1) {
                for special in specials {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if length > 0 { bytes[position] = special }
                    XCTAssertEqual(bytes.withUnsafeBytes { TextEscaping.writtenSize($0) }, bytewise(bytes), "\(bytes)")
                }
            }
        }
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            XCTAssertEqual(bytes.withUnsafeBytes { TextEscaping.writtenSize($0) }, bytewise(bytes), "\(bytes)")
        }
    }
}

/// The Swift runtime's demangler, the oracle of `testDemanglingAgreesWithTheSwiftRuntime`.
@_silgen_name("swift_demangle")
private func runtimeDemangle(
    _ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: Int,
    _ outputBuffer: UnsafeMutablePointer<CChar>?, _ outputBufferSize: UnsafeMutablePointer<Int>?,
    _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?
