import XCTest
@testable import RestorationKit

final class RestorationArchiveTests: XCTestCase {
    func testIOS8Metadata() throws {
        let archive = try FixtureFiles.archive("ios8-tabbar.data")
        XCTAssertTrue(archive.isRestorationArchive)
        XCTAssertEqual(archive.majorVersion, 2)
        XCTAssertEqual(archive.minorVersion, 1)
        XCTAssertEqual(archive.bundleVersion, "1")
        XCTAssertEqual(archive.systemVersion, "8.0")
        XCTAssertEqual(archive.timestamp, 426_355_518)  // 2014-07-06T16:05:18Z, computed with Python
        XCTAssertEqual(archive.userInterfaceIdiom?.name, "phone")
        XCTAssertEqual(archive.notes, [])
    }

    func testIOS8ObjectsFollowTheSavedOrder() throws {
        let archive = try FixtureFiles.archive("ios8-tabbar.data")
        XCTAssertEqual(archive.identifierPaths.count, 7)
        XCTAssertEqual(archive.objects.map(\.identifierPath), archive.identifierPaths)
        XCTAssertTrue(archive.objects.allSatisfy { $0.state != nil && $0.stateProblem == nil })
        XCTAssertEqual(archive.appState.keys.sorted(), ["AppLaunchCount", "WindowIdentifierToSizeClassMapKey", "kFirstRespondersKey"])
    }

    func testClassMapReferencesAndViews() throws {
        let archive = try FixtureFiles.archive("ios8-tabbar.data")
        let cityPath = "TabController/:[1]:/NavigationController/:[1]:/_TtC20StateRestorationDemo18CityViewController"
        let city = try XCTUnwrap(archive.object(at: IdentifierPath(cityPath)))
        XCTAssertEqual(city.restorationClass, "_TtC20StateRestorationDemo18CityViewController")
        XCTAssertEqual(city.state?[RestorationKeys.presentedViewController], .reference(cityPath + "/MapViewController"))

        let tabs = try XCTUnwrap(archive.object(at: IdentifierPath("TabController")))
        XCTAssertNil(tabs.restorationClass)
        XCTAssertEqual(tabs.state?[RestorationKeys.tabBarSelectedViewController], .reference("TabController/:[1]:/NavigationController"))

        let first = try XCTUnwrap(archive.objects.first { $0.identifierPath.lastIdentifier?.hasSuffix("FirstViewController") == true })
        XCTAssertEqual(first.views.map(\.identifierPath.lastIdentifier), ["TableView"])
        XCTAssertEqual(first.views.first?.state["kScrollViewContentOffsetKey"], .string("{0, 128.5}"))
        XCTAssertNil(first.state?[RestorationKeys.viewRestorationData], "views are moved out of the state")
    }

    /// `object(at:)` finds every listed object by its path (a string literal is a path), and a
    /// copy with other objects finds only its own.
    func testObjectAtPath() throws {
        let archive = try FixtureFiles.archive("ios8-tabbar.data")
        for object in archive.objects {
            XCTAssertEqual(archive.object(at: object.identifierPath)?.identifierPath, object.identifierPath)
        }
        XCTAssertNotNil(archive.object(at: "TabController"))
        XCTAssertNil(archive.object(at: "TabController/:[9]:/Nothing"))
        let navigation: IdentifierPath = "TabController/:[1]:/NavigationController"
        let restricted = archive.restricted(to: navigation)
        XCTAssertNil(restricted.object(at: "TabController"), "the copy's index is its own")
        XCTAssertEqual(restricted.object(at: navigation)?.identifierPath, navigation)
        XCTAssertNotNil(archive.object(at: "TabController"), "the original keeps its own")
    }

