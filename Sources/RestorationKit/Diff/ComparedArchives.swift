extension RestorationArchive {
    /// Reads the two files `diff` compares, `paths[0]` and `paths[1]`, as `read(contentsOf:)`
    /// does, decoding only what can differ: the same changes come of them.
    ///
    /// A large archive is mostly nested archives, one per saved object, and most objects are
    /// saved alike from one save to the next. So each file's outer level is decoded first, its
    /// nested archives left as data; then each is decoded again, leaving as data the nested
    /// archives whose bytes are only where the other file holds the same (see
    /// `KeptNestedArchives.unchanged`). When that is all of them, the outer levels are the
    /// result. Decoding an archive depends on its bytes and depth alone, so the archives left
    /// as data would decode to identical values, in which `diff` finds no change; the limits
    /// bound what is decoded. Files that are not keyed archives (macOS window records, plain
    /// property lists) are read whole. See docs/design/diff.md.
    package static func readForComparison(contentsOf paths: [String], limits: DecodingLimits) -> [Result<RestorationArchive, ArchiveError>] {
        let inputs = concurrently(paths.count) { index in
            Result { () throws(ArchiveError) in try InputFile.read(paths[index], limit: limits.maxInputBytes, run: limits.run)[...] }
        }
        return readForComparison(inputs, paths: paths.map { $0 == "-" ? nil : $0 }, limits: limits)
    }

    /// As `readForComparison(contentsOf:limits:)`, of files already read (`paths` nil for
    /// standard input).
    static func readForComparison(
        _ inputs: [Result<ArraySlice<UInt8>, ArchiveError>], paths: [String?], limits: DecodingLimits
    ) -> [Result<RestorationArchive, ArchiveError>] {
        // Decoded at the same time, the files share what is left of the run's budget.
        var limits = limits
        limits.runShares = inputs.count
        let outerLevels = concurrently(inputs.count) { index in
            try? outerLevel(inputs[index].get(), path: paths[index], limits: limits)
        }
        var kept: KeptNestedArchives?
        if inputs.count == 2, let a = outerLevels[0], let b = outerLevels[1] {
            let unchanged = KeptNestedArchives.unchanged(between: a, b)
            if unchanged.everyOne { return [.success(a), .success(b)] }
            kept = unchanged.kept
        }
        return concurrently(inputs.count) { index in
            inputs[index].flatMap { bytes in
                Result { () throws(ArchiveError) in try read(bytes: bytes, limits: limits, path: paths[index], keeping: kept) }
            }
        }
    }

    /// `bytes` as a restoration (or other keyed) archive with its nested archives left as data;
    /// nil for any other file, or one that cannot be read (read whole, it is reported as usual).
    private static func outerLevel(_ bytes: ArraySlice<UInt8>, path: String?, limits: DecodingLimits) -> RestorationArchive? {
        guard !MacWindowRecords.starts(bytes), !(path.map(SavedStateReading.isSnapshotName) ?? false),
              let tape = try? KeyedArchiveDecoder(limits: limits).decodeTape(bytes, allowsPlain: true, keeping: .all),
              !tape.isPlainPropertyList else { return nil }
        return RestorationArchive(tape: tape, limits: limits, interpret: true)
    }
}

extension KeptNestedArchives {
    /// The nested archives `diff` can leave as data, found on the outer levels of its two files
    /// (decoded keeping `.all`): all but those whose bytes are somewhere other than a pair of
    /// places `diff` compares with each other that hold the same bytes (the `$top` values of
    /// one key, both a saved object's entry or both an app-level key). So an archive left as
    /// data is compared only with its twin. `everyOne` when that is every nested archive of
    /// both. A `$top` that holds a key twice has no twins: its archives are all decoded.
    static func unchanged(between a: RestorationArchive, _ b: RestorationArchive) -> (kept: KeptNestedArchives, everyOne: Bool) {
        var twins = (a: [Bool](repeating: false, count: a.tape.nodes.count), b: [Bool](repeating: false, count: b.tape.nodes.count))
        if a.repeatedTopKeys.isEmpty, b.repeatedTopKeys.isEmpty {
            let (topA, topB) = (TopLevel(a), TopLevel(b))
            // Keys at the same position, the usual case, are paired without hashing them.
            var positionsB: [ByteRun: Int] = [:]
            var unpaired: [Int] = []
            for position in 0..<topA.count {
                if position < topB.count, topA.key(position) == topB.key(position) {
                    topA.pair(position, with: position, of: topB, into: &twins)
                } else {
                    unpaired.append(position)
                }
            }
            if !unpaired.isEmpty {
                for position in 0..<topB.count where position >= topA.count || topA.key(position) != topB.key(position) {
                    positionsB[topB.key(position)] = position
                }
                for position in unpaired {
                    if let other = positionsB[topA.key(position)] { topA.pair(position, with: other, of: topB, into: &twins) }
                }
            }
        }
        var decoded = Set<ByteRun>()
        for (tape, twinNodes) in [(a.tape, twins.a), (b.tape, twins.b)] {
            for (index, node) in tape.nodes.enumerated() where node.kind == .data && !twinNodes[index] {
                let run = tape.byteRun(of: node)
                if PropertyListReader.knownFormat(of: run.bytes) != nil { decoded.insert(run) }
            }
        }
        return (KeptNestedArchives(decoded: decoded), decoded.isEmpty)
    }

    /// An archive's `$top` entries, each key's value compared by `diff` with the other's value of
    /// the same key when both are app-level keys or both are not (saved objects' entries, and
    /// metadata).
    private struct TopLevel {
        let tape: ArchiveTape
        let count: Int
        let inAppState: [Bool]

        init(_ archive: RestorationArchive) {
            tape = archive.tape
            count = tape.root.memberCount
            var inAppState = [Bool](repeating: false, count: count)
            for position in archive.appStatePositions { inAppState[position] = true }
            self.inAppState = inAppState
        }

        func key(_ position: Int) -> ByteRun {
            tape.byteRun(of: tape.nodes[tape.root.first + position])
        }

        /// Marks the values at `position` and at `other`'s `otherPosition` as twins when they
        /// are data with the same bytes, in the same role.
        func pair(_ position: Int, with otherPosition: Int, of other: TopLevel, into twins: inout (a: [Bool], b: [Bool])) {
            let (node, otherNode) = (tape.root.first + count + position, other.tape.root.first + other.count + otherPosition)
            let (x, y) = (tape.nodes[node], other.tape.nodes[otherNode])
            guard inAppState[position] == other.inAppState[otherPosition], x.kind == .data, y.kind == .data,
                  tape.byteRun(of: x) == other.tape.byteRun(of: y) else { return }
            twins.a[node] = true
            twins.b[otherNode] = true
        }
    }
}

extension ArchiveTape {
    /// The bytes of a string or data node, as a slice of the input or of the tape's text.
    fileprivate func byteRun(of node: TapeNode) -> ByteRun {
        let range = node.offset..<(node.offset + node.memberCount)
        return ByteRun(node.flags.contains(.inSource) ? source[range] : text[range])
    }
}
