import ArgumentParser
import RestorationKit

/// Bounds on what one input may make the tool do, shared by every command that reads archives.
struct DecodingOptions: ParsableArguments {
    @Option(name: .customLong(DecodingLimit.depth.longName), parsing: .unconditional, help: ArgumentHelp("How deeply values may nest.", valueName: "levels"))
    var maxDepth: Int = DecodingLimits.default.maxDepth

    @Option(name: .customLong(DecodingLimit.nodes.longName), parsing: .unconditional, help: ArgumentHelp("How many values one file may expand to (a shared value counts once per reference).", valueName: "count"))
    var maxNodes: Int = DecodingLimits.default.maxNodes

    @Option(name: .customLong(DecodingLimit.archiveDepth.longName), parsing: .unconditional, help: ArgumentHelp("How many keyed archives may nest inside one another, the outer one included (UIKit writes 3).", valueName: "levels"))
    var maxArchiveDepth: Int = DecodingLimits.default.maxArchiveDepth

    @Option(name: .customLong(DecodingLimit.inputSize.longName), parsing: .unconditional, help: ArgumentHelp("The largest input file. Sizes are bytes, or take k, M or G (64k, 10M, 1G).", valueName: "size"))
    var maxInputSize = Size(DecodingLimits.default.maxInputBytes)

    @Option(name: .customLong(DecodingLimit.nestedBytes.longName), parsing: .unconditional, help: ArgumentHelp("How many bytes of nested archives one file may make the tool parse, all levels together.", valueName: "size"))
    var maxNestedArchiveSize = Size(DecodingLimits.default.maxNestedArchiveBytes)

    @Option(name: .customLong(DecodingLimit.expandedBytes.longName), parsing: .unconditional, help: ArgumentHelp("How many bytes of strings and data one file may expand to, as written, escaped (a shared value counts once per reference).", valueName: "size"))
    var maxExpandedSize = Size(DecodingLimits.default.maxExpandedBytes)

    @Option(name: .customLong(DecodingLimit.outputSize.longName), parsing: .unconditional, help: ArgumentHelp("The most bytes the run may write, all files together; a file's text or a JSON document that would pass it is not written at all.", valueName: "size"))
    var maxOutputSize = Size(Console.defaultOutputLimit)

    @Option(name: .customLong(DecodingLimit.expansion.longName), parsing: .unconditional, help: ArgumentHelp("The run's budget over all its files: one file's limits, and this many values more for each byte read (eight times as many bytes of strings, data and nested archives).", valueName: "count"))
    var maxExpansion: Int = RunBudget.defaultExpansion

    var maxInputBytes: Int { maxInputSize.bytes }
    var maxNestedArchiveBytes: Int { maxNestedArchiveSize.bytes }
    var maxExpandedBytes: Int { maxExpandedSize.bytes }
    var maxOutputBytes: Int { maxOutputSize.bytes }

    func validate() throws {
        // The stack, not the input, bounds depth: beyond this, deep input could overflow it.
        guard (1...4096).contains(maxDepth) else { throw ValidationError("\(DecodingLimit.depth.option) must be from 1 to 4096") }
        guard maxNodes >= 1 else { throw ValidationError("\(DecodingLimit.nodes.option) must be at least 1") }
        guard (1...256).contains(maxArchiveDepth) else { throw ValidationError("\(DecodingLimit.archiveDepth.option) must be from 1 to 256") }
        guard maxInputBytes >= 1 else { throw ValidationError("\(DecodingLimit.inputSize.option) must be at least 1") }
        guard maxNestedArchiveBytes >= 0 else { throw ValidationError("\(DecodingLimit.nestedBytes.option) must not be negative") }
        guard maxExpandedBytes >= 0 else { throw ValidationError("\(DecodingLimit.expandedBytes.option) must not be negative") }
        guard maxOutputBytes >= 1 else { throw ValidationError("\(DecodingLimit.outputSize.option) must be at least 1") }
        guard (0...(1 << 20)).contains(maxExpansion) else { throw ValidationError("\(DecodingLimit.expansion.option) must be from 0 to \(1 << 20)") }
    }

    /// A size option's value: bytes, or with a binary suffix (`64k`, `10M`, `1G`).
    struct Size: ExpressibleByArgument {
        var bytes: Int

        init(_ bytes: Int) {
            self.bytes = bytes
        }

        init?(argument: String) {
            guard let bytes = ByteSize.parse(argument) else { return nil }
            self.bytes = bytes
        }

        var defaultValueDescription: String { ByteSize.text(bytes) }
    }

    /// The limits of one run: each file's, and a new budget for all of them together (see
    /// `RunBudget`). A command takes them once and reads every file with them.
    func runLimits() -> DecodingLimits {
        var limits = DecodingLimits(
            maxDepth: maxDepth, maxNodes: maxNodes, maxArchiveDepth: maxArchiveDepth,
            maxInputBytes: maxInputBytes, maxNestedArchiveBytes: maxNestedArchiveBytes, maxExpandedBytes: maxExpandedBytes)
        limits.run = RunBudget(limits: limits, expansion: maxExpansion)
        return limits
    }
}
