import XCTest
@testable import RestorationKit

final class ArchiveValidatorTests: XCTestCase {
    /// A restoration archive built in code: `objects` maps each listed path to its state.
    private func archive(
        paths: [String], objects: [String: ArchiveFields], classMap: [(String, String)] = [],
        extraTop: [(String, ArchiveValue)] = [], major: ArchiveValue = .integer(2)
    ) -> RestorationArchive {
        var top: [(String, ArchiveValue)] = [
            (RestorationKeys.majorVersion, major),
            (RestorationKeys.minorVersion, .integer(1)),
            (RestorationKeys.bundleVersion, .string("1")),
            (RestorationKeys.systemVersion, .string("17.5")),
            (RestorationKeys.timestamp, .date(0)),
            (RestorationKeys.userInterfaceIdiom, .integer(0)),
            (RestorationKeys.identifierPaths, .array(paths.map(ArchiveValue.string))),
        ]
        if !classMap.isEmpty {
            top.append((RestorationKeys.classMap, .dictionary(ArchiveDictionary(entries: classMap.map { .init(key: .string($0.0), value: .string($0.1)) }))))
        }
        for (path, state) in objects.sorted(by: { $0.key < $1.key }) {
            top.append((path, .archive(KeyedArchive(top: state))))
        }
        return RestorationArchive(archive: KeyedArchive(top: ArchiveFields(top + extraTop)))
    }

    private func rules(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { "\($0.severity.rawValue):\($0.rule.rawValue)" }
    }

    private let controller = ArchiveFields([("kObjectIsViewControllerKey", .boolean(true))])

    func testCleanArchiveHasNoDiagnostics() {
        let clean = archive(
            paths: ["Nav", "Nav/:[0]:/List"],
            objects: ["Nav": ArchiveFields([(RestorationKeys.children, .array([.string("Nav/:[0]:/List")]))]), "Nav/:[0]:/List": controller])
        XCTAssertEqual(ArchiveValidator().validate(clean), [])
    }

    func testFirstRespondersBelowAnUndecodableObjectAreNotReported() {
        let paths = ["Nav", "Nav/:[0]:/List"]
        let responders: [ArchiveValue] = [
            .string("Nav/:[0]:/List"), .string("Nav/:[0]:/List/SearchField"), .string("Nav/:[0]:/List/Cell/Label"),
            .string("Nav/:[0]:/Lister/Field"), .string("Elsewhere"),
        ]
        let broken = archive(
            paths: paths,
            objects: ["Nav": ArchiveFields([(RestorationKeys.children, .array([.string("Nav/:[0]:/List")]))])],
            extraTop: [
                ("Nav/:[0]:/List", .data(ArchiveData(bytes: ArraySlice(Array("not an archive".utf8))))),
                ("kFirstRespondersKey", .array(responders)),
            ])
        let unknown = ArchiveValidator().validate(broken).filter { $0.rule == .firstResponderUnknownPath }.compactMap(\.identifierPath)
        // Views of an object that cannot be decoded are unknown, not missing; a path that merely
        // begins with the same characters is not below it.
        XCTAssertEqual(unknown, ["Nav/:[0]:/Lister/Field", "Elsewhere"])
    }

    /// A first responder that is a saved view, or lies just below one, is known: the views are
    /// found as each object is checked.
    func testFirstRespondersThatAreViewsOrBelowThemAreKnown() {
        let list = "Nav/:[0]:/List"
        let cell = list + "/Table/Cell"
        let views = ArchiveValue.dictionary(ArchiveDictionary(entries: [.init(key: .string(cell), value: .archive(KeyedArchive(top: .empty)))]))
        let saved = archive(
            paths: ["Nav", list],
            objects: ["Nav": ArchiveFields([(RestorationKeys.children, .array([.string(list)]))]),
                      list: ArchiveFields([(RestorationKeys.viewRestorationData, views)])],
            extraTop: [(RestorationKeys.firstResponders, .array([.string(cell), .string(cell + "/Field"), .string(list + "/Other/Field")]))])
        let unknown = ArchiveValidator().validate(saved).filter { $0.rule == .firstResponderUnknownPath }.compactMap(\.identifierPath)
        XCTAssertEqual(unknown, [IdentifierPath(list + "/Other/Field")])
    }

