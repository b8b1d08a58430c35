/// What all the entries of one file may count together while they are rendered, as the decoder
/// counts a whole file's nodes and bytes together: each entry is rendered within what the others
/// have left (see `StreamingBudget`), and the first entry that gives up, or leaves nothing,
/// stops the rest. Without it, a file of many small entries that each expand to the limit (a
/// shared-reference bomb in every one) would be rendered to the limit as many times.
final class RenderingAllowance: @unchecked Sendable {
    private let lock = ThreadLock()
    // Guarded by `lock`:
    private var budget: StreamingBudget
    private var stopped = false
    private var spentCounts = StreamedEntry.Counts(nodes: 0, bytes: 0, nestedBytes: 0)

    /// For a file of `fileSize` bytes: its entries' text may take 16 MiB, or four times the
    /// file (the benchmark's 24 MB archive makes 26 MB).
    init(limits: DecodingLimits, fileSize: Int) {
        budget = StreamingBudget(limits: limits)
        budget.maxTextBytes = max(16 << 20, 4 * fileSize)
    }

    /// The budget for the next entry; nil once rendering has stopped.
    func next() -> StreamingBudget? {
        lock.withLock { stopped ? nil : budget }
    }

    var isStopped: Bool {
        lock.withLock { stopped }
    }

    /// Counts a rendered entry (nil: one that gave up, which stops the rendering).
    func record(_ entry: StreamedEntry?) {
        lock.withLock {
            guard let counts = entry?.counts else { return stopped = true }
            budget.maxNodes -= counts.nodes
            budget.maxBytes -= counts.bytes
            budget.maxNestedBytes -= counts.nestedBytes
            spentCounts.nodes += counts.nodes
            spentCounts.bytes += counts.bytes
            spentCounts.nestedBytes += counts.nestedBytes
            budget.maxTextBytes -= entry?.text.count ?? 0
            if budget.maxNodes <= 0 || budget.maxBytes <= 0 || budget.maxNestedBytes <= 0 || budget.maxTextBytes <= 0 { stopped = true }
        }
    }

    /// What the entries rendered so far counted together.
    var spent: StreamedEntry.Counts {
        lock.withLock { spentCounts }
    }

    /// Stops the rendering: the file does not take the streaming road.
    func stop() {
        lock.withLock { stopped = true }
    }
}
