/// `dump --json`'s fast road: the outer archive is decoded as usual, but each saved object's own
/// archive (and its views') is rendered straight from the bytes to JSON text, without the typed
/// tree, which for a large archive costs more to build than everything else in the dump.
///
/// It is all or nothing: when any part of the file is not plain (see `StreamedArchiveRenderer`),
/// or the file comes near a limit, `read` returns nil and the caller decodes the whole file the
/// usual way, so errors, notes and limits stay the decoder's. The text is the same either way:
/// the tests and the decode fuzz target compare the two on every input.
enum StreamedDump {
    /// Below these limits (raised on the command line, or lowered) the road is not taken: what it
    /// renders must be within what the decoder allows.
    static let minimumDepth = 128
    static let minimumArchiveDepth = 3

    /// The archive, whose streamed objects have neither `state` nor `stateProblem`, and the
    /// rendered objects, one per object (nil for one without an archive entry); nil to decode
    /// the whole file the usual way.
    ///
    /// `minimumAheadBytes`: files smaller than this are not rendered ahead (a thread costs more
    /// than it saves there; the tests vary it: the text is the same either way).
    static func read(
        _ bytes: ArraySlice<UInt8>, limits: DecodingLimits, interpret: Bool, allowsConcurrency: Bool = true,
        minimumAheadBytes: Int = 64 * 1024
    ) -> (archive: RestorationArchive, streamed: [StreamedObject?])? {
        guard interpret, limits.maxDepth >= minimumDepth, limits.maxArchiveDepth >= minimumArchiveDepth else { return nil }
        // With processors to spare, the entries are found and rendered while this thread decodes
        // the outer archive, reads the model and writes the objects' headers (a fifth of the
        // work), then this thread joins in.
        var model: Model?
        var ahead: [Range<Int>] = []
        var rendering: AheadRendering?
        var allowance = RenderingAllowance(limits: limits, fileSize: bytes.count)
        if allowsConcurrency, DeepStack.availableThreads > 1, bytes.count >= minimumAheadBytes {
            let aheadRendering = AheadRendering(file: bytes, limits: limits)
            rendering = aheadRendering
            bytes.withUnsafeBytes { buffer in
                // The renderer's recursion is bounded by `StreamingOutput.maximumLevel`.
                DeepStack.concurrentPerform(count: DeepStack.availableThreads, threads: DeepStack.availableThreads, stackSize: 8 << 20, first: {
                    model = Model(bytes, limits: limits, allowsConcurrency: false)
                    if model == nil { aheadRendering.abandon() }
                }) { _ in aheadRendering.work(bytes: buffer) }
            }
            ahead = aheadRendering.ranges
            allowance = aheadRendering.allowance
        } else {
            model = Model(bytes, limits: limits, allowsConcurrency: allowsConcurrency)
        }
        guard let model else { return nil }

        // Each listed entry's text: rendered ahead, or now (entries not found ahead). The
        // entries are found by position, and only their counts read: each object refers to its
        // entry in `StreamedTexts`.
        var positions = [Int](repeating: 0, count: model.jobs.count)
        var later: [Int] = []
        var next = 0
        for (position, job) in model.jobs.enumerated() {
            // Entries are usually listed in file order: try the one after the last found first.
            let range = job.entry.indices
            guard let found = next < ahead.count && ahead[next] == range ? next : Self.position(of: range, in: ahead) else {
                positions[position] = ahead.count + later.count
                later.append(position)
                continue
            }
            positions[position] = found
            next = found + 1
        }
        let concurrentlyLater = allowsConcurrency && later.count >= 64 && DeepStack.availableThreads > 1
        let renderedLater = render(later.count, concurrently: concurrentlyLater) { index, context in
            StreamedEntry.render(model.jobs[later[index]].entry, limits: limits, allowance: allowance, context: context)
        }

        let texts = StreamedTexts(file: bytes, ahead: rendering, aheadCount: ahead.count, later: renderedLater, headers: model.headers)
        let budget = StreamingBudget(limits: limits)
        // Usually every entry was rendered (the allowance never stopped) and all of them together,
        // those of no object too, are within the limits: then no entry need be looked at.
        let spent = allowance.spent
        if allowance.isStopped || model.nodes + spent.nodes > budget.maxNodes || model.bytes + spent.bytes > budget.maxBytes
            || spent.nestedBytes > budget.maxNestedBytes {
            var (nodes, expandedBytes, nestedBytes) = (model.nodes, model.bytes, 0)
            for position in positions {
                guard let counts = texts.renderedEntry(position)?.counts else { return nil }
                nodes += counts.nodes
                expandedBytes += counts.bytes
                nestedBytes += counts.nestedBytes
            }
            guard nodes <= budget.maxNodes, expandedBytes <= budget.maxBytes, nestedBytes <= budget.maxNestedBytes else { return nil }
        }
        var streamed = [StreamedObject?](repeating: nil, count: model.archive.objects.count)
        for (position, job) in model.jobs.enumerated() {
            streamed[job.object] = StreamedObject(texts: texts, entryPosition: positions[position], headerRange: model.headerRanges[position])
        }
        return (model.archive, streamed)
    }

    /// What the calling thread reads while entries are rendered: the outer archive, the model
    /// (all but the streamed objects' state and views), the entries to render and the streamed
    /// objects' headers (see `StreamedObject`), which are rendered then too.
    private struct Model {
        var archive: RestorationArchive
        /// What decoding the outer archive counted against the limits.
        var nodes: Int
        var bytes: Int
        var jobs: [Job]
        /// Each job's object's header, by range in `headers`.
        var headers: ByteBuffer
        var headerRanges: [Range<Int>]