    func testIOS7PlainPaths() throws {
        let archive = try FixtureFiles.archive("ios7-plain.data")
        XCTAssertNil(archive.bundleVersion)
        XCTAssertEqual(archive.systemVersion, "7.1")
        XCTAssertEqual(archive.userInterfaceIdiom?.name, "pad")
        XCTAssertEqual(archive.timestamp.flatMap(ReferenceDate.iso8601), "2013-11-02T09:30:15.25Z")
        XCTAssertEqual(archive.identifierPaths.map(\.rawValue), ["UINavigationController", "UINavigationController/BNRDetailViewController"])
        XCTAssertEqual(archive.restorationClassMap.count, 0)
    }

    func testGenericKeyedArchive() throws {
        let archive = try FixtureFiles.archive("not-restoration.data")
        XCTAssertFalse(archive.isRestorationArchive)
        XCTAssertEqual(archive.objects, [])
        XCTAssertEqual(archive.appState.keys, ["root"])
        XCTAssertEqual(archive.notes.count, 1)
    }

    func testMissingEntryAndWrongTypesAreShownNotDropped() throws {
        let top = ArchiveFields([
            (RestorationKeys.majorVersion, .string("two")),
            (RestorationKeys.identifierPaths, .array([.string("Root"), .string("Root/Child")])),
            ("Root", .data(ArchiveData(bytes: [1, 2, 3]))),
        ])
        let archive = RestorationArchive(archive: KeyedArchive(top: top))
        XCTAssertNil(archive.majorVersion)
        XCTAssertEqual(archive.appState[RestorationKeys.majorVersion], .string("two"))
        XCTAssertEqual(archive.notes, ["kUIStateRestorationArchiveMajorVersionKey is a string, not an integer: left among the other keys"])
        XCTAssertEqual(archive.objects[0].stateProblem, "its entry is 3 bytes of data that are not a keyed archive")
        XCTAssertNotNil(archive.objects[0].undecodedEntry)
        XCTAssertEqual(archive.objects[1].stateProblem, "the archive has no entry for this path")
    }

    /// Listing goes by the entries' positions, not by hashing paths: the model must still list
    /// each path once, take a path that names a metadata key, and leave every entry under a
    /// repeated key out of the app state, as it did with sets of strings.
    func testRepeatedPathsAndKeysAreListedOnce() throws {
        var top: [(String, ArchiveValue)] = [
            (RestorationKeys.majorVersion, .integer(2)),
            (RestorationKeys.identifierPaths, .array([
                .string("Root"), .string("Gone"), .string("Root"), .string(RestorationKeys.bundleVersion), .string("Gone"),
            ])),
            (RestorationKeys.bundleVersion, .string("7")),
            ("Root", .data(ArchiveData(bytes: [1]))),
            ("App", .boolean(true)),
            ("Root", .data(ArchiveData(bytes: [2]))),
        ]
        // Over 64 keys, lookups go through the index.
        for index in 0..<70 { top.append(("extra\(index)", .integer(Int128(index)))) }
        for count in [6, top.count] {
            let archive = RestorationArchive(archive: KeyedArchive(top: ArchiveFields(Array(top.prefix(count)))))
            XCTAssertEqual(archive.objects.map(\.identifierPath.rawValue), ["Root", "Gone", RestorationKeys.bundleVersion], "\(count) keys")
            XCTAssertEqual(archive.objects[0].undecodedEntry, .data(ArchiveData(bytes: [1])))
            XCTAssertEqual(archive.objects[1].stateProblem, "the archive has no entry for this path")
            XCTAssertEqual(archive.objects[2].undecodedEntry, .string("7"))
            XCTAssertEqual(archive.bundleVersion, "7")
            // The second value under "Root" is not dropped: it is among the other keys, with a note.
            XCTAssertEqual(archive.appState.keys, ["App", "Root"] + (0..<(count - 6)).map { "extra\($0)" }, "\(count) keys")
            XCTAssertEqual(archive.appState.values[1], .data(ArchiveData(bytes: [2])))
            XCTAssertEqual(archive.notes, ["$top holds Root 2 times: the first value is read, the others are shown among the other keys"])
        }
    }

