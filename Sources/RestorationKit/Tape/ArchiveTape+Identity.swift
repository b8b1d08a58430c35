extension ArchiveTape {
    /// Whether `node` of this tape and `otherNode` of `other` hold the same values in the same
    /// order, compared on the tapes: strings, data and names byte for byte, numbers and dates by
    /// their bits. Values identical here are equal as `ArchiveValue`s; equal values may still
    /// differ here (a dictionary's entries in another order), so a reader that finds them not
    /// identical compares the values themselves. What lets `diff` skip the objects that did not
    /// change without walking them.
    ///
    /// A walk of this tape (see `TapeWalker`) that keeps the other tape's containers in step.
    func isIdentical(_ node: TapeNode, to otherNode: TapeNode, in other: ArchiveTape) -> Bool {
        withView { view in
            other.withView { otherView in
                var check = IdentityCheck(view: view, other: otherView, start: otherNode)
                var walker = TapeWalker()
                walker.walk(node, in: view, &check)
                return check.isIdentical
            }
        }
    }
}

/// Meets each node of one tape with the node at the same place of the other, and stops at the
/// first pair that differs.
private struct IdentityCheck: TapeVisitor {
    let view: TapeView
    let other: TapeView
    let start: TapeNode
    /// The other tape's containers open in step with the walk's, innermost last.
    private var open: [TapeNode] = []
    private(set) var isIdentical = true

    init(view: TapeView, other: TapeView, start: TapeNode) {
        (self.view, self.other, self.start) = (view, other, start)
    }

    var isFinished: Bool { !isIdentical }

    mutating func enter(_ node: TapeNode, at place: TapePlace, walker: inout TapeWalker) -> TapeDescent {
        let otherNode = switch place.role {
        case .start: start
        case .element, .key, .relative, .base: other.member(place.position, of: open[open.count - 1])
        case .value: other.value(place.position, of: open[open.count - 1])
        }
        guard isSame(node, otherNode) else {
            isIdentical = false
            return .none
        }
        switch node.kind.layout {
        case .scalar, .bytes:
            return .none
        case .elements, .entries, .fields, .object, .url:
            open.append(otherNode)
            return .all()
        }
    }

    mutating func exit(_ node: TapeNode, at place: TapePlace, mark: Int) {
        open.removeLast()
    }

    /// The same kind, size and flags, and the same value for a leaf or class for an object (the
    /// members are met next).
    private func isSame(_ node: TapeNode, _ otherNode: TapeNode) -> Bool {
        guard node.kind == otherNode.kind, node.count == otherNode.count,
              node.flags.subtracting([.inSource, .plain]) == otherNode.flags.subtracting([.inSource, .plain])
        else { return false }
        switch node.kind.layout {
        case .scalar:
            return node.flags.contains(.wide) ? view.wideIntegers[node.offset] == other.wideIntegers[otherNode.offset] : node.payload == otherNode.payload
        case .bytes:
            return view.bytes(of: node).hasSameBytes(as: other.bytes(of: otherNode)) && view.dataError(node) == other.dataError(otherNode)
        case .object:
            return view.classes[node.classIndex].isExactly(other.classes[otherNode.classIndex])
        case .elements, .entries, .fields, .url:
            return true
        }
    }
}
