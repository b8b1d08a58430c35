/// The one traversal of a tape's values: depth first, members in order, with a stack of its own
/// (so that a value nested as deeply as a tape allows is walked on any thread), telling a
/// `TapeVisitor` what it meets. As swift-markdown's `MarkupWalker` serves its formatter and
/// dumpers, this serves the tape's readers: the text dump's lines and compact form, the JSON
/// writer, the reference scan, the copy onto another tape. How each layout holds its members
/// (see `TapeLayout`) is known here and nowhere else that walks.
///
/// Keeps its stack between walks: a reader that walks many values (every value of every saved
/// object) keeps one walker and allocates once.
struct TapeWalker {
    private var frames: [Frame] = []
    /// The member orders of the open containers that asked for one, one after another (see
    /// `TapeDescent.order`).
    private(set) var order: [Int] = []

    /// A container whose members are being walked.
    private struct Frame {
        let node: TapeNode
        /// Where the container itself was met, for its `exit`.
        let place: TapePlace
        let mark: Int
        let valuesOnly: Bool
        /// Where its order starts in `order`, if it has one.
        let orderStart: Int
        let hasOrder: Bool
        /// How many steps the walk takes inside (a key and a value are two), and the next.
        let steps: Int
        var step = 0
    }

    /// Walks `node`, met at `place`, and what it holds.
    mutating func walk<Visitor: TapeVisitor>(_ node: TapeNode, at place: TapePlace = .start, in view: TapeView, _ visitor: inout Visitor) {
        let base = frames.count
        enter(node, at: place, visitor: &visitor)
        run(above: base, in: view, &visitor)
    }

    /// Walks the members of `node` as `descent` says, without meeting `node` itself (a reader
    /// that wrote the container's own line already, or shows some of a dictionary's entries);
    /// `exit` follows as for a container the walk met.
    mutating func walkMembers<Visitor: TapeVisitor>(of node: TapeNode, _ descent: TapeDescent, in view: TapeView, _ visitor: inout Visitor) {
        let base = frames.count
        push(node, at: .start, descent)
        run(above: base, in: view, &visitor)
    }

    /// The elements of `node` when it holds a block of them (an array or set) and none holds
    /// another value: what a reader writes as one flat list without setting up a walk (a saved
    /// state's lists of strings and numbers).
    static func leafElements(of node: TapeNode, in view: TapeView) -> UnsafeBufferPointer<TapeNode>? {
        guard node.kind.layout == .elements else { return nil }
        let elements = UnsafeBufferPointer(rebasing: view.nodes[node.first..<(node.first + node.memberCount)])
        return elements.allSatisfy { $0.kind.layout == .scalar || $0.kind.layout == .bytes } ? elements : nil
    }

    /// Appends a member order for the next container to walk: `positions` are entry (or element)
    /// positions, in the order to visit them. What `TapeDescent.ordered` takes.
    mutating func appendOrder<Positions: Sequence<Int>>(_ positions: Positions) -> Range<Int> {
        let start = order.count
        order.append(contentsOf: positions)
        return start..<order.count
    }

    /// Appends an order of `count` members that `fill` writes into the room it is given
    /// (uninitialized); `dropOrder` takes it back when the visitor does not use it.
    mutating func appendOrder(count: Int, _ fill: (UnsafeMutableBufferPointer<Int>) -> Void) -> Range<Int> {
        let start = order.count
        order.append(contentsOf: repeatElement(0, count: count))
        order.withUnsafeMutableBufferPointer { fill(UnsafeMutableBufferPointer(rebasing: $0[start...])) }
        return start..<order.count
    }

    mutating func dropOrder(_ range: Range<Int>) {
        order.removeSubrange(range.lowerBound...)
    }

    private mutating func enter<Visitor: TapeVisitor>(_ node: TapeNode, at place: TapePlace, visitor: inout Visitor) {
        let descent = visitor.enter(node, at: place, walker: &self)
        guard descent.walksMembers else { return }
        push(node, at: place, descent)
    }

    private mutating func push(_ node: TapeNode, at place: TapePlace, _ descent: TapeDescent) {
        let count = descent.order?.count ?? min(node.memberCount, descent.limit)
        let steps: Int = switch node.kind.layout {
        case .scalar, .bytes: 0
        case .elements: count
        case .url: descent.valuesOnly ? 1 : 2
        case .entries, .fields, .object: descent.valuesOnly ? count : 2 * count
        }
        frames.append(Frame(
            node: node, place: place, mark: descent.mark, valuesOnly: descent.valuesOnly,
            orderStart: descent.order?.lowerBound ?? 0, hasOrder: descent.order != nil, steps: steps))
    }