    func testLongIdentifierPath() throws {
        let archive = try FixtureFiles.archive("hostile/long-path.data")
        XCTAssertEqual(archive.identifierPaths.first?.rawValue.count, 1_000_000)
        XCTAssertEqual(archive.objects.first?.identifierPath.rawComponents.count, 500_000)
    }

    /// An archive of many objects is read on all processors: the objects, their order and their
    /// views must be exactly what one thread makes, duplicates and odd entries included.
    func testManyObjectsReadConcurrentlyAsOnOneThread() throws {
        var paths: [ArchiveValue] = []
        var top: [(String, ArchiveValue)] = []
        for index in 0..<700 {
            let path = "Root/:[\(index)]:/Item\(index)"
            paths.append(.string(path))
            if index.isMultiple(of: 50) { paths.append(.string(path)) }
            let view = ArchiveValue.archive(KeyedArchive(top: ArchiveFields([("offset", .integer(Int128(index)))])))
            let views = ArchiveValue.dictionary(ArchiveDictionary(entries: [
                .init(key: .string(path + "/View"), value: view),
                .init(key: .string("not a view \(index)"), value: .boolean(true)),
            ]))
            let state = ArchiveFields([("selected", .integer(Int128(index))), (RestorationKeys.viewRestorationData, views)])
            switch index % 7 {
            case 0: top.append((path, .data(ArchiveData(bytes: [1, 2]))))
            case 1: break
            default: top.append((path, .archive(KeyedArchive(top: state))))
            }
        }
        top.append((RestorationKeys.identifierPaths, .array(paths)))
        top.append((RestorationKeys.classMap, .dictionary(ArchiveDictionary(entries: [.init(key: .string("Root/:[3]:/Item3"), value: .string("MyClass"))]))))
        let keyed = KeyedArchive(top: ArchiveFields(top))
        let sequential = RestorationArchive(tape: ArchiveTape.of(keyed), limits: .default, interpret: true, allowsConcurrency: false)
        let concurrent = RestorationArchive(tape: ArchiveTape.of(keyed), limits: .default, interpret: true, allowsConcurrency: true)
        XCTAssertEqual(sequential.objects.count, 700)
        XCTAssertEqual(sequential.objects[3].restorationClass, "MyClass")
        XCTAssertEqual(sequential.objects[2].views.map(\.identifierPath.rawValue), ["Root/:[2]:/Item2/View"])
        XCTAssertEqual(concurrent.objects, sequential.objects)
        XCTAssertEqual(concurrent, sequential)
    }

    /// Files read together come back in their order, each as reading it alone gives, a file
    /// that cannot be read as an error in its place; two archives large enough to decode their
    /// nested archives on several processors share the processors.
    func testFilesReadTogetherAsOneByOne() throws {
        let names = ["many-objects.data", "no-such-file.data", "ios8-tabbar.data", "many-objects.data", "plain.plist", "not-restoration.data"]
        let paths = names.map(FixtureFiles.path)
        let together = RestorationArchive.read(contentsOf: paths)
        XCTAssertEqual(together.count, names.count)
        for (path, result) in zip(paths, together) {
            switch (result, Result { () throws(ArchiveError) in try RestorationArchive(contentsOf: path) }) {
            case (.success(let read), .success(let alone)): XCTAssertEqual(read, alone, path)
            case (.failure(let read), .failure(let alone)): XCTAssertEqual(read.description, alone.description, path)
            default: XCTFail("\(path): \(result)")
            }
        }
        XCTAssertEqual(try together[0].get().objects.count, 80)
        XCTAssertEqual(try together[2].get().objects.count, 7)
        guard case .failure(let missing) = together[1] else { return XCTFail("a missing file is an error") }
        XCTAssertTrue(missing.description.contains("cannot open"), missing.description)
    }
}
