/// Views of two tapes, to compare values of the first (`old`) with values of the second (`new`):
/// the one equality of values (`ArchiveValue ==`, `RestorationObject ==`, `diff`), exhaustive
/// over the layouts. Exact: strings, data and class names byte for byte, numbers and dates by
/// their bits (a NaN equals itself, -0.0 differs from 0.0); a dictionary's entries, an archive's keys and an object's fields in any order
/// (as multisets, so that a repeated key still leaves every value equal to itself); arrays and
/// sets in their order.
///
/// Valid only where both views are (see `ArchiveTape.withView(_:)`), on one thread at a time.
struct TapePair {
    let old: TapeView
    let new: TapeView
    /// The containers found unequal, which matching members as multisets does not compare again:
    /// a dictionary's entry is compared in order first, and again as a candidate when that fails,
    /// so without this a value nested d levels deep that differs at its bottom would cost 2^d
    /// comparisons.
    let unequal = UnequalContainers()

    func equal(_ a: TapeValue, _ b: TapeValue) -> Bool {
        switch (a, b) {
        case (.node(let x), .node(let y)): equal(x, y)
        case (.node(let x), .entries(let y, let positions)): x.kind == .dictionary && sameEntries(x, 0..<x.memberCount, y, positions)
        case (.entries(let x, let positions), .node(let y)): y.kind == .dictionary && sameEntries(x, positions, y, 0..<y.memberCount)
        case (.entries(let x, let xPositions), .entries(let y, let yPositions)): sameEntries(x, xPositions, y, yPositions)
        }
    }

    func equal(_ a: TapeNode, _ b: TapeNode) -> Bool {
        guard a.kind == b.kind, a.count == b.count else { return false }
        switch a.kind.layout {
        case .scalar:
            guard a.flags.contains(.wide) || b.flags.contains(.wide) else { return a.payload == b.payload }
            return old.scalar(a) == new.scalar(b)
        case .bytes:
            guard old.bytes(of: a).hasSameBytes(as: new.bytes(of: b)) else { return false }
            return a.kind != .data || old.dataError(a) == new.dataError(b)
        case .elements, .url, .entries, .fields, .object:
            let same = sameContainers(a, b)
            if !same { unequal.insert(a, b) }
            return same
        }
    }

    private func sameContainers(_ a: TapeNode, _ b: TapeNode) -> Bool {
        switch a.kind.layout {
        case .entries: sameEntries(a, 0..<a.memberCount, b, 0..<b.memberCount)
        case .fields: sameFields(a, b)
        case .object: sameClass(a, b) && sameFields(a, b)
        default: (0..<a.memberCount).allSatisfy { equal(old.member($0, of: a), new.member($0, of: b)) }
        }
    }

    /// Whether `a` and `b` may be equal: not already found unequal. For matching candidates.
    private func mayBeEqual(_ a: TapeNode, _ b: TapeNode) -> Bool {
        !unequal.contains(a, b)
    }

    /// Whether two objects' classes have the same name, chain and hints.
    func sameClass(_ a: TapeNode, _ b: TapeNode) -> Bool {
        old.classes[a.classIndex].isExactly(new.classes[b.classIndex])
    }

    /// Whether the members of two element nodes are the same multiset (a set's, or the same
    /// children in another order).
    func sameMembers(_ a: TapeNode, _ b: TapeNode) -> Bool {
        guard a.memberCount == b.memberCount else { return false }
        var unmatched: [Int: [Int]] = [:]
        for position in 0..<b.memberCount { unmatched[Self.hash(new.member(position, of: b), in: new), default: []].append(position) }
        for position in 0..<a.memberCount {
            let member = old.member(position, of: a)
            let hash = Self.hash(member, in: old)
            guard let found = unmatched[hash]?.firstIndex(where: { mayBeEqual(member, new.member($0, of: b)) && equal(member, new.member($0, of: b)) }) else { return false }
            unmatched[hash]!.remove(at: found)
        }
        return true
    }

    /// Whether an archive's or object's fields are the same: with the same names in the same
    /// order, the same values in that order (as `OrderedFields` compares them); otherwise the
    /// same name/value pairs.
    private func sameFields(_ a: TapeNode, _ b: TapeNode) -> Bool {
        let count = a.memberCount
        guard (0..<count).allSatisfy({ old.bytes(of: old.member($0, of: a)).hasSameBytes(as: new.bytes(of: new.member($0, of: b))) }) else {
            return sameEntries(a, 0..<count, b, 0..<count)
        }
        return (0..<count).allSatisfy { equal(old.value($0, of: a), new.value($0, of: b)) }
    }

