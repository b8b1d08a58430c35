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
    /// The walk's stack, kept between comparisons so that each does not allocate its own.
    private let stack = ComparisonStack()

    func equal(_ a: TapeValue, _ b: TapeValue) -> Bool {
        switch (a, b) {
        case (.node(let x), .node(let y)): equal(x, y)
        case (.node(let x), .entries(let y, let positions)): x.kind == .dictionary && compare(Comparison(x, y, positions: (Array(0..<x.memberCount), positions)))
        case (.entries(let x, let positions), .node(let y)): y.kind == .dictionary && compare(Comparison(x, y, positions: (positions, Array(0..<y.memberCount))))
        case (.entries(let x, let xPositions), .entries(let y, let yPositions)): compare(Comparison(x, y, positions: (xPositions, yPositions)))
        }
    }

    func equal(_ a: TapeNode, _ b: TapeNode) -> Bool {
        switch quickAnswer(a, b) {
        case let answer?: answer
        case nil: compare(Comparison(a, b))
        }
    }

    /// Whether two nodes are equal, when that is known without walking them: leaves, nodes of
    /// another kind or size, containers already found unequal. Nil for containers to walk.
    private func quickAnswer(_ a: TapeNode, _ b: TapeNode) -> Bool? {
        guard a.kind == b.kind, a.count == b.count else { return false }
        switch a.kind.layout {
        case .scalar:
            guard a.flags.contains(.wide) || b.flags.contains(.wide) else { return a.payload == b.payload }
            return old.scalar(a) == new.scalar(b)
        case .bytes:
            guard old.bytes(of: a).hasSameBytes(as: new.bytes(of: b)) else { return false }
            return a.kind != .data || old.dataError(a) == new.dataError(b)
        case .elements, .url, .entries, .fields, .object:
            return unequal.contains(a, b) ? false : nil
        }
    }

    /// Walks `root` and the containers inside it with a stack of its own, depth first, so that
    /// values nested as deeply as the limits allow compare on any thread. Each comparison asks
    /// for the pairs it needs one at a time (`Comparison.next`) and is told each answer.
    private func compare(_ root: Comparison) -> Bool {
        var comparisons = stack.take()
        defer { stack.giveBack(comparisons) }
        comparisons.append(root)
        var answer: Bool?
        while let last = comparisons.indices.last {
            switch comparisons[last].next(after: answer, in: self) {
            case .compare(let x, let y):
                answer = quickAnswer(x, y)
                if answer == nil { comparisons.append(Comparison(x, y)) }
            case .done(let same):
                let finished = comparisons.removeLast()
                if !same, finished.isWhole { unequal.insert(finished.a, finished.b) }
                answer = same
            }
        }
        return answer!
    }

    /// Whether `a` and `b` may be equal: not already found unequal. For matching candidates.
    fileprivate func mayBeEqual(_ a: TapeNode, _ b: TapeNode) -> Bool {
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

    fileprivate static func entryHash(_ node: TapeNode, _ position: Int, in view: TapeView) -> Int {
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

/// One container pair being compared by `TapePair`, as a step machine: each call of `next`
/// is told the answer to the pair it asked for last, and asks for another or gives its own.
///
/// Elements and URLs compare member by member in order. Entries (a dictionary's, or fields
/// whose names differ in order) compare in order first, the usual case, and otherwise as
/// multisets (see `Matching`). Fields whose names are the same in order compare value by value,
/// an object's after its class.
private struct Comparison {
    let a: TapeNode
    let b: TapeNode
    /// The entries compared, when not all of them (a state's dictionary entries); nil for all.
    private let positions: (a: [Int], b: [Int])?
    private var phase = Phase.start
    /// The next pair in order (for entries, key and value count as two).
    private var position = 0
    private var matching: Matching?

    private enum Phase { case start, members, values, entries, matching }

    enum Request {
        case compare(TapeNode, TapeNode)
        case done(Bool)
    }

    init(_ a: TapeNode, _ b: TapeNode, positions: (a: [Int], b: [Int])? = nil) {
        (self.a, self.b, self.positions) = (a, b, positions)
    }

    /// Whether the whole of both nodes is compared (so that the answer holds for them).
    var isWhole: Bool { positions == nil }

    mutating func next(after answer: Bool?, in pair: TapePair) -> Request {
        switch phase {
        case .start:
            switch a.kind.layout {
            case .elements, .url:
                phase = .members
            case .object where !pair.sameClass(a, b):
                return .done(false)
            case .fields, .object:
                let (old, new) = (pair.old, pair.new)
                phase = (0..<a.memberCount).allSatisfy { old.bytes(of: old.member($0, of: a)).hasSameBytes(as: new.bytes(of: new.member($0, of: b))) } ? .values : .entries
            default:
                guard positions.map({ $0.a.count == $0.b.count }) ?? true else { return .done(false) }
                phase = .entries
            }
            return next(after: nil, in: pair)
        case .members, .values:
            if answer == false { return .done(false) }
            guard position < a.memberCount else { return .done(true) }
            defer { position += 1 }
            return phase == .members
                ? .compare(pair.old.member(position, of: a), pair.new.member(position, of: b))
                : .compare(pair.old.value(position, of: a), pair.new.value(position, of: b))
        case .entries:
            if answer == false {
                phase = .matching
                matching = Matching(a, b, positions ?? (Array(0..<a.memberCount), Array(0..<b.memberCount)), in: pair)
                return next(after: nil, in: pair)
            }
            guard position < 2 * (positions?.a.count ?? a.memberCount) else { return .done(true) }
            defer { position += 1 }
            let (x, y) = (positions?.a[position / 2] ?? position / 2, positions?.b[position / 2] ?? position / 2)
            return position % 2 == 0
                ? .compare(pair.old.member(x, of: a), pair.new.member(y, of: b))
                : .compare(pair.old.value(x, of: a), pair.new.value(y, of: b))
        case .matching:
            return matching!.next(after: answer, a, b, in: pair)
        }
    }
}

/// Entries matched as multisets: each entry of `a`, in order, takes the first entry of `b` not
/// yet taken, with the same hash, whose key and value are equal (candidates already found
/// unequal are passed over).
private final class Matching {
    /// `a`'s entries to match, in order.
    private let positions: [Int]
    /// `b`'s entries not yet taken, by hash.
    private var unmatched: [Int: [Int]] = [:]
    /// The entry of `a` being matched, its hash, and the candidate compared (its place in
    /// `unmatched[hash]`; nil before the first), key first, then value.
    private var index = 0
    private var hash = 0
    private var candidate: Int?
    private var comparingValue = false

    init(_ a: TapeNode, _ b: TapeNode, _ entries: (a: [Int], b: [Int]), in pair: TapePair) {
        positions = entries.a
        for position in entries.b { unmatched[TapePair.entryHash(b, position, in: pair.new), default: []].append(position) }
    }

    func next(after answer: Bool?, _ a: TapeNode, _ b: TapeNode, in pair: TapePair) -> Comparison.Request {
        if let current = candidate {
            if answer == true, !comparingValue {
                comparingValue = true
                return .compare(pair.old.value(positions[index], of: a), pair.new.value(unmatched[hash]![current], of: b))
            }
            if answer == true {
                unmatched[hash]!.remove(at: current)
                (index, candidate) = (index + 1, nil)
            } else {
                candidate = current + 1
            }
        }
        if candidate == nil {
            guard index < positions.count else { return .done(true) }
            hash = TapePair.entryHash(a, positions[index], in: pair.old)
            candidate = 0
        }
        let x = positions[index]
        let candidates = unmatched[hash] ?? []
        while let current = candidate, current < candidates.count {
            let y = candidates[current]
            if pair.mayBeEqual(pair.old.member(x, of: a), pair.new.member(y, of: b)), pair.mayBeEqual(pair.old.value(x, of: a), pair.new.value(y, of: b)) {
                comparingValue = false
                return .compare(pair.old.member(x, of: a), pair.new.member(y, of: b))
            }
            candidate = current + 1
        }
        return .done(false)
    }
}

/// The stack of a `TapePair`'s walk, its room kept between walks (a pair serves one thread).
private final class ComparisonStack {
    private var comparisons: [Comparison] = []

    func take() -> [Comparison] {
        defer { comparisons = [] }
        return comparisons
    }

    func giveBack(_ used: [Comparison]) {
        comparisons = used
        comparisons.removeAll(keepingCapacity: true)
    }
}
