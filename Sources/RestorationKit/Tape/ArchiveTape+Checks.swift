extension ArchiveTape {
    /// The first node that points outside the tape, or nil when every block, byte range, class
    /// and side entry a node names exists. The tests and the decode fuzz target check every tape.
    var wellFormednessProblem: String? {
        func problem(_ node: TapeNode, at index: Int?) -> String? {
            let place = index.map { "node \($0)" } ?? "the root"
            let (first, count) = (node.first, node.memberCount)
            func block(_ size: Int) -> String? {
                first + size <= nodes.count && (index == nil || first + size <= index! || first > index!)
                    ? nil : "\(place) (\(node.kind)) has a block \(first)..<\(first + size) outside the tape or over itself"
            }
            switch node.kind.layout {
            case .scalar:
                return !node.flags.contains(.wide) || Int(node.payload) < wideIntegers.count ? nil : "\(place) names a missing wide integer"
            case .bytes:
                let inRange = node.flags.contains(.inSource)
                    ? node.offset >= source.startIndex && node.offset + count <= source.endIndex
                    : node.offset + count <= text.count
                guard inRange else { return "\(place) (\(node.kind)) has bytes outside the input and text" }
                guard !node.flags.contains(.archiveError) || dataErrors[TapeBytes.Location(node)] != nil else {
                    return "\(place) has an archive error without its reason"
                }
                return node.kind == .uuid && count != 16 ? "\(place) is a UUID of \(count) bytes" : nil
            case .elements: return block(count)
            case .entries, .fields: return block(2 * count)
            case .url: return count == 2 ? block(2) : "\(place) is a URL of \(count) members"
            case .object: return node.classIndex < classes.count ? block(2 * count) : "\(place) names a missing class"
            }
        }
        if let found = problem(root, at: nil) { return found }
        for (index, node) in nodes.enumerated() {
            if let found = problem(node, at: index) { return found }
        }
        return nil
    }
}
