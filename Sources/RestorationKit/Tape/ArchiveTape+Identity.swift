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
    func isIdentical(_ node: TapeNode, to otherNode: TapeNode, in other: ArchiveTape) -> Bool {
        guard node.kind == otherNode.kind, node.count == otherNode.count,
              node.flags.subtracting([.inSource, .plain]) == otherNode.flags.subtracting([.inSource, .plain])
        else { return false }
        switch node.kind.layout {
        case .scalar:
            guard node.flags.contains(.wide) else { return node.payload == otherNode.payload }
            return wideIntegers[Int(node.payload)] == other.wideIntegers[Int(otherNode.payload)]
        case .bytes:
            guard hasSameBytes(node, as: otherNode, in: other) else { return false }
            guard node.flags.contains(.archiveError) else { return true }
            return dataErrors[TapeBytes.Location(node)] == other.dataErrors[TapeBytes.Location(otherNode)]
        case .elements:
            return hasIdenticalChildren(node, otherNode, in: other, count: node.memberCount)
        case .entries, .fields:
            return hasIdenticalChildren(node, otherNode, in: other, count: 2 * node.memberCount)
        case .url:
            return hasIdenticalChildren(node, otherNode, in: other, count: 2)
        case .object:
            guard classes[node.classIndex].isExactly(other.classes[otherNode.classIndex]) else { return false }
            return hasIdenticalChildren(node, otherNode, in: other, count: 2 * node.memberCount)
        }
    }

    private func hasSameBytes(_ node: TapeNode, as otherNode: TapeNode, in other: ArchiveTape) -> Bool {
        withBytes(of: node) { own in
            other.withBytes(of: otherNode) { others in own.isEmpty || memcmp(own.baseAddress!, others.baseAddress!, own.count) == 0 }
        }
    }

    private func hasIdenticalChildren(_ node: TapeNode, _ otherNode: TapeNode, in other: ArchiveTape, count: Int) -> Bool {
        let (first, otherFirst) = (node.first, otherNode.first)
        for offset in 0..<count where !isIdentical(nodes[first + offset], to: other.nodes[otherFirst + offset], in: other) {
            return false
        }
        return true
    }
}
