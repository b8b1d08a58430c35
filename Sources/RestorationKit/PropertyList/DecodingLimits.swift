/// Bounds that keep hostile input from exhausting the stack, memory or time.
///
/// Every bound is checked while reading and reported as an error that names it; none of them
/// is reached by archives UIKit writes (a deep real archive nests a few dozen levels; one of
/// 20 000 saved objects and 24 MB holds under a million values and a few megabytes of text).
/// Together the value and byte limits bound what printing can cost: output grows with the
/// values, a few hundred bytes each, and with the bytes of their strings and data.
public struct DecodingLimits: Hashable, Sendable {
    /// How deeply containers may nest, counted across nested archives.
    public var maxDepth: Int
    /// How many values a file may expand to, counting a shared value once per reference.
    public var maxNodes: Int
    /// How many keyed archives may nest inside one another (UIKit uses three levels).
    public var maxArchiveDepth: Int
    /// How large an input file may be, in bytes: it is read into memory whole.
    public var maxInputBytes: Int
    /// How many bytes of nested archives one file may make the decoder parse, all levels
    /// together. Nested archives lie inside the file, but each level parses its own bytes again,
    /// so without this bound deep nesting multiplies the work of a large file.
    public var maxNestedArchiveBytes: Int
    /// How many bytes of strings and data (keys and class names included) a file may expand to,
    /// counting a shared value once per reference, as every reference prints it: without this
    /// bound a small file that refers to one long string many times prints gigabytes.
    public var maxExpandedBytes: Int
    /// The run these limits are part of, whose files together are bounded by it (nil: this file
    /// alone is bounded).
    public var run: RunBudget?
    /// How many decodings share what is left of `run` at once.
    package var runShares = 1
    /// The limits `run` lowered below the file's own for this decoding.
    package var loweredByRun: Set<DecodingLimit> = []

    public init(
        maxDepth: Int = 512, maxNodes: Int = 5_000_000, maxArchiveDepth: Int = 16,
        maxInputBytes: Int = 1 << 30, maxNestedArchiveBytes: Int = 512 << 20, maxExpandedBytes: Int = 256 << 20
    ) {
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
        self.maxArchiveDepth = maxArchiveDepth
        self.maxInputBytes = maxInputBytes
        self.maxNestedArchiveBytes = maxNestedArchiveBytes
        self.maxExpandedBytes = maxExpandedBytes
    }

    public static let `default` = DecodingLimits()

    /// What passing `limit` means: the file's own limit, or the run's budget when that is what
    /// lowered it.
    func exceeded(_ limit: DecodingLimit) -> String {
        if let run, loweredByRun.contains(limit) { return run.exceeded(limit) }
        switch limit {
        case .depth: return limit.exceeded(maxDepth)
        case .nodes: return limit.exceeded(maxNodes)
        case .archiveDepth: return limit.exceeded(maxArchiveDepth)
        case .inputSize: return limit.exceeded(maxInputBytes)
        case .nestedBytes: return limit.exceeded(maxNestedArchiveBytes)
        case .expandedBytes: return limit.exceeded(maxExpandedBytes)
        case .expansion: return limit.exceeded(run?.expansion ?? RunBudget.defaultExpansion)
        case .outputSize: return limit.exceeded(0)
        }
    }

    /// These limits for one decoding: lowered to what the run has left, if they have a run.
    var forDecoding: DecodingLimits {
        run?.limits(for: self) ?? self
    }
}

/// One of the bounds, named as the command line sets it; errors that pass it give its one
/// wording, with the option that raises it.
public enum DecodingLimit: String, Sendable, CaseIterable {
    case depth = "--max-depth"
    case nodes = "--max-nodes"
    case archiveDepth = "--max-archive-depth"
    case inputSize = "--max-input-size"
    case nestedBytes = "--max-nested-bytes"
    case expandedBytes = "--max-expanded-bytes"
    case outputSize = "--max-output-size"
    case expansion = "--max-expansion"

    /// The command-line option that sets this limit.
    public var option: String { rawValue }

    /// The option without its dashes, as an argument parser names a long option.
    public var longName: String { String(rawValue.dropFirst(2)) }

    /// What passing the limit of `value` means, ending with the option that raises it:
    /// "values nest deeper than the limit of 512 levels (--max-depth)".
    public func exceeded(_ value: Int) -> String {
        let what: String
        switch self {
        case .depth: what = "values nest deeper than the limit of \(levels(value))"
        case .nodes: what = "the input expands to more than the limit of \(value) values"
        case .archiveDepth: what = "keyed archives nest deeper than the limit of \(levels(value))"
        case .inputSize: what = "the input is larger than the limit of \(ByteSize.text(value))"
        case .nestedBytes: what = "nested archives add up to more than the limit of \(ByteSize.text(value))"
        case .expandedBytes: what = "strings and data expand to more than the limit of \(ByteSize.text(value))"
        case .outputSize: what = "the output goes past the limit of \(ByteSize.text(value))"
        case .expansion: what = "the files of this run together expand to more than \(value) values for each byte read"
        }
        return what + " (" + option + ")"
    }
}

/// "1 level", "512 levels": for messages that name a depth limit.
func levels(_ count: Int) -> String {
    count == 1 ? "1 level" : "\(count) levels"
}
