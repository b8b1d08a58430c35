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
    /// streamed objects, one per object (nil for one without an archive entry); nil to decode
    /// the whole file the usual way.
    static func read(_ bytes: ArraySlice<UInt8>, limits: DecodingLimits, interpret: Bool, allowsConcurrency: Bool = true)
        -> (archive: RestorationArchive, streamed: [StreamedObject?])? {
        guard interpret, limits.maxDepth >= minimumDepth, limits.maxArchiveDepth >= minimumArchiveDepth else { return nil }
        var decoder = KeyedArchiveDecoder(limits: limits)
        decoder.leavesOuterDataUndecoded = true
        decoder.allowsConcurrency = allowsConcurrency
        guard let outer = try? decoder.decodeCounting(bytes) else { return nil }
        var pending: RestorationArchive.PendingObjects?
        var archive = RestorationArchive(archive: outer.archive, interpret: true, pending: &pending)
        guard archive.isRestorationArchive, var pending else { return nil }

        var jobs: [Job] = []
        for (position, listed) in pending.listed.enumerated() {
            switch listed.entry {
            case .data(let data)? where data.bytes.starts(with: BinaryPropertyListReader.magic):
                jobs.append(Job(object: position, path: listed.path, restorationClass: archive.restorationClassMap[listed.path.rawValue], entry: data.bytes))
            case nil, .archive?:
                continue
            case let entry?:
                if holdsPropertyList(entry) { return nil }
            }
        }
        // The objects' entries are rendered while the rest of the model is read (if one cannot
        // be, the whole archive is read again the usual way).
        pending.streamed = [Bool](repeating: false, count: pending.listed.count)
        for job in jobs { pending.streamed[job.object] = true }
        let concurrently = allowsConcurrency && jobs.count >= 64 && DeepStack.availableThreads > 1
        let rendered = render(jobs.count, concurrently: concurrently, first: {
            archive.readObjects(pending, allowsConcurrency: allowsConcurrency && !concurrently)
        }) { index, context in
            StreamedObject.render(path: jobs[index].path, restorationClass: jobs[index].restorationClass, entry: jobs[index].entry, limits: limits, context: context)
        }
        guard !archive.appState.values.contains(where: holdsPropertyList) else { return nil }
        let budget = StreamingBudget(limits: limits)
        var (nodes, expandedBytes, nestedBytes) = (outer.nodes, outer.bytes, 0)
        var streamed = [StreamedObject?](repeating: nil, count: archive.objects.count)
        for (job, state) in zip(jobs, rendered) {
            guard let state else { return nil }
            nodes += state.nodes
            expandedBytes += state.bytes
            nestedBytes += state.nestedBytes
            streamed[job.object] = state
        }
        guard nodes <= budget.maxNodes, expandedBytes <= budget.maxBytes, nestedBytes <= budget.maxNestedBytes else { return nil }
        return (archive, streamed)
    }

    /// A saved object's entry to render.
    private struct Job {
        var object: Int
        var path: IdentifierPath
        var restorationClass: String?
        var entry: ArraySlice<UInt8>
    }

    /// `render(index, context)` for every index, on all processors when `concurrently`; each
    /// run of `chunkSize` indices shares one context. The calling thread runs `first` before
    /// it joins in.
    private static func render(
        _ count: Int, concurrently: Bool, first: () -> Void, _ render: (Int, StreamingContext) -> StreamedObject?
    ) -> [StreamedObject?] {
        guard concurrently else {
            first()
            let context = StreamingContext()
            return (0..<count).map { render($0, context) }
        }
        let chunkSize = 64
        return [StreamedObject?](unsafeUninitializedCapacity: count) { buffer, initialized in
            // The renderer's recursion is bounded by `StreamingOutput.maximumLevel`.
            DeepStack.concurrentPerform(
                count: (count + chunkSize - 1) / chunkSize, threads: DeepStack.availableThreads, stackSize: 8 << 20, first: first
            ) { chunk in
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
        case .null, .string, .integer, .real, .boolean, .date, .reference, .cycle:
            return false
        }
    }
}
