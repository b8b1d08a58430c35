import Synchronization

/// What all the files of one run may make the tool do together.
///
/// `DecodingLimits` bound one file; a folder of many small files, each within them, could
/// still make a run do their sum (300 scene sessions of 1.3 KB, each expanding to a million
/// values). A run's budget is granted once, not per file: one file's limits to start with, and
/// `expansion` values more for every byte the run has read (eight times as many bytes of
/// strings, data and nested archives). Real archives expand to a tenth of a value per byte or
/// less, so a real tree of any size is read whole, while a megabyte read gives at most a fixed
/// amount of work and memory however it is split into files.
///
/// Every file read with limits that carry the budget (`DecodingLimits.run`) adds its size when
/// it is read, and what decoding it spent when its decoding ends; a decoding starts with the
/// limits lowered to what is left (see `limits(for:)`). Files decoded at the same time share
/// what is left between them (`DecodingLimits.runShares`).
public final class RunBudget: Sendable, Hashable {
    /// Values granted per byte read; strings, data and nested archives get `bytesPerValue`
    /// times as many bytes.
    public let expansion: Int
    /// What the run starts with: one file's limits.
    let base: Spending
    private let state = Mutex(State())

    public static let defaultExpansion = 8
    static let bytesPerValue = 8

    /// A budget that starts with what one file may spend under `limits`.
    public init(limits: DecodingLimits, expansion: Int = RunBudget.defaultExpansion) {
        self.expansion = expansion
        base = Spending(nodes: limits.maxNodes, bytes: limits.maxExpandedBytes, nestedBytes: limits.maxNestedArchiveBytes)
    }

    /// Values, bytes of strings and data, and bytes of nested archives.
    struct Spending: Sendable {
        var nodes = 0
        var bytes = 0
        var nestedBytes = 0
    }

    private struct State {
        var inputBytes = 0
        var spent = Spending()
    }

    /// Counts `count` more bytes read.
    func grant(inputBytes count: Int) {
        state.withLock { $0.inputBytes = $0.inputBytes.addingReportingOverflow(count).partialValue }
    }

    /// Counts what one decoding spent.
    func spend(_ spending: Spending) {
        state.withLock { state in
            state.spent.nodes = state.spent.nodes.addingReportingOverflow(spending.nodes).partialValue
            state.spent.bytes = state.spent.bytes.addingReportingOverflow(spending.bytes).partialValue
            state.spent.nestedBytes = state.spent.nestedBytes.addingReportingOverflow(spending.nestedBytes).partialValue
        }
    }

    /// The bytes read so far.
    public var inputBytes: Int { state.withLock { $0.inputBytes } }

    /// `limits` for one decoding, each of the three counted limits lowered to what the run has
    /// left, shared among `limits.runShares` decodings under way at once; those lowered are
    /// named in `lowered`, so that passing one names the run's limit.
    func limits(for limits: DecodingLimits) -> DecodingLimits {
        let (inputBytes, spent) = state.withLock { ($0.inputBytes, $0.spent) }
        let shares = max(1, limits.runShares)
        func left(_ base: Int, perByte: Int, _ spent: Int) -> Int {
            let (extra, overflowed) = inputBytes.multipliedReportingOverflow(by: perByte)
            let (total, overflowedAgain) = base.addingReportingOverflow(extra)
            return (overflowed || overflowedAgain ? Int.max : max(0, total - spent)) / shares
        }
        var lowered = limits
        let nodes = left(base.nodes, perByte: expansion, spent.nodes)
        if nodes < lowered.maxNodes { lowered.maxNodes = nodes; lowered.loweredByRun.insert(.nodes) }
        let bytes = left(base.bytes, perByte: expansion * Self.bytesPerValue, spent.bytes)
        if bytes < lowered.maxExpandedBytes { lowered.maxExpandedBytes = bytes; lowered.loweredByRun.insert(.expandedBytes) }
        let nested = left(base.nestedBytes, perByte: expansion * Self.bytesPerValue, spent.nestedBytes)
        if nested < lowered.maxNestedArchiveBytes { lowered.maxNestedArchiveBytes = nested; lowered.loweredByRun.insert(.nestedBytes) }
        return lowered
    }

    /// What passing the run's budget for `limit` means, naming the option that raises it.
    func exceeded(_ limit: DecodingLimit) -> String {
        let what: String
        switch limit {
        case .nodes: what = "\(base.nodes) values and \(expansion) more for each byte read"
        case .expandedBytes: what = "\(ByteSize.text(base.bytes)) of strings and data and \(expansion * Self.bytesPerValue) bytes more for each byte read"
        default: what = "\(ByteSize.text(base.nestedBytes)) of nested archives and \(expansion * Self.bytesPerValue) bytes more for each byte read"
        }
        return "the files of this run together expand to more than their budget of \(what) (\(DecodingLimit.expansion.option))"
    }

    public static func == (a: RunBudget, b: RunBudget) -> Bool { a === b }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