        /// Nil unless the file takes the streaming road.
        init?(_ file: ArraySlice<UInt8>, limits: DecodingLimits, allowsConcurrency: Bool) {
            var decoder = KeyedArchiveDecoder(limits: limits)
            decoder.leavesOuterDataUndecoded = true
            decoder.allowsConcurrency = allowsConcurrency
            guard let outer = try? decoder.decodeCounting(file) else { return nil }
            var pending: RestorationArchive.PendingObjects?
            archive = RestorationArchive(archive: outer.archive, interpret: true, pending: &pending)
            guard archive.isRestorationArchive, var pending else { return nil }
            jobs = []
            for (position, listed) in pending.listed.enumerated() {
                switch listed.entry {
                case .data(let data)? where data.bytes.starts(with: BinaryPropertyListReader.magic):
                    jobs.append(Job(object: position, entry: data.bytes))
                case nil, .archive?:
                    continue
                case let entry?:
                    if holdsPropertyList(entry) { return nil }
                }
            }
            pending.streamed = [Bool](repeating: false, count: pending.listed.count)
            for job in jobs { pending.streamed[job.object] = true }
            archive.readObjects(pending, allowsConcurrency: allowsConcurrency)
            guard !archive.appState.values.contains(where: holdsPropertyList) else { return nil }
            (nodes, bytes) = (outer.nodes, outer.bytes)
            let buffer = ByteBuffer(capacity: 256 * jobs.count)
            headerRanges = jobs.map { [archive] job in StreamedObject.writeHeader(of: archive.objects[job.object], to: buffer) }
            headers = buffer
        }
    }

    /// A saved object's entry to render: the object's position and the entry's bytes.
    private struct Job {
        var object: Int
        var entry: ArraySlice<UInt8>
    }

    /// The data objects of the outer table that hold a binary property list, as ranges of the
    /// file in file order, each once: the saved objects' entries among them, found before the
    /// outer archive is decoded. Empty when the table cannot be read, has more objects than
    /// the limits allow nodes, or two of them overlap (no writer makes such a table, and
    /// rendering each would cost the square of the file's size).
    static func entriesAhead(in file: ArraySlice<UInt8>, limits: DecodingLimits) -> [Range<Int>] {
        let found: [Range<Int>]? = try? BinaryPropertyList.withTable(file) { (table) throws(PropertyListError) in
            guard table.objectCount <= limits.maxNodes else { return [] }
            var found: [Range<Int>] = []
            let magic = BinaryPropertyListReader.magicSize
            for index in 0..<table.objectCount where table.isData(index) {
                guard case .data(let start, let count)? = try? table.rawObject(index), count > magic,
                      table.bytes(start, magic).elementsEqual(BinaryPropertyListReader.magic)
                else { continue }
                found.append((table.base + start)..<(table.base + start + count))
            }
            return found
        }
        guard var found else { return [] }
        // Writers store objects in file order: sorting is rarely needed.
        if zip(found, found.dropFirst()).contains(where: { $0.lowerBound > $1.lowerBound }) {
            found.sort { ($0.lowerBound, $0.upperBound) < ($1.lowerBound, $1.upperBound) }
        }
        var unique: [Range<Int>] = []
        unique.reserveCapacity(found.count)
        for range in found {
            if let last = unique.last {
                // One object listed twice, or two identical entries a writer stored once.
                if range == last { continue }
                if range.lowerBound < last.upperBound { return [] }
            }
            unique.append(range)
        }
        return unique
    }

    /// The position of `range` in `ranges` (sorted, without overlaps), if it is there.
    private static func position(of range: Range<Int>, in ranges: [Range<Int>]) -> Int? {
        var (low, high) = (0, ranges.count)
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].lowerBound < range.lowerBound { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low] == range ? low : nil
    }

    /// `render(index, context)` for every index, on all processors when `concurrently`; each
    /// run of `chunkSize` indices shares one context.
    private static func render(_ count: Int, concurrently: Bool, _ render: (Int, StreamingContext) -> StreamedEntry?) -> [StreamedEntry?] {
        guard concurrently else {
            let context = StreamingContext()
            return (0..<count).map { render($0, context) }
        }
        let chunkSize = 64
        return [StreamedEntry?](unsafeUninitializedCapacity: count) { buffer, initialized in
            // The renderer's recursion is bounded by `StreamingOutput.maximumLevel`.
            DeepStack.concurrentPerform(count: (count + chunkSize - 1) / chunkSize, threads: DeepStack.availableThreads, stackSize: 8 << 20) { chunk in
                let context = StreamingContext()
                for index in (chunk * chunkSize)..<min(count, (chunk + 1) * chunkSize) {
                    (buffer.baseAddress! + index).initialize(to: render(index, context))
                }
            }
            initialized = count
        }
    }

    /// Whether a value of the outer archive holds data the decoder would read as a property list.
    private static func holdsPropertyList(_ value: ArchiveValue) -> Bool {
        switch value {
        case .data(let data):
            return (try? PropertyListReader.format(of: data.bytes)) != nil
        case .array(let elements), .set(let elements), .orderedSet(let elements):
            return elements.contains(where: holdsPropertyList)
        case .dictionary(let dictionary):
            return dictionary.entries.contains { holdsPropertyList($0.key) || holdsPropertyList($0.value) }
        case .url(let url):
            return holdsPropertyList(url.base)
        case .object(let object):
            return object.fields.values.contains(where: holdsPropertyList)
        case .archive:
            return true
        case .uuid(let bytes):
            // Decoded, such bytes would not have become a UUID.
            return (try? PropertyListReader.format(of: bytes[...])) != nil
        case .null, .string, .integer, .real, .float, .boolean, .date, .reference, .cycle:
            return false
        }
    }
}
