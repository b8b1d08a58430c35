import Foundation
import XCTest
@testable import RestorationKit

/// The one walk of a tape's values: what it meets, in which order, for each layout and descent.
final class TapeWalkerTests: XCTestCase {
    /// Writes down each node met (its role, position and a short form) and each exit.
    private struct Recorder: TapeVisitor {
        let view: TapeView
        var events: [String] = []
        /// Descents by the kind of the node met; containers not named here are walked whole.
        var descents: [TapeKind: (TapeNode, inout TapeWalker) -> TapeDescent] = [:]
        var stopAfter = Int.max

        var isFinished: Bool { events.count >= stopAfter }

        mutating func enter(_ node: TapeNode, at place: TapePlace, walker: inout TapeWalker) -> TapeDescent {
            events.append("\(place.role)\(place.role == .start ? "" : " \(place.position)") \(short(node)) mark \(place.mark)")
            if let descent = descents[node.kind] { return descent(node, &walker) }
            switch node.kind.layout {
            case .scalar, .bytes: return .none
            default: return .all(mark: events.count)
            }
        }

        mutating func exit(_ node: TapeNode, at place: TapePlace, mark: Int) {
            events.append("exit \(short(node)) mark \(mark)")
        }

        private func short(_ node: TapeNode) -> String {
            switch node.kind {
            case .string: "\"\(view.string(of: node))\""
            case .integer: "\(view.scalar(node)!)"
            default: "\(node.kind)"
            }
        }
    }

    private func events(_ value: ArchiveValue, _ configure: (inout Recorder) -> Void = { _ in }) -> [String] {
        value.tape.withView { view in
            var recorder = Recorder(view: view)
            configure(&recorder)
            var walker = TapeWalker()
            walker.walk(value.node, in: view, &recorder)
            XCTAssertTrue(walker.order.isEmpty, "the walk leaves no order behind")
            return recorder.events
        }
    }

    private let nested = ArchiveValue.array([
        .integer(1),
        .dictionary(ArchiveDictionary(entries: [
            .init(key: .string("a"), value: .integer(2)),
            .init(key: .integer(7), value: .array([])),
        ])),
        .url(ArchiveURL(base: .url(ArchiveURL(base: .null, relative: "b/")), relative: "c")),
    ])

    /// A list whose elements hold nothing is given as its elements, for a reader that writes it
    /// without a walk; anything else is walked.
    func testLeafElementsAreThoseOfAFlatList() {
        func leaves(_ value: ArchiveValue) -> [TapeKind]? {
            value.tape.withView { view in TapeWalker.leafElements(of: value.node, in: view).map { $0.map(\.kind) } }
        }
        XCTAssertEqual(leaves(.array([.integer(1), .string("two"), .uuid([UInt8](repeating: 7, count: 16)), .null])), [.integer, .string, .uuid, .null])
        XCTAssertEqual(leaves(.set([.string("a")])), [.string])
        XCTAssertEqual(leaves(.array([])), [])
        XCTAssertNil(leaves(nested), "an array holding a dictionary and a URL")
        XCTAssertNil(leaves(.array([.array([])])))
        XCTAssertNil(leaves(.dictionary(ArchiveDictionary(entries: [.init(key: .string("a"), value: .integer(2))]))))
        XCTAssertNil(leaves(.integer(1)))
    }

    func testMeetsEveryMemberInOrderAndExitsEachContainer() {
        XCTAssertEqual(events(nested), [
            "start array mark 0",
            "element 0 integer(1) mark 1",
            "element 1 dictionary mark 1",
            "key 0 \"a\" mark 3",
            "value 0 integer(2) mark 3",
            "key 1 integer(7) mark 3",
            "value 1 array mark 3",
            "exit array mark 7",
            "exit dictionary mark 3",
            "element 2 url mark 1",
            "relative 0 \"c\" mark 10",
            "base 1 url mark 10",
            "relative 0 \"b/\" mark 12",
            "base 1 null mark 12",
            "exit url mark 12",
            "exit url mark 10",
            "exit array mark 1",
        ])
    }

    func testValuesOnlyOrderAndLimit() {
        let object = ArchiveValue.object(ArchiveObject(className: "C", classChain: ["C"], fields: ArchiveFields([
            ("x", .integer(1)), ("y", .integer(2)), ("z", .integer(3)),
        ])))
        XCTAssertEqual(events(object) { $0.descents[.object] = { _, _ in .values(mark: 9) } }, [
            "start object mark 0", "value 0 integer(1) mark 9", "value 1 integer(2) mark 9", "value 2 integer(3) mark 9", "exit object mark 9",
        ])
        XCTAssertEqual(events(object) { $0.descents[.object] = { _, walker in .values(order: walker.appendOrder([2, 0])) } }, [
            "start object mark 0", "value 2 integer(3) mark 0", "value 0 integer(1) mark 0", "exit object mark 0",
        ])
        XCTAssertEqual(events(object) { $0.descents[.object] = { _, _ in .all(limit: 1) } }, [
            "start object mark 0", "key 0 \"x\" mark 0", "value 0 integer(1) mark 0", "exit object mark 0",
        ])
        XCTAssertEqual(events(nested) { $0.descents[.url] = { _, _ in .values() }; $0.descents[.dictionary] = { _, _ in .none } }, [
            "start array mark 0", "element 0 integer(1) mark 1", "element 1 dictionary mark 1", "element 2 url mark 1",
            "base 1 url mark 0", "base 1 null mark 0", "exit url mark 0", "exit url mark 0", "exit array mark 1",
        ])
    }

