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

    @Option(name: .customLong(DecodingLimit.outputSize.longName), parsing: .unconditional, help: ArgumentHelp("The most bytes one file's text, or a whole JSON document, may take; past it nothing of it is written.", valueName: "size"))
    var maxOutputSize = Size(Console.defaultOutputLimit)

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

    var limits: DecodingLimits {
        DecodingLimits(
            maxDepth: maxDepth, maxNodes: maxNodes, maxArchiveDepth: maxArchiveDepth,
            maxInputBytes: maxInputBytes, maxNestedArchiveBytes: maxNestedArchiveBytes, maxExpandedBytes: maxExpandedBytes)
    }
}