    private mutating func run<Visitor: TapeVisitor>(above base: Int, in view: TapeView, _ visitor: inout Visitor) {
        while frames.count > base {
            let last = frames.count - 1
            let frame = frames[last]
            guard frame.step < frame.steps, !visitor.isFinished else {
                frames.removeLast()
                if frame.hasOrder { order.removeSubrange(frame.orderStart...) }
                visitor.exit(frame.node, at: frame.place, mark: frame.mark)
                continue
            }
            frames[last].step += 1
            let (member, place) = Self.member(frame.step, of: frame, in: view, order: order)
            enter(member, at: place, visitor: &visitor)
        }
    }

    /// The node of step `step` of a container and where it is.
    private static func member(_ step: Int, of frame: Frame, in view: TapeView, order: [Int]) -> (TapeNode, TapePlace) {
        let node = frame.node
        switch node.kind.layout {
        case .elements:
            let position = frame.hasOrder ? order[frame.orderStart + step] : step
            return (view.member(position, of: node), TapePlace(.element, position, ordinal: step, in: node, mark: frame.mark))
        case .url:
            let isBase = frame.valuesOnly || step == 1
            return (view.member(isBase ? 1 : 0, of: node), TapePlace(isBase ? .base : .relative, isBase ? 1 : 0, ordinal: step, in: node, mark: frame.mark))
        case .entries, .fields, .object:
            let entry = frame.valuesOnly ? step : step >> 1
            let position = frame.hasOrder ? order[frame.orderStart + entry] : entry
            if !frame.valuesOnly, step & 1 == 0 {
                return (view.member(position, of: node), TapePlace(.key, position, ordinal: entry, in: node, mark: frame.mark))
            }
            return (view.value(position, of: node), TapePlace(.value, position, ordinal: entry, in: node, mark: frame.mark))
        case .scalar, .bytes:
            preconditionFailure("a node without members has no frame")
        }
    }
}

/// What a `TapeWalker` tells as it walks: each node it meets, and each container whose members
/// it has walked.
protocol TapeVisitor {
    /// A node the walk meets (the start, then each member of a container `enter` descended
    /// into): returns which of its members to walk. `walker` takes a member order
    /// (`TapeWalker.appendOrder`).
    mutating func enter(_ node: TapeNode, at place: TapePlace, walker: inout TapeWalker) -> TapeDescent
    /// After the members of a container `enter` descended into (`mark` is its descent's).
    mutating func exit(_ node: TapeNode, at place: TapePlace, mark: Int)
    /// Whether to walk no more members: every container still open is exited, innermost first.
    var isFinished: Bool { get }
}

extension TapeVisitor {
    mutating func exit(_ node: TapeNode, at place: TapePlace, mark: Int) {}
    var isFinished: Bool { false }
}

/// Where a walk met a node: as its start, or as a member of a container (the container's node
/// and the mark its visitor gave it come with it).
struct TapePlace {
    enum Role: UInt8 {
        case start
        /// An array's, set's or ordered set's element `position`.
        case element
        /// The key of entry `position` (a dictionary's key, an archive's or object's field name).
        case key
        /// The value of entry `position`.
        case value
        /// A URL's relative string; its base.
        case relative, base
    }

    let role: Role
    /// Where the member is in its container (see `Role`).
    let position: Int
    /// Which of the container's members the walk is at: 0 for the first it visits (an entry's
    /// key and value share one), whatever the order.
    let ordinal: Int
    let container: TapeNode
    let mark: Int

    init(_ role: Role, _ position: Int, ordinal: Int, in container: TapeNode, mark: Int) {
        (self.role, self.position, self.ordinal, self.container, self.mark) = (role, position, ordinal, container, mark)
    }

    static let start = TapePlace(.start, 0, ordinal: 0, in: .null, mark: 0)
}

/// Which members of a container a walk visits: none, all (an entry's key, then its value; a
/// URL's string, then its base), or only the values (an entry's value, a URL's base); in the
/// tape's order or in the order `TapeWalker.appendOrder` took; at most `limit` of them. `mark` is
/// the visitor's own, given back with each member and at `exit` (an indentation, a label width,
/// a position on a stack).
struct TapeDescent {
    let walksMembers: Bool
    let valuesOnly: Bool
    let order: Range<Int>?
    let limit: Int
    let mark: Int

    static let none = TapeDescent(walksMembers: false, valuesOnly: false, order: nil, limit: 0, mark: 0)

    static func all(mark: Int = 0, limit: Int = .max, order: Range<Int>? = nil) -> TapeDescent {
        TapeDescent(walksMembers: true, valuesOnly: false, order: order, limit: limit, mark: mark)
    }

    static func values(mark: Int = 0, order: Range<Int>? = nil) -> TapeDescent {
        TapeDescent(walksMembers: true, valuesOnly: true, order: order, limit: .max, mark: mark)
    }
}