    /// A finished visitor meets nothing more, and every open container is exited, innermost first.
    func testFinishingExitsTheOpenContainers() {
        XCTAssertEqual(events(nested) { $0.stopAfter = 4 }, [
            "start array mark 0", "element 0 integer(1) mark 1", "element 1 dictionary mark 1", "key 0 \"a\" mark 3",
            "exit dictionary mark 3", "exit array mark 1",
        ])
    }

    /// A walk of some members of a container it does not meet, with an order the walk drops.
    func testWalkingMembersOfAContainer() {
        let dictionary = ArchiveValue.dictionary(ArchiveDictionary(entries: [
            .init(key: .string("a"), value: .integer(1)), .init(key: .string("b"), value: .integer(2)), .init(key: .string("c"), value: .integer(3)),
        ]))
        let events = dictionary.tape.withView { view in
            var recorder = Recorder(view: view)
            var walker = TapeWalker()
            let order = walker.appendOrder([2, 1])
            walker.walkMembers(of: dictionary.node, .all(mark: 5, order: order), in: view, &recorder)
            XCTAssertTrue(walker.order.isEmpty)
            return recorder.events
        }
        XCTAssertEqual(events, ["key 2 \"c\" mark 5", "value 2 integer(3) mark 5", "key 1 \"b\" mark 5", "value 1 integer(2) mark 5", "exit dictionary mark 5"])
    }

    /// A walk of a value nested deeper than a recursive walk could go on a small stack.
    func testDeepValuesWalkOnASmallStack() throws {
        var builder = TapeBuilder()
        var node = TapeNode(.integer, payload: 0)
        for _ in 0..<100_000 {
            let mark = builder.stack.count
            builder.stack.append(node)
            node = TapeNode(.array, count: 1, payload: UInt64(builder.popBlock(from: mark)))
        }
        let deep = ArchiveValue(node, on: ArchiveTape(builder, root: node))
        XCTAssertEqual(try onSmallStack { self.events(deep).count }, 100_001 + 100_000)
    }

    /// The view data's entries that are not views, left in a state, are listed alone: the walk
    /// of some of a dictionary's entries, in the text dump and the JSON.
    func testTheViewDataLeftInAStateListsOnlyWhatIsNoView() throws {
        let bytes = try FixtureFiles.generated("""
            g.binary(g.restoration_archive([("Root", g.view_controller_state(title="t", kViewRestorationDataKey={
                "TableView": g.keyed_archive_bytes({"frame": "{{0, 0}, {320, 480}}"}),
                7: "not a path", "Footer": "not an archive", "Header": [1, 2]}))],
                system_version="17.5", timestamp=g.NSDate(1.5), idiom=0))
            """)
        let archive = try RestorationArchive(bytes: bytes[...])
        var formatter = TextDumpFormatter()
        formatter.writesInParts = false
        let text = String(decoding: try XCTUnwrap(formatter.formatBytes(archive, file: "f", outputLimit: .max)), as: UTF8.self)
        let object = try XCTUnwrap(text.range(of: "Object: Root\n")).upperBound
        let lines = text[object...].split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(lines.drop { !$0.contains("kViewRestorationDataKey") }.prefix(8)), [
            "    kViewRestorationDataKey............Dictionary (3 entries)",
            "        (7).......\"not a path\"",
            "        Footer....\"not an archive\"",
            "        Header....Array (2 items)",
            "            [0]....1",
            "            [1]....2",
            "    View: TableView",
            "        frame....\"{{0, 0}, {320, 480}}\"",
        ])
        var json: [UInt8] = []
        try JSONOutput.write([DumpDocument(file: "f", archive: archive)], asArray: false, limit: .max) { json.append(contentsOf: $0.bytes) }
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        let state = try XCTUnwrap(((document["objects"] as? [[String: Any]])?.first?["state"]) as? [String: Any])
        let leftovers = try XCTUnwrap((state["kViewRestorationDataKey"] as? [String: Any])?["$dictionary"] as? [[Any]])
        XCTAssertEqual(leftovers.map { "\($0[0])" }, ["7", "Footer", "Header"])
    }

    /// `diff`'s compact form spells every value that holds no other as the text dump does, and
    /// a URL's base after it; containers stay on the one line.
    func testTheCompactFormSpellsValuesAsTheDumpDoes() {
        let leaves: [ArchiveValue] = [
            .null, .string("say \"hi\"\n"), .integer(-(Int128(1) << 70)), .real(-0.0), .float(0.1), .boolean(true), .boolean(false),
            .date(1.5), .date(1e300), .data(ArchiveData(bytes: ArraySlice(0..<20))), .data(ArchiveData(bytes: [0x62][...], archiveError: "truncated")),
            .uuid(Array(0..<16)), .reference("A/B"), .cycle(3), .url(ArchiveURL(base: .null, relative: "a/b")),
        ]
        for leaf in leaves {
            let summary = leaf.tape.withView { TextDumpValues(formatter: TextDumpFormatter(), view: $0).summary(.node(leaf.node)) }
            XCTAssertEqual(leaf.description, summary)
        }
        XCTAssertEqual(ArchiveValue.url(ArchiveURL(base: .url(ArchiveURL(base: .null, relative: "file:///x/")), relative: "a")).description,
            #"URL "a" relative to: URL "file:///x/""#)
        XCTAssertEqual(ArchiveValue.array([.boolean(false), .dictionary(ArchiveDictionary(entries: [.init(key: .string("k"), value: .reference("P"))]))]).description,
            "[No, {k: Object Identifier Proxy: P}]")
    }
}