    func testDanglingChildTruncatesTheArray() {
        let broken = archive(
            paths: ["Nav", "Nav/:[0]:/List"],
            objects: [
                "Nav": ArchiveFields([(RestorationKeys.children, .array([.string("Nav/:[0]:/List"), .reference("Nav/:[1]:/Gone")]))]),
                "Nav/:[0]:/List": controller,
            ])
        let diagnostics = ArchiveValidator().validate(broken)
        XCTAssertEqual(rules(diagnostics), ["error:dangling-reference"])
        XCTAssertEqual(diagnostics.first?.identifierPath, "Nav")
        XCTAssertEqual(diagnostics.first?.key, RestorationKeys.children)
        XCTAssertEqual(diagnostics.first?.message,
            "can't find child view controller at index 1 with identifier Nav/:[1]:/Gone (no object was saved under it): UIKit truncates the child array at index 1")
    }

    /// Each repeat of a child's path is reported against the first child with that path,
    /// counting every child (a proxy without a path and a value that names none included).
    func testRepeatedChildrenNameTheirFirstSibling() {
        let proxy = ArchiveValue.object(ArchiveObject(className: RestorationKeys.proxyClass, classChain: [RestorationKeys.proxyClass, "NSObject"], fields: .empty))
        let (list, detail, more) = ("Nav/:[0]:/List", "Nav/:[1]:/Detail", "Nav/:[2]:/More")
        let children: [ArchiveValue] = [
            proxy, .integer(7), .string(detail), .reference(list), .string(list), .reference(detail), .string(list),
            .string(more), .reference(detail), .reference(more),
        ]
        let repeated = archive(
            paths: ["Nav", list, detail, more],
            objects: ["Nav": ArchiveFields([(RestorationKeys.children, .array(children))]), list: controller, detail: controller, more: controller])
        let messages = ArchiveValidator().validate(repeated).filter { $0.rule == .duplicateSiblingIdentifier }.map(\.message)
        XCTAssertEqual(messages.map { $0.prefix(while: { $0 != ":" }) }, [
            "children 3 and 4 are both Nav/",
            "children 2 and 5 are both Nav/",
            "children 3 and 6 are both Nav/",
            "children 2 and 8 are both Nav/",
            "children 7 and 9 are both Nav/",
        ])
    }

    /// Findings whose messages alone pass the limit are not gathered in full: nil, whether
    /// they come from many objects or from one object's many children.
    func testFindingsPastTheMessageLimitAreNotGathered() {
        let children = ArchiveFields([(RestorationKeys.children, .array((0..<50).map { .string("Nav/:[\($0)]:/Gone") }))])
        let shared = archive(paths: (0..<40).map { "Nav\($0)" }, objects: Dictionary(uniqueKeysWithValues: (0..<40).map { ("Nav\($0)", children) }))
        let single = archive(paths: ["Nav"], objects: ["Nav": children])
        for broken in [shared, single] {
            let all = ArchiveValidator().validate(broken)
            let bytes = all.reduce(0) { $0 + $1.message.utf8.count }
            XCTAssertEqual(ArchiveValidator().validate(broken, messageLimit: bytes), all)
            XCTAssertNil(ArchiveValidator().validate(broken, messageLimit: bytes - 1))
            XCTAssertNil(ArchiveValidator().validate(broken, messageLimit: 1000))
        }
    }

    func testDanglingReferenceDeepInsideAppState() {
        let nested = ArchiveValue.dictionary(ArchiveDictionary(entries: [.init(key: .string("last"), value: .array([.reference("Nowhere")]))]))
        let broken = archive(paths: ["Root"], objects: ["Root": controller], extraTop: [("AppHistory", nested)])
        let diagnostics = ArchiveValidator().validate(broken)
        XCTAssertEqual(rules(diagnostics), ["error:dangling-reference"])
        XCTAssertNil(diagnostics.first?.identifierPath)
        XCTAssertEqual(diagnostics.first?.key, "AppHistory")
    }

    func testSelectedTabMustBeAChild() {
        let tabs = ArchiveFields([
            (RestorationKeys.children, .array([.reference("Tabs/:[0]:/A")])),
            (RestorationKeys.tabBarSelectedViewController, .reference("Tabs/:[0]:/A/B")),
        ])
        let broken = archive(paths: ["Tabs", "Tabs/:[0]:/A", "Tabs/:[0]:/A/B"], objects: ["Tabs": tabs, "Tabs/:[0]:/A": controller, "Tabs/:[0]:/A/B": controller])
        XCTAssertEqual(rules(ArchiveValidator().validate(broken)), ["error:selected-tab-not-child"])
    }

