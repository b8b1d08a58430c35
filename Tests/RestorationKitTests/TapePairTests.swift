import XCTest
@testable import RestorationKit

/// `TapePair`, the one equality of values (`ArchiveValue ==`, `diff`), must be symmetric, find
/// values identical on their tapes (`ArchiveTape.isIdentical`: the same nodes in the same order) equal,
/// hash equal values alike, and ignore only the order Foundation ignores.
final class TapePairTests: XCTestCase {
    /// Compares `a`'s node `x` with `b`'s node `y` both ways; what breaks a rule above is added
    /// to `failures`. Returns whether they are equal.
    private func check(_ a: ArchiveTape, _ x: TapeNode, _ b: ArchiveTape, _ y: TapeNode, _ label: @autoclosure () -> String, into failures: inout [String]) -> Bool {
        let identical = a.isIdentical(x, to: y, in: b)
        let (equal, swapped, sameHash) = a.withView { old in
            b.withView { new in
                (TapePair(old: old, new: new).equal(x, y), TapePair(old: new, new: old).equal(y, x),
                 TapePair.hash(x, in: old) == TapePair.hash(y, in: new))
            }
        }
        if equal != swapped || (equal && !sameHash) || (identical && !equal) {
            failures.append("\(label()): identical \(identical), pair \(equal), swapped \(swapped), same hash \(sameHash)")
        }
        return equal
    }

    /// Nodes of every fixture against themselves on a second decoding of the file, and against
    /// nodes near them (mostly unequal). The amplification fixtures are left out: their shared
    /// subtrees expand to millions of nodes, which the identity check walks path by path (the
    /// comparison walks each shared block once: `testSharedContainersAreComparedOnce`).
    func testEveryFixtureNodeComparesAsItsValue() throws {
        var (equal, unequal, failures) = (0, 0, [String]())
        for (name, bytes) in try FixtureFiles.everyInput() where bytes.count < 1 << 20 && !name.contains("amplification/") {
            guard let a = try? KeyedArchiveDecoder().decodeTape(bytes[...], allowsPlain: true),
                  let b = try? KeyedArchiveDecoder().decodeTape(bytes[...], allowsPlain: true) else { continue }
            for index in stride(from: 0, to: a.nodes.count, by: max(1, a.nodes.count / 200)) {
                if !check(a, a.nodes[index], b, b.nodes[index], "\(name) node \(index)", into: &failures) { failures.append("\(name) node \(index) unequal to itself") }
                for offset in [1, 2, 3, 5, 8] where index + offset < b.nodes.count {
                    if check(a, a.nodes[index], b, b.nodes[index + offset], "\(name) node \(index) against \(index + offset)", into: &failures) { equal += 1 } else { unequal += 1 }
                }
            }
        }
        XCTAssertEqual(failures, [])
        XCTAssertGreaterThan(equal, 500)
        XCTAssertGreaterThan(unequal, 10000)
    }

    /// Values that share their containers at every level (2^18 leaves in 1.4 KB) compare in a
    /// walk of each shared block, not of every path to it: equal to themselves on a second
    /// decoding, unequal to the twin that differs in its leaf alone, each block of each tape
    /// walked at most once.
    func testSharedContainersAreComparedOnce() throws {
        let decode = { (name: String) in try KeyedArchiveDecoder().decodeTape(try FixtureFiles.bytes("amplification/\(name)")[...], allowsPlain: true) }
        let (a, again, b) = (try decode("diff-shared-a.data"), try decode("diff-shared-a.data"), try decode("diff-shared-b.data"))
        var (equal, unequal, walked) = (0, 0, 0)
        a.withView { old in
            again.withView { same in
                b.withView { other in
                    let (pairSame, pairOther) = (TapePair(old: old, new: same), TapePair(old: old, new: other))
                    for index in a.nodes.indices where a.nodes[index].kind.layout != .scalar && a.nodes[index].kind.layout != .bytes {
                        if pairSame.equal(a.nodes[index], again.nodes[index]) { equal += 1 }
                        if !pairOther.equal(a.nodes[index], b.nodes[index]) { unequal += 1 }
                    }
                    walked = pairSame.containersWalked + pairOther.containersWalked
                }
            }
        }
        let containers = a.nodes.filter { $0.kind.layout != .scalar && $0.kind.layout != .bytes }.count
        XCTAssertGreaterThan(containers, 18)
        XCTAssertEqual(equal, containers)
        // Every container holds the leaf but the saved objects' outer ones, which hold no array.
        XCTAssertGreaterThan(unequal, 18)
        // Two pairs, each walking every container of both its tapes once.
        XCTAssertLessThanOrEqual(walked, 4 * containers)
    }

