/// Predicts the state-restoration failures UIKit would log for an archive.
public struct ArchiveValidator: Sendable {
    /// The app's current CFBundleVersion; when set, an archive saved by another version is
    /// reported (apps commonly refuse to restore such archives).
    public var expectedBundleVersion: String?

    public init(expectedBundleVersion: String? = nil) {
        self.expectedBundleVersion = expectedBundleVersion
    }

    /// Every defect found, archive-level ones first, then object by object in save order.
    public func validate(_ archive: RestorationArchive) -> [Diagnostic] {
        // Walking values recurses once per nesting level (see `DeepStack`).
        let stackSize = DeepStack.stackSize(for: .default)
        return DeepStack.run(stackSize: stackSize) {
            let context = ValidationContext(archive)
            var diagnostics = MetadataRules.check(archive, expectedBundleVersion: expectedBundleVersion)
            // The path rules and the reference rules over each part of the objects read the
            // archive independently: on a large archive all processors share them, and their
            // findings join in this order.
            var pathFindings: [Diagnostic] = []
            let referenceFindings = DeepStack.mapParts(of: archive.objects.count, stackSize: stackSize, first: {
                pathFindings = PathRules.check(context)
            }) { range in
                ReferenceRules.checkObjects(range, context)
            }
            diagnostics += pathFindings
            for part in referenceFindings { diagnostics += part }
            return diagnostics + ReferenceRules.checkApp(context)
        }
    }

    /// The references to paths under which no object was saved (`dangling-reference`), in the
    /// order `validate` reports them, without running the other rules: what `tree` draws.
    func danglingReferences(_ archive: RestorationArchive) -> [Diagnostic] {
        DeepStack.run(stackSize: DeepStack.stackSize(for: .default)) {
            ReferenceRules.check(ValidationContext(archive)).filter { $0.rule == .danglingReference }
        }
    }
}

/// What several rules need to know about an archive, computed once. A class, so that the rules'
/// visitor closures capture one reference rather than a copy of the archive and each set.
final class ValidationContext {
    let archive: RestorationArchive
    /// Listed paths that have an entry: the objects UIKit can restore.
    let saved: ExactTextSet
    let listed: ExactTextSet
    /// Paths of every view of a saved object.
    let viewPaths: ExactTextSet

    init(_ archive: RestorationArchive) {
        self.archive = archive
        // Three sets of tens of thousands of paths for a large archive: made at once.
        var sets = [ExactTextSet](repeating: ExactTextSet(), count: 3)
        sets.withUnsafeMutableBufferPointer { sets in
            let threads = archive.objects.count >= 256 ? DeepStack.availableThreads : 1
            DeepStack.concurrentPerform(count: 3, threads: threads, stackSize: DeepStack.stackSize(for: .default)) { part in
                // Each made at its final size: a set grown by doubling hashes every path again.
                switch part {
                case 0: sets[0] = ExactTextSet(archive.identifierPaths.lazy.map(\.rawValue))
                case 1: sets[1] = Self.paths(archive.objects.lazy.filter { $0.state != nil || $0.undecodedEntry != nil }.map(\.identifierPath), capacity: archive.objects.count)
                default: sets[2] = Self.paths(archive.objects.lazy.flatMap { $0.views.lazy.map(\.identifierPath) }, capacity: archive.objects.reduce(0) { $0 + $1.views.count })
                }
            }
        }
        (listed, saved, viewPaths) = (sets[0], sets[1], sets[2])
    }

    private static func paths<Paths: Sequence<IdentifierPath>>(_ paths: Paths, capacity: Int) -> ExactTextSet {
        var set = ExactTextSet(minimumCapacity: capacity)
        for path in paths { set.insert(path.rawValue) }
        return set
    }
}