    func testPathRules() {
        let broken = archive(
            paths: ["Root", "Root", "Root/:[x]:/Bad", "Lost/Child", "Root/Missing"],
            objects: ["Root": controller, "Root/:[x]:/Bad": controller, "Lost/Child": controller],
            classMap: [("Root", ""), ("Nowhere", "Cls")],
            extraTop: [("Root/Ghost", .archive(KeyedArchive(top: controller)))])
        XCTAssertEqual(Set(rules(ArchiveValidator().validate(broken))), [
            "error:duplicate-path", "error:malformed-path", "warning:orphan-path", "error:missing-object",
            "error:class-map-unknown-path", "warning:class-map-unknown-path", "warning:unlisted-object",
        ])
    }

    /// A state with `kViewRestorationDataKey` twice: the first gives the views; the second
    /// stays in the state, shown as any repeated key is (it was dropped), and only its entry
    /// that is not a view archive is reported. Read whole or from the tape alike.
    func testRepeatedViewDataKeyStaysInTheState() throws {
        let bytes = try FixtureFiles.bytes("validate/repeated-view-data.data")
        let whole = try RestorationArchive(bytes: bytes[...])
        let list = try XCTUnwrap(whole.objects.first { $0.identifierPath.lastIdentifier == "ListViewController" })
        let path = list.identifierPath.rawValue
        XCTAssertEqual(list.views.map(\.identifierPath.rawValue), [path + "/TableView"])
        let state = try XCTUnwrap(list.state)
        XCTAssertEqual(state.keys, ["kObjectIsViewControllerKey", "kViewControllerViewWasLoadedKey", "kViewRestorationDataKey"])
        guard let second = state["kViewRestorationDataKey"]?.dictionaryValue else { return XCTFail("the second view data is not shown") }
        XCTAssertEqual(second.entries.map(\.key), [.string(path + "/Header"), .string(path + "/Footer")])
        let findings = ArchiveValidator().validate(whole)
        XCTAssertEqual(rules(findings), ["error:undecodable-state"])
        XCTAssertEqual(findings.first?.identifierPath, IdentifierPath(path + "/Footer"))
    }

    /// `scan`'s tally counts what `validate` finds, the reference rules' findings without
    /// making them: a children list can hold hundreds of thousands.
    func testTallyCountsTheFindingsWithoutMakingThem() {
        let children: [ArchiveValue] = (0..<900).map { .string($0 % 3 == 0 ? "Nav/:[0]:/X" : "Gone/:[\($0)]:/X") } + [.object(ArchiveObject(className: RestorationKeys.proxyClass, classChain: [RestorationKeys.proxyClass, "NSObject"], fields: ArchiveFields([])))]
        let broken = archive(paths: ["Nav", "Nav/:[0]:/X", "Nav/:[7]:/Y"], objects: ["Nav": ArchiveFields([(RestorationKeys.children, .array(children))]), "Nav/:[0]:/X": controller])
        let findings = ArchiveValidator().validate(broken)
        let tally = ArchiveValidator().tally(broken)
        XCTAssertEqual(tally.errors, findings.filter { $0.severity == .error }.count)
        XCTAssertEqual(tally.warnings, findings.filter { $0.severity == .warning }.count)
        XCTAssertEqual(tally.rules, findings.map(\.rule).reduce(into: []) { if !$0.contains($1) { $0.append($1) } })
        var counted = FindingTally()
        counted.add(.error, .danglingReference) {
            XCTFail("a tally made a finding")
            return findings[0]
        }
        XCTAssertEqual(counted.errors, 1)
    }

    func testMalformations() {
        XCTAssertNil(PathRules.malformation(IdentifierPath("A/:[0]:/B")))
        XCTAssertEqual(PathRules.malformation(IdentifierPath("")), "it is empty")
        XCTAssertEqual(PathRules.malformation(IdentifierPath("A//B")), "it has an empty component")
        XCTAssertEqual(PathRules.malformation(IdentifierPath("A/")), "it has an empty component")
        XCTAssertEqual(PathRules.malformation(IdentifierPath("A/:[1]/B")), "':[1]' is not an index component of the form :[n]:")
        XCTAssertEqual(PathRules.malformation(IdentifierPath("A/:[0]:")), "it ends in an index component")
        XCTAssertEqual(PathRules.malformation(IdentifierPath(":[0]:/A")), "it starts with an index component")
        XCTAssertEqual(PathRules.malformation(IdentifierPath("A/:[0]:/:[1]:/B")), "two index components follow each other")
    }