    /// Whether `a`'s entries at `aPositions` and `b`'s at `bPositions` (of dictionaries,
    /// archives or objects) are the same key/value pairs: in the same order, the usual case, or
    /// as multisets.
    private func sameEntries<A: Collection<Int>, B: Collection<Int>>(_ a: TapeNode, _ aPositions: A, _ b: TapeNode, _ bPositions: B) -> Bool {
        guard aPositions.count == bPositions.count else { return false }
        func same(_ x: Int, _ y: Int) -> Bool {
            equal(old.member(x, of: a), new.member(y, of: b)) && equal(old.value(x, of: a), new.value(y, of: b))
        }
        func mayBeSame(_ x: Int, _ y: Int) -> Bool {
            mayBeEqual(old.member(x, of: a), new.member(y, of: b)) && mayBeEqual(old.value(x, of: a), new.value(y, of: b)) && same(x, y)
        }
        if zip(aPositions, bPositions).allSatisfy(same) { return true }
        var unmatched: [Int: [Int]] = [:]
        for position in bPositions { unmatched[Self.entryHash(b, position, in: new), default: []].append(position) }
        for position in aPositions {
            let hash = Self.entryHash(a, position, in: old)
            guard let found = unmatched[hash]?.firstIndex(where: { mayBeSame(position, $0) }) else { return false }
            unmatched[hash]!.remove(at: found)
        }
        return true
    }

    // MARK: Hashing

    /// Equal values hash alike on any tape. Two levels deep: a container's kind, size and the
    /// shallow hashes of its members (all of them, whatever their order, for unordered ones; the
    /// first sixteen of ordered ones). Hashing costs one pass over a container's own members,
    /// never its whole subtree, which hostile sharing makes exponential; containers that differ
    /// inside still hash apart, so that a set of them is not compared pair by pair.
    static func hash(_ node: TapeNode, in view: TapeView) -> Int {
        var hasher = Hasher()
        shallowHash(node, in: view, into: &hasher)
        switch node.kind.layout {
        case .elements, .url:
            for position in 0..<min(node.memberCount, 16) { shallowHash(view.member(position, of: node), in: view, into: &hasher) }
        case .entries, .fields, .object:
            hasher.combine((0..<node.memberCount).reduce(0) { sum, position in
                var entry = Hasher()
                shallowHash(view.member(position, of: node), in: view, into: &entry)
                shallowHash(view.value(position, of: node), in: view, into: &entry)
                return sum &+ entry.finalize()
            })
        case .scalar, .bytes:
            break
        }
        return hasher.finalize()
    }

    private static func entryHash(_ node: TapeNode, _ position: Int, in view: TapeView) -> Int {
        var hasher = Hasher()
        hasher.combine(hash(view.member(position, of: node), in: view))
        hasher.combine(hash(view.value(position, of: node), in: view))
        return hasher.finalize()
    }

    /// A scalar's whole value, a string's bytes; a container's kind and size (an object's class
    /// name too), data's length.
    private static func shallowHash(_ node: TapeNode, in view: TapeView, into hasher: inout Hasher) {
        hasher.combine(node.kind.rawValue)
        hasher.combine(node.count)
        switch node.kind.layout {
        case .scalar:
            // An integer by its value, which a wide node may hold as well as a narrow one.
            if case .integer(let integer)? = view.scalar(node) { hasher.combine(integer) } else { hasher.combine(node.payload) }
        case .bytes:
            if node.kind != .data { hasher.combine(bytes: view.bytes(of: node)) }
        case .object:
            hasher.combine(view.classes[node.classIndex].name)
        case .elements, .entries, .fields, .url:
            break
        }
    }
}

/// Pairs of container nodes (of `TapePair`'s old and new tape) found unequal. A container's
/// node names its block, which every copy of a shared container shares: a pair found unequal
/// once is known unequal wherever it is met again.
final class UnequalContainers {
    private struct Pair: Hashable {
        let old: UInt64
        let new: UInt64
        let shape: UInt64
    }

    private var pairs = Set<Pair>()

    private static func pair(_ a: TapeNode, _ b: TapeNode) -> Pair {
        Pair(old: a.payload, new: b.payload, shape: UInt64(a.kind.rawValue) << 40 | UInt64(b.kind.rawValue) << 32 | UInt64(a.count))
    }

    func insert(_ a: TapeNode, _ b: TapeNode) {
        pairs.insert(Self.pair(a, b))
    }

    /// Whether `a` and `b` were found unequal; false for nodes that are no containers.
    func contains(_ a: TapeNode, _ b: TapeNode) -> Bool {
        guard !pairs.isEmpty, a.kind.layout != .scalar, a.kind.layout != .bytes else { return false }
        return pairs.contains(Self.pair(a, b))
    }
}