    /// A binary archive and its XML twin: their strings lie in the input on one tape and in the
    /// tape's text on the other, and every `$top` value is equal and hashes alike.
    func testABinaryArchiveEqualsItsXMLTwin() throws {
        let binary = try KeyedArchiveDecoder().decodeTape(try FixtureFiles.bytes("ios8-tabbar.data")[...])
        let xml = try KeyedArchiveDecoder().decodeTape(try FixtureFiles.bytes("ios8-tabbar.xml")[...])
        XCTAssertEqual(binary.root.memberCount, xml.root.memberCount)
        var failures: [String] = []
        for position in 0..<binary.root.memberCount {
            XCTAssertTrue(check(binary, binary.topNode(at: position), xml, xml.topNode(at: position), "$top entry \(position)", into: &failures))
        }
        XCTAssertEqual(failures, [])
    }

    /// Shapes where order matters or does not: dictionaries and fields in another order are
    /// equal, a repeated key is matched once, arrays and sets in another order are not equal but
    /// hold the same members.
    func testOrderAndRepeats() {
        func tape(_ value: ArchiveValue) -> (ArchiveTape, TapeNode) {
            (value.tape, value.node)
        }
        let entries: [ArchiveDictionary.Entry] = [.init(key: .string("a"), value: .integer(1)), .init(key: .integer(2), value: .array([.null])),
                                                  .init(key: .string("a"), value: .integer(3))]
        let object = { (fields: [(String, ArchiveValue)]) in
            ArchiveValue.object(ArchiveObject(className: "App.Model", classChain: ["App.Model", "NSObject"], classHints: nil,
                                              fields: ArchiveFields(keys: fields.map(\.0), values: fields.map(\.1))))
        }
        let cases: [(ArchiveValue, ArchiveValue, equal: Bool)] = [
            (.dictionary(ArchiveDictionary(entries: entries)), .dictionary(ArchiveDictionary(entries: entries.reversed())), true),
            (.dictionary(ArchiveDictionary(entries: entries)), .dictionary(ArchiveDictionary(entries: [entries[0], entries[1], entries[0]])), false),
            (object([("x", .integer(1)), ("y", .string("b")), ("x", .integer(2))]), object([("x", .integer(2)), ("x", .integer(1)), ("y", .string("b"))]), true),
            (object([("x", .integer(1))]), object([("x", .float(1))]), false),
            // A repeated name: its values in any order, as for names in another order (an
            // equality that is transitive cannot tell these apart and call the one above equal).
            (object([("x", .integer(1)), ("x", .integer(2))]), object([("x", .integer(2)), ("x", .integer(1))]), true),
            (object([("x", .integer(1)), ("x", .integer(2))]), object([("x", .integer(1)), ("x", .integer(1))]), false),
            (.array([.integer(1), .integer(2)]), .array([.integer(2), .integer(1)]), false),
            (.set([.integer(1), .integer(2)]), .set([.integer(2), .integer(1)]), false),
            (.integer(Int128(UInt64.max)), .integer(Int128(UInt64.max)), true),
            (.real(-0.0), .real(0.0), false),
            (.real(.nan), .real(.nan), true),
            (.string("Cafe\u{301}"), .string("Caf\u{E9}"), false),
        ]
        for (index, (x, y, expected)) in cases.enumerated() {
            let ((a, first), (b, second)) = (tape(x), tape(y))
            XCTAssertEqual(x == y, expected, "case \(index): the values")
            if case .object(let first) = x.content, case .object(let second) = y.content {
                XCTAssertEqual(first == second, expected, "case \(index): the objects")
                XCTAssertEqual(first.fields == second.fields, expected, "case \(index): the fields")
            }
            var failures: [String] = []
            XCTAssertEqual(check(a, first, b, second, "case \(index)", into: &failures), expected)
            XCTAssertEqual(failures, [])
        }
        let ((a, first), (b, second)) = (tape(.set([.integer(1), .string("s"), .integer(1)])), tape(.set([.string("s"), .integer(1), .integer(1)])))
        XCTAssertTrue(a.withView { old in b.withView { new in TapePair(old: old, new: new).sameMembers(first, second) } })
        let (c, third) = tape(.set([.string("s"), .string("s"), .integer(1)]))
        XCTAssertFalse(a.withView { old in c.withView { new in TapePair(old: old, new: new).sameMembers(first, third) } })
    }
}