    /// ASCII paths are judged from their bytes; the answer must be the components' answer.
    func testMalformationOfASCIIPathsMatchesTheComponents() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["A", "b", ":", "[", "]", "0", "7", "/", ":[", "]:", ":[1]:", ":[12]:", ":[1234567890]:", "\r\n"]
        var differences: [String] = []
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 1...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let path = IdentifierPath(text)
            if PathRules.malformation(path) != PathRules.componentMalformation(path) { differences.append(text) }
        }
        XCTAssertEqual(Array(differences.prefix(5)), [], "\(differences.count) paths differ")
        // Not ASCII: the components decide (`[` followed by a combining mark is not `[`).
        XCTAssertEqual(PathRules.malformation(IdentifierPath("A/:[\u{301}0]:")), PathRules.componentMalformation(IdentifierPath("A/:[\u{301}0]:")))
    }

    func testVersionAndMetadata() {
        let old = archive(paths: ["Root"], objects: ["Root": controller], major: .integer(3))
        XCTAssertEqual(rules(ArchiveValidator().validate(old)), ["error:unsupported-version"])
        let versioned = archive(paths: ["Root"], objects: ["Root": controller])
        XCTAssertEqual(rules(ArchiveValidator(expectedBundleVersion: "2").validate(versioned)), ["warning:bundle-version-mismatch"])
        XCTAssertEqual(ArchiveValidator(expectedBundleVersion: "1").validate(versioned), [])
    }

    func testProxyWithoutPath() {
        let empty = ArchiveValue.object(ArchiveObject(className: RestorationKeys.proxyClass, classChain: [RestorationKeys.proxyClass, "NSObject"], fields: .empty))
        let state = ArchiveFields([(RestorationKeys.presentedViewController, empty)])
        XCTAssertEqual(rules(ArchiveValidator().validate(archive(paths: ["Root"], objects: ["Root": state]))), ["error:proxy-without-path"])
    }

    /// Within one key, each dangling target and a proxy without a path are reported once, in
    /// the order the walk meets them, however deep (an object's fields, a nested archive).
    func testReferencesInOneKeyOnceEachInOrder() {
        let empty = ArchiveValue.object(ArchiveObject(className: RestorationKeys.proxyClass, classChain: [RestorationKeys.proxyClass], fields: .empty))
        let holder = ArchiveValue.object(ArchiveObject(className: "Holder", classChain: ["Holder"], fields: ArchiveFields([("inner", .reference("Gone/B"))])))
        let nested = ArchiveValue.archive(KeyedArchive(top: ArchiveFields([("x", .reference("Gone/A")), ("y", empty)])))
        let value = ArchiveValue.array([.reference("Gone/A"), empty, holder, .reference("Root"), nested, .reference("Gone/C")])
        let state = ArchiveFields([("history", value), ("other", .reference("Gone/A"))])
        let diagnostics = ArchiveValidator().validate(archive(paths: ["Root"], objects: ["Root": state]))
        XCTAssertEqual(diagnostics.map { "\($0.key ?? ""):\($0.rule.rawValue):\($0.target?.rawValue ?? "")" }, [
            "history:dangling-reference:Gone/A", "history:proxy-without-path:", "history:dangling-reference:Gone/B",
            "history:dangling-reference:Gone/C", "other:dangling-reference:Gone/A",
        ])
    }

    /// `tree` draws the dangling references: exactly `validate`'s, each object's in order and the
    /// objects in save order, then the app's, for every fixture that is a restoration archive.
    func testTreeDrawsValidatesDanglingReferences() throws {
        let names = try FileManager.default.subpathsOfDirectory(atPath: FixtureFiles.root + "/Fixtures").filter { $0.hasSuffix(".data") || $0.hasSuffix(".xml") }
        var compared = 0
        for name in names.sorted() {
            guard let archive = try? FixtureFiles.archive(name), archive.isRestorationArchive else { continue }
            let expected = ArchiveValidator().validate(archive).filter { $0.rule == .danglingReference }.map { "\($0.key ?? "") → \($0.target?.rawValue ?? "")" }
            let tree = RestorationTree(archive)
            var drawnByPath: [IdentifierPath: [(key: String, target: IdentifierPath)]] = [:]
            func visit(_ node: RestorationTree.Node) {
                drawnByPath[node.identifierPath] = node.dangling
                node.children.forEach(visit)
            }
            tree.roots.forEach(visit)
            let drawn = archive.objects.flatMap { drawnByPath[$0.identifierPath] ?? [] } + tree.appDangling
            XCTAssertEqual(drawn.map { "\($0.key) → \($0.target)" }, expected, name)
            compared += expected.count
        }
        XCTAssertGreaterThanOrEqual(compared, 2, "validate/dangling-reference.data holds two")
    }

    /// A large archive's rules run in parts on several threads; their findings come out as the
    /// rules written one after another give them: path rules, then each object's references in
    /// save order, then app-level ones.
    func testFindingsOfALargeArchiveKeepTheirOrder() {
        let count = 1200
        let paths = (0..<count).map { "Root/:[\($0)]:/Controller\($0)" }
        var objects: [String: ArchiveFields] = [:]
        for (index, path) in paths.enumerated() where index % 5 != 4 {
            var state: [(String, ArchiveValue)] = [("kObjectIsViewControllerKey", .boolean(true))]
            if index % 7 == 0 { state.append((RestorationKeys.presentedViewController, .reference("Gone\(index)"))) }
            if index % 11 == 0 { state.append((RestorationKeys.children, .array([.string("Missing\(index)"), .string("Missing\(index)")]))) }
            if index % 13 == 0 {
                state.append(("detail", .object(ArchiveObject(className: RestorationKeys.proxyClass, classChain: [RestorationKeys.proxyClass], fields: ArchiveFields([])))))
            }
            objects[path] = ArchiveFields(state)
        }
        let large = archive(paths: paths + ["Orphan/:[0]:/Child"], objects: objects, extraTop: [
            ("appLevel", .reference("Gone-app")),
            (RestorationKeys.firstResponders, .array([.string("Nowhere")])),
        ])
        let diagnostics = ArchiveValidator().validate(large)
        let context = ValidationContext(large)
        context.viewPaths = ExactTextSet(large.objects.flatMap { $0.views.map(\.identifierPath.rawValue) })
        var pathFindings: [Diagnostic] = []
        var (referenceFindings, appFindings) = (FindingList(messageLimit: .max), FindingList(messageLimit: .max))
        var scan = ReferenceScan(saved: context.saved)
        large.forEachObjectOnTape(large.objects.indices) { object, onTape, view in
            pathFindings += PathRules.check(object, onTape, in: view, context)
            ReferenceRules.check(object, onTape, in: view, context, scan: &scan, into: &referenceFindings)
        }
        ReferenceRules.checkApp(context, into: &appFindings)
        let metadata = MetadataRules.check(large, expectedBundleVersion: nil)
        let inOnePiece = metadata + pathFindings + PathRules.checkArchive(context) + referenceFindings.diagnostics + appFindings.diagnostics
        XCTAssertGreaterThan(Parallel.parts(of: large.objects.count).count, 8)
        XCTAssertGreaterThan(diagnostics.count, 500)
        // Compared as a whole: a failure would print every finding.
        XCTAssertTrue(diagnostics == inOnePiece, "the findings are not in the order the rules give them")
    }

    /// A value nested 200 000 levels deep, a dangling reference at its bottom, is walked on a
    /// thread of 256 KiB of stack: the walk keeps its own stack, so `validate` runs on the
    /// caller's thread whatever nesting the limits allow.
    func testDeepValuesAreWalkedOnAnOrdinaryStack() throws {
        var builder = TapeBuilder()
        var deep = builder.text(.reference, "Gone")
        for _ in 0..<200_000 {
            builder.nodes.append(deep)
            deep = TapeNode(.array, count: 1, payload: UInt64(builder.nodes.count - 1))
        }
        let (deepKey, rootPath) = (builder.text(.string, "deep"), builder.text(.string, "Root"))
        builder.nodes += [deepKey, deep, rootPath]
        let state = TapeNode(.archive, count: 1, payload: UInt64(builder.nodes.count - 3))
        let paths = TapeNode(.array, count: 1, payload: UInt64(builder.nodes.count - 1))
        let (pathsKey, stateKey) = (builder.text(.string, RestorationKeys.identifierPaths), builder.text(.string, "Root"))
        builder.nodes += [pathsKey, stateKey, paths, state]
        let root = TapeNode(.archive, count: 2, payload: UInt64(builder.nodes.count - 4))
        let archive = RestorationArchive(tape: ArchiveTape(builder, root: root), limits: DecodingLimits(maxDepth: 300_000), interpret: true)
        XCTAssertEqual(archive.objects.map(\.identifierPath.rawValue), ["Root"])

        let findings = try onSmallStack { ArchiveValidator().validate(archive) }
        XCTAssertEqual(findings.filter { $0.rule == .danglingReference }.map(\.target), ["Gone"], "\(findings)")
    }
}
