import CryptoExtras
import Foundation
import XCTest
@testable import RestorationKit

/// Scene sessions and macOS window state: the fixtures Fixtures/saved_state.py builds with
/// plistlib and OpenSSL's command line, read back; hostile records built here with swift-crypto.
final class SavedStateTests: XCTestCase {
    private let scenes = "scenes/com.example.notes.savedState/"
    private let terminal = "macos/a/com.apple.Terminal.savedState/"

    func testSceneActivityKeepsEveryValueExactly() throws {
        let archive = try FixtureFiles.archive(scenes + "5E1F8C2A-3B4D-4E6F-8A9B-0C1D2E3F4A5B/data.data")
        XCTAssertEqual(archive.kind, .sceneActivity)
        guard case .sceneActivity(let activity)? = archive.content else { return XCTFail("no activity") }
        XCTAssertEqual(activity.activityType, "com.example.notes.viewing")
        XCTAssertEqual(activity.title, "Groceries")
        XCTAssertNil(activity.userInfoProblem)
        guard let info = activity.userInfo?.dictionaryValue else { return XCTFail("no userInfo: \(String(describing: activity.userInfo))") }
        XCTAssertEqual(info["noteID"], .integer(42))
        XCTAssertEqual(info["scrollOffset"], .real(128.5))
        XCTAssertEqual(info["revision"], .integer(Int128(UInt64(1) << 63) + 5), "past Int64")
        XCTAssertEqual(info["delta"], .integer(-7))
        // 2026-03-14T09:26:53.5Z, with its fraction.
        XCTAssertEqual(info["lastEdited"], .date(795_173_213.5))
        XCTAssertEqual(info["tags"], .array([.string("groceries"), .string("weekly")]))
        XCTAssertEqual(ArchiveValidator().validate(archive), [])
    }

    /// What Python's plistlib reads of each scene file's top level, we read too.
    func testSceneFilesAgreeWithPlistlib() throws {
        for session in ["5E1F8C2A-3B4D-4E6F-8A9B-0C1D2E3F4A5B", "9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D", "C0FFEE00-1234-4567-89AB-CDEF01234567"] {
            let path = FixtureFiles.path(scenes + session + "/data.data")
            let script = "import plistlib,sys,json; d=plistlib.load(open(sys.argv[1],'rb')); print(json.dumps(sorted(d)))"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", script, path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let keys = try JSONDecoder().decode([String].self, from: output.fileHandleForReading.readDataToEndOfFile())
            process.waitUntilExit()
            let archive = try RestorationArchive(contentsOf: path)
            XCTAssertEqual(archive.appState.keys.sorted(), keys, session)
        }
    }

    func testUndecodableUserInfoIsAnErrorAndTheOlderFormIsRead() throws {
        let broken = try FixtureFiles.archive(scenes + "9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D/data.data")
        XCTAssertEqual(ArchiveValidator().validate(broken).map(\.rule), [.undecodableUserInfo])
        let older = try FixtureFiles.archive(scenes + "C0FFEE00-1234-4567-89AB-CDEF01234567/data.data")
        guard case .sceneActivity(let activity)? = older.content else { return XCTFail("no activity") }
        XCTAssertEqual(activity.userInfo, .dictionary(ArchiveDictionary(entries: [.init(key: .string("folder"), value: .string("Recipes"))])))
        // Without its user-info data, an activity has nothing to report: the key is optional.
        var stripped = broken
        stripped.content = .sceneActivity(SceneActivity(root: .dictionary(ArchiveDictionary(entries: [
            .init(key: .string(SceneActivity.typeKey), value: .string("x"))])))!)
        XCTAssertEqual(ArchiveValidator().validate(stripped), [])
    }

