/// Saved objects' entries rendered while the calling thread decodes the outer archive (see
/// `StreamedDump`): the first helper to start finds them in the outer table
/// (`StreamedDump.entriesAhead`), then every thread that calls `work` renders them a few at a
/// time. The calling thread joins in when it is done with the outer archive.
final class AheadRendering: @unchecked Sendable {
    private let file: ArraySlice<UInt8>
    private let limits: DecodingLimits
    let allowance: RenderingAllowance
    private let lock = ThreadLock()
    // Guarded by `lock`:
    private var found = false
    private var next = 0
    // Set once, by the finder, before any entry is handed out.
    private(set) var ranges: [Range<Int>] = []
    private var results: UnsafeMutableBufferPointer<StreamedEntry?> = .init(start: nil, count: 0)

    /// Entries taken at a time: few, so that the threads end together.
    private static var batch: Int { 16 }

    init(file: ArraySlice<UInt8>, limits: DecodingLimits) {
        self.file = file
        self.limits = limits
        allowance = RenderingAllowance(limits: limits, fileSize: file.count)
    }

    deinit {
        results.deinitialize()
        results.deallocate()
    }

    /// Finds the entries if no thread has, then renders entries until none is left. `bytes` are
    /// the file's (see `StreamedEntry.render(_:at:limits:allowance:context:)`).
    func work(bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count == file.count, "the bytes are not the file's")
        lock.withLock {
            guard !found else { return }
            found = true
            ranges = StreamedDump.entriesAhead(in: file, limits: limits)
            results = .allocate(capacity: ranges.count)
            results.initialize(repeating: nil)
        }
        let context = StreamingContext()
        while let taken = take() {
            for index in taken {
                let range = ranges[index]
                let entry = UnsafeRawBufferPointer(rebasing: bytes[(range.lowerBound - file.startIndex)..<(range.upperBound - file.startIndex)])
                results[index] = StreamedEntry.render(entry, at: range, limits: limits, allowance: allowance, context: context)
            }
        }
    }

    /// Stops handing out entries: the outer archive does not take the streaming road.
    func abandon() {
        allowance.stop()
    }

    /// The entry found at `index` of `ranges` (file order), rendered: nil where the renderer
    /// gave up or never came. Only once every `work` has returned; the entries stay here, not
    /// copied out, since a copy would touch every one, each in the memory of the processor
    /// that rendered it.
    func entry(_ index: Int) -> StreamedEntry? {
        results[index]
    }

    private func take() -> Range<Int>? {
        lock.withLock {
            guard !allowance.isStopped, next < ranges.count else { return nil }
            let start = next
            next = min(ranges.count, next + Self.batch)
            return start..<next
        }
    }
}
