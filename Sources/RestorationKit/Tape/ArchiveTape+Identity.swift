#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension ArchiveTape {
    /// Whether `node` of this tape and `otherNode` of `other` hold the same values in the same
    /// order, compared on the tapes: strings, data and names byte for byte, numbers and dates by
    /// their bits. Values identical here are equal as `ArchiveValue`s; equal values may still
    /// differ here (a dictionary's entries in another order), so a reader that finds them not
    /// identical compares the values themselves. What lets `diff` skip the objects that did not
    /// change without walking them.
    ///
    /// Walks the nodes with a stack of its own, so that values nested as deeply as the limits
    /// allow compare on any thread.
    func isIdentical(_ node: TapeNode, to otherNode: TapeNode, in other: ArchiveTape) -> Bool {
        var pending = [(node, otherNode)]
        while let (node, otherNode) = pending.popLast() {
            guard node.kind == otherNode.kind, node.count == otherNode.count,
                  node.flags.subtracting([.inSource, .plain]) == otherNode.flags.subtracting([.inSource, .plain])
            else { return false }
            let children: Int
            switch node.kind.layout {
            case .scalar:
                guard node.flags.contains(.wide) ? wideIntegers[Int(node.payload)] == other.wideIntegers[Int(otherNode.payload)] : node.payload == otherNode.payload else { return false }
                continue
            case .bytes:
                guard hasSameBytes(node, as: otherNode, in: other) else { return false }
                guard !node.flags.contains(.archiveError) || dataErrors[TapeBytes.Location(node)] == other.dataErrors[TapeBytes.Location(otherNode)] else { return false }
                continue
            case .object:
                guard classes[node.classIndex].isExactly(other.classes[otherNode.classIndex]) else { return false }
                children = 2 * node.memberCount
            case .elements: children = node.memberCount
            case .entries, .fields: children = 2 * node.memberCount
            case .url: children = 2
            }
            let (first, otherFirst) = (node.first, otherNode.first)
            // Last first, so that the first children are compared first.
            for offset in (0..<children).reversed() { pending.append((nodes[first + offset], other.nodes[otherFirst + offset])) }
        }
        return true
    }

    private func hasSameBytes(_ node: TapeNode, as otherNode: TapeNode, in other: ArchiveTape) -> Bool {
        withBytes(of: node) { own in
            other.withBytes(of: otherNode) { others in own.isEmpty || memcmp(own.baseAddress!, others.baseAddress!, own.count) == 0 }
        }
    }
}