    func testKnownSessionsAndPlainPropertyLists() throws {
        let known = try FixtureFiles.archive(scenes + "KnownSceneSessions/data.data")
        XCTAssertEqual(known.kind, .knownSceneSessions)
        XCTAssertEqual(known.content, .knownSceneSessions(["5E1F8C2A-3B4D-4E6F-8A9B-0C1D2E3F4A5B", "9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D", "C0FFEE00-1234-4567-89AB-CDEF01234567",
                                                          "D1D2D3D4-0000-4000-8000-000000000001", "E1E2E3E4-0000-4000-8000-000000000002"]))
        // Each session's archive is decoded where it lies.
        XCTAssertTrue(known.appState.values.allSatisfy { $0.archiveValue != nil })
        let userInfo = try FixtureFiles.archive(scenes + "5E1F8C2A-3B4D-4E6F-8A9B-0C1D2E3F4A5B/userInfo.data")
        XCTAssertEqual(userInfo.kind, .propertyList)
        XCTAssertEqual(userInfo.appState["windowRole"], .string("main"))
    }

    /// A scene's files and other plain lists of a dictionary are shown from the tape they were
    /// read into: its nodes are not copied onto another; a root of another kind is shown under
    /// "(root)".
    func testPlainDictionariesAreShownFromTheTapeTheyWereReadInto() throws {
        for file in ["5E1F8C2A-3B4D-4E6F-8A9B-0C1D2E3F4A5B/data.data", "5E1F8C2A-3B4D-4E6F-8A9B-0C1D2E3F4A5B/userInfo.data", "KnownSceneSessions/data.data"] {
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: FixtureFiles.path(scenes + file))))
            let tape = try KeyedArchiveDecoder(limits: .default).decodeTape(bytes[...], allowsPlain: true)
            XCTAssertTrue(tape.isPlainPropertyList, file)
            let shown = SavedStateReading.plain(tape, path: scenes + file, limits: .default)
            XCTAssertEqual(Self.storage(of: tape), Self.storage(of: shown.tape), "\(file): the shown archive's nodes are the ones read")
            XCTAssertEqual(shown.appState.count, tape.root.memberCount, file)
        }
        let array = try XCTUnwrap(PropertyListSerialization.data(fromPropertyList: ["a", 1], format: .binary, options: 0))
        let tape = try KeyedArchiveDecoder(limits: .default).decodeTape(Array(array)[...], allowsPlain: true)
        let shown = SavedStateReading.plain(tape, path: nil, limits: .default)
        XCTAssertEqual(shown.appState.keys, [SavedStateReading.rootKey])
        XCTAssertEqual(shown.appState[SavedStateReading.rootKey], .array([.string("a"), .integer(1)]))
        XCTAssertEqual(shown.tape.nodes.count, tape.nodes.count + 2, "the root's value is the node read, under one key made for it")
        XCTAssertEqual(Self.bytes(of: shown.tape.nodes.prefix(tape.nodes.count)), Self.bytes(of: tape.nodes[...]), "the nodes read, as they were")
        XCTAssertEqual(shown.tape.wellFormednessProblem, nil)
    }

    /// A window list and window records are shown from the tape they were read into too: the
    /// list's dictionaries and the records' decoded values are not copied, only the labels and
    /// the made-up header fields are added.
    func testWindowListAndRecordsAreShownFromTheTapeTheyWereReadInto() throws {
        let bytes = try FixtureFiles.bytes(terminal + "windows.plist")
        let tape = try KeyedArchiveDecoder(limits: .default).decodeTape(bytes[...], allowsPlain: true)
        let list = SavedStateReading.plain(tape, path: nil, limits: .default)
        guard case .windowList(let windows)? = list.content else { return XCTFail("no window list") }
        XCTAssertEqual(list.tape.nodes.count, tape.nodes.count + 2 * windows.entries.count, "a label per entry, and their block")
        XCTAssertEqual(Self.bytes(of: list.tape.nodes.prefix(tape.nodes.count)), Self.bytes(of: tape.nodes[...]), "the nodes read, as they were")
        XCTAssertEqual(list.appState.values, windows.entries.map(\.value))
        XCTAssertEqual(list.tape.wellFormednessProblem, nil)

        for history in [false, true] {
            let archive = try RestorationArchive.read(contentsOf: FixtureFiles.path(terminal + "data.data"), limits: .default, options: .init(includesHistory: history))
            guard case .windowRecords(let records)? = archive.content else { return XCTFail("no records") }
            let decoded = records.records.flatMap(\.values.values)
            XCTAssertEqual(decoded.count, history ? 3 : 2)
            XCTAssertTrue(decoded.allSatisfy { $0.tape === archive.tape }, "the records' values are on the tape shown")
            XCTAssertEqual(archive.tape.wellFormednessProblem, nil)
            let shownRecords = archive.appState.values.compactMap(\.fields)
            XCTAssertEqual(shownRecords.count, history ? 4 : 3)
            XCTAssertEqual(shownRecords.compactMap { $0["rchv"] }, decoded)
        }
    }

    private static func bytes(of nodes: ArraySlice<TapeNode>) -> [UInt8] {
        nodes.withUnsafeBytes { Array($0) }
    }

    private static func storage(of tape: ArchiveTape) -> UnsafeRawPointer? {
        tape.nodes.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    func testTerminalFolderDecryptsEachWindowsCurrentRecord() throws {
        let archive = try FixtureFiles.archive(terminal + "data.data")
        XCTAssertEqual(archive.kind, .macWindowRecords)
        guard case .windowRecords(let records)? = archive.content else { return XCTFail("no records") }
        XCTAssertEqual(records.records.map(\.windowID), [1, 2, 7, 1])
        XCTAssertEqual(records.records.map(\.isCurrent), [false, true, true, true])
        XCTAssertEqual(records.records[3].olderRecords, 1)
        XCTAssertEqual(records.records.map(\.status), [.readable, .readable, .noKey("windows.plist has no entry with NSWindowID 7 (keys are replaced as windows close)"), .readable])
        func titles(_ records: MacWindowRecords) -> [String?] {
            records.records.map { $0.values["rchv"]?.archiveValue?.top["NSTitle"]?.stringValue }
        }
        // An older record's values are decoded only with its history.
        XCTAssertEqual(titles(records), [nil, "Notes", nil, "zsh — 120×40"])
        let (windows, _) = SavedStateReading.windowList(besides: FixtureFiles.path(terminal + "data.data"), limits: .default)
        let history = try MacWindowRecords.read(FixtureFiles.bytes(terminal + "data.data")[...], windows: windows, keySource: "", limits: .default, includingHistory: true).records
        XCTAssertEqual(titles(history), ["zsh — 80×24", "Notes", nil, "zsh — 120×40"])
        XCTAssertEqual(history.records.map(\.status), records.records.map(\.status))
        XCTAssertEqual(records.records[3].name, "_NSWindow")
        XCTAssertEqual(records.records[3].envelopeField, 0)
        XCTAssertEqual(ArchiveValidator().validate(archive), [], "a record without a key is history, not a finding")
        // The window list beside it.
        let list = try FixtureFiles.archive(terminal + "windows.plist")
        guard case .windowList(let windows)? = list.content else { return XCTFail("no window list") }
        XCTAssertEqual(windows.entries.map(\.windowID), [1, 2, 3, 0xFFFF_FFFF])
        XCTAssertEqual(windows.entries.map(\.isMainMenuBar), [false, false, true, false])
        XCTAssertEqual(windows.entries.map(\.isGlobal), [false, false, false, true])
        let snapshot = try FixtureFiles.archive(terminal + "window_1.data")
        XCTAssertEqual(snapshot.content, .windowSnapshot(96))
    }

    /// OpenSSL's command line decrypts each record as we do: the `rchv` archive we decode is
    /// the one in its plaintext.
    func testDecryptionAgreesWithOpenSSL() throws {
        let bytes = try FixtureFiles.bytes(terminal + "data.data")
        let archive = try RestorationArchive(bytes: bytes[...])
        guard case .windowRecords(let records)? = archive.content else { return XCTFail("no records") }
        for record in records.records where record.status == .readable {
            let ciphertext = Data(bytes[(record.offset + 16)..<(record.offset + record.length)])
            let key = Self.terminalKey(record.windowID)
            let openssl = try OtherTools.run("openssl", ["enc", "-d", "-aes-128-cbc", "-nopad", "-K", key.map { String(format: "%02x", $0) }.joined(), "-iv", String(repeating: "0", count: 32), "-in"], input: ciphertext)
            XCTAssertEqual(openssl.status, 0)
            let plaintext = Array(openssl.output.utf8)
            // The envelope's name, as OpenSSL's plaintext holds it.
            XCTAssertTrue(plaintext.count > 17 && String(decoding: plaintext[8..<17], as: UTF8.self) == "_NSWindow")
        }
    }

    func testDamagedRecordsAreFindings() throws {
        let archive = try FixtureFiles.archive("validate/wrong-key.savedState/data.data")
        let findings = ArchiveValidator().validate(archive)
        XCTAssertEqual(findings.map(\.rule), [.wrongKey])
        XCTAssertEqual(findings.map(\.severity), [.error])
        let torn = ArchiveValidator().validate(try FixtureFiles.archive("validate/torn-record.savedState/data.data"))
        XCTAssertEqual(torn.map(\.rule), [.tornRecord])
        XCTAssertEqual(torn.map(\.severity), [.warning])
        guard case .windowRecords(let records)? = archive.content else { return XCTFail("no records") }
        // An unknown tag is kept.
        XCTAssertEqual(records.records[0].values.keys, ["rchv", "kyds"])
        XCTAssertEqual(records.records[0].values["kyds"], .data(ArchiveData(bytes: [1, 2, 3])))
    }

    // MARK: Hostile records

    private static func terminalKey(_ id: UInt32) -> [UInt8] {
        (0..<16).map { UInt8((Int(id % 251) * 17 + $0 * 7) % 256) }
    }

    private func header(_ id: UInt32, _ length: UInt32) -> [UInt8] {
        Array("NSCR1000".utf8) + withUnsafeBytes(of: id.bigEndian, Array.init) + withUnsafeBytes(of: length.bigEndian, Array.init)
    }

    private func list(_ keys: [UInt32: [UInt8]]) -> MacWindowList {
        MacWindowList(root: .array(keys.sorted { $0.key < $1.key }.map { id, key in
            .dictionary(ArchiveDictionary(entries: [.init(key: .string("NSWindowID"), value: .integer(Int128(id))), .init(key: .string("NSDataKey"), value: .data(ArchiveData(bytes: key[...])))]))
        }))!
    }

    private func encrypted(_ plaintext: [UInt8], key: [UInt8]) throws -> [UInt8] {
        var padded = plaintext
        padded += [UInt8](repeating: 0, count: (16 - padded.count % 16) % 16)
        return Array(try AES._CBC.encrypt(padded, using: SymmetricKey(data: key), iv: AES._CBC.IV(ivBytes: [UInt8](repeating: 0, count: 16)), noPadding: true))
    }

    private func read(_ bytes: [UInt8], keys: [UInt32: [UInt8]] = [:], limits: DecodingLimits = .default) throws -> MacWindowRecords {
        try MacWindowRecords.read(bytes[...], windows: keys.isEmpty ? nil : list(keys), keySource: "test", limits: limits).records
    }

    func testTornLengths() throws {
        for length: UInt32 in [0, 15, 16] {
            let records = try read(header(1, length) + [UInt8](repeating: 0, count: 32))
            XCTAssertEqual(records.records.count, 1)
            guard case .torn = records.records[0].status else { return XCTFail("length \(length): \(records.records[0].status)") }
        }
        let pastEnd = try read(header(1, 1 << 31) + [UInt8](repeating: 0, count: 16))
        guard case .torn = pastEnd.records[0].status else { return XCTFail("past the end") }
        let notBlocks = try read(header(1, 16 + 17) + [UInt8](repeating: 0, count: 17), keys: [1: Self.terminalKey(1)])
        guard case .torn = notBlocks.records[0].status else { return XCTFail("not whole blocks") }
        let shortTail = try read(header(1, 32) + [UInt8](repeating: 0, count: 16) + Array("NSCR".utf8))
        XCTAssertNotNil(shortTail.unreadTail)
        let badMagic = try read(Array("XXXX1000".utf8) + [UInt8](repeating: 0, count: 40))
        XCTAssertEqual(badMagic.records.count, 0)
        XCTAssertEqual(badMagic.unreadTail?.offset, 0)
    }

    /// A torn record used to end the reading: the records after it were never counted. The
    /// bytes after it are searched for the next header, and what is skipped is said.
    func testRecordsAfterATornOneAreRead() throws {
        for length: UInt32 in [0, 8, 16, 1 << 31] {
            let after = header(2, 48) + [UInt8](repeating: 0xAB, count: 32)
            let records = try read(header(1, length) + [UInt8](repeating: 0, count: 224) + after)
            XCTAssertEqual(records.records.map(\.windowID), [1, 2], "length \(length)")
            XCTAssertEqual(records.records.last?.offset, 240, "length \(length)")
            guard case .torn(let why) = records.records[0].status else { return XCTFail("length \(length)") }
            XCTAssertTrue(why.hasSuffix("(the next record starts at byte 240: 224 bytes between are not read)"), why)
            XCTAssertNil(records.unreadTail)
        }
        let alone = try read(header(1, 1 << 31) + [UInt8](repeating: 0, count: 40))
        guard case .torn(let why) = alone.records[0].status else { return XCTFail("alone") }
        XCTAssertTrue(why.hasSuffix("(the 40 bytes after its header hold no other record: not read)"), why)
    }

    /// A record's name that is not UTF-8 is kept byte for byte and shown as `\xNN`, as file
    /// names are: two names never look alike (U+FFFD stood for every such byte).
    func testARecordNameThatIsNotUTF8IsShownByItsBytes() throws {
        let archive = Array(try NSKeyedArchiver.archivedData(withRootObject: NSDictionary(dictionary: ["k": "v"]), requiringSecureCoding: false))
        func bigEndian(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).bigEndian, Array.init) }
        for (name, shown) in [([0x5F, 0x4E, 0xE9] as [UInt8], "window 1 _N\\xe9"), ([0x5F, 0x4E, 0xC3, 0xA9], "window 1 _Né")] {
            let plaintext = bigEndian(0) + bigEndian(name.count) + name + Array("rchv".utf8) + bigEndian(archive.count) + archive
            let ciphertext = try encrypted(plaintext, key: Self.terminalKey(1))
            let records = try read(header(1, UInt32(16 + ciphertext.count)) + ciphertext, keys: [1: Self.terminalKey(1)])
            XCTAssertEqual(records.records[0].status, .readable)
            XCTAssertEqual(TextEscaping.escape(records.records[0].label), shown)
        }
    }

    /// Two entries with one NSWindowID: both are kept, the last one's key is used, and a note
    /// names them.
    func testARepeatedWindowIDIsNamed() throws {
        let entries: [ArchiveValue] = [(1, Self.terminalKey(1)), (2, Self.terminalKey(2)), (1, Self.terminalKey(3))].map { id, key in
            .dictionary(ArchiveDictionary(entries: [.init(key: .string("NSWindowID"), value: .integer(Int128(id))), .init(key: .string("NSDataKey"), value: .data(ArchiveData(bytes: key[...])))]))
        }
        let windows = try XCTUnwrap(MacWindowList(root: .array(entries)))
        XCTAssertEqual(windows.entries.count, 3)
        XCTAssertEqual(windows.entry(for: 1)?.dataKey, Self.terminalKey(3))
        XCTAssertEqual(windows.entry(for: 2)?.dataKey, Self.terminalKey(2))
        XCTAssertNil(windows.entry(for: 9))
        XCTAssertTrue(windows.notes.contains("NSWindowID 1 is in 2 entries of windows.plist (entry 0 and entry 2): the records of window 1 are decrypted with the last one's NSDataKey"), "\(windows.notes)")
    }

    func testKeysOfTheWrongSizeOrTypeAndGarbage() throws {
        let garbage = header(1, 48) + [UInt8](repeating: 0xAB, count: 32)
        XCTAssertEqual(try read(garbage, keys: [1: [1, 2, 3]]).records[0].status, .noKey("its NSDataKey is 3 bytes, not 16"))
        guard case .wrongKey = try read(garbage, keys: [1: Self.terminalKey(1)]).records[0].status else { return XCTFail("garbage decrypted") }
        let stringKey = MacWindowList(root: .array([.dictionary(ArchiveDictionary(entries: [
            .init(key: .string("NSWindowID"), value: .integer(1)), .init(key: .string("NSDataKey"), value: .string("key"))]))]))!
        let records = try MacWindowRecords.read(garbage[...], windows: stringKey, keySource: "test", limits: .default).records
        XCTAssertEqual(records.records[0].status, .noKey("its windows.plist entry has no NSDataKey data"))
    }

    func testEnvelopeLengthsPastTheRecord() throws {
        let key = Self.terminalKey(1)
        func envelope(nameLength: UInt32, name: [UInt8], archiveLength: UInt32, archive: [UInt8]) -> [UInt8] {
            [0, 0, 0, 0] + withUnsafeBytes(of: nameLength.bigEndian, Array.init) + name + Array("rchv".utf8)
                + withUnsafeBytes(of: archiveLength.bigEndian, Array.init) + archive
        }
        let cases: [(String, [UInt8])] = [
            ("name past the record", envelope(nameLength: 1 << 30, name: Array("_NSWindow".utf8), archiveLength: 8, archive: Array("bplist00".utf8))),
            ("archive past the record", envelope(nameLength: 9, name: Array("_NSWindow".utf8), archiveLength: 0xFFFF_FFFF, archive: Array("bplist00".utf8))),
            ("no bplist", envelope(nameLength: 9, name: Array("_NSWindow".utf8), archiveLength: 8, archive: Array("xxxxxxxx".utf8))),
        ]
        for (label, plaintext) in cases {
            let ciphertext = try encrypted(plaintext, key: key)
            let records = try read(header(1, UInt32(16 + ciphertext.count)) + ciphertext, keys: [1: key])
            guard case .wrongKey = records.records[0].status else { return XCTFail("\(label): \(records.records[0].status)") }
        }
        // A truncated archive that announces a property list stays data, with why.
        let ciphertext = try encrypted(envelope(nameLength: 9, name: Array("_NSWindow".utf8), archiveLength: 9, archive: Array("bplist00x".utf8)), key: key)
        let records = try read(header(1, UInt32(16 + ciphertext.count)) + ciphertext, keys: [1: key])
        XCTAssertEqual(records.records[0].status, .readable)
        guard let data = records.records[0].values["rchv"]?.archiveData else { return XCTFail("no data") }
        XCTAssertNotNil(data.archiveError)
    }

    /// A million records of 32 bytes: each costs values against the limit, which stops the file
    /// before its records cost more memory than the limit allows.
    func testAMillionTinyRecordsAreBounded() throws {
        let record = header(1, 32) + [UInt8](repeating: 0, count: 16)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32 * 1_000_000)
        for _ in 0..<1_000_000 { bytes.append(contentsOf: record) }
        XCTAssertThrowsError(try read(bytes)) { error in
            XCTAssertEqual((error as? ArchiveError)?.kind, .limitExceeded)
        }
        let small = DecodingLimits(maxNodes: 80)
        XCTAssertThrowsError(try read(Array(bytes.prefix(32 * 11)), limits: small))
        XCTAssertEqual(try read(Array(bytes.prefix(32 * 10)), limits: small).records.count, 10)
    }
}
