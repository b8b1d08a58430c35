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
        validate(archive, deferred: nil)
    }

    /// As `validate(_:)`, for an archive read with its objects' states left on the tape
    /// (`DeferredStates.read`): the rules read each object's state from the tape's nodes.
    package func validate(_ archive: RestorationArchive, deferred: DeferredStates?) -> [Diagnostic] {
        // Walking values recurses once per nesting level (see `DeepStack`), and so does making a
        // deferred state whole.
        let stackSize = DeferredStates.stackSize(for: deferred)
        return DeepStack.run(stackSize: stackSize) {
            let context = ValidationContext(archive, deferred: deferred)
            // Only the first responders' rule reads the views' paths: gathered only for it.
            let gathersViewPaths = ReferenceRules.firstResponders(of: archive) != nil
            var diagnostics = MetadataRules.check(archive, expectedBundleVersion: expectedBundleVersion)
            // Each object's findings depend on that object and the context alone: parts of the
            // objects are checked apart, on all processors, and their findings join in order,
            // every object's path findings before the reference findings.
            let parts = DeepStack.mapParts(of: archive.objects.count, stackSize: stackSize) { range in
                var part = ObjectFindings()
                archive.forEachObjectOnTape(range, deferred: deferred) { object, onTape, view in
                    part.paths += PathRules.check(object, onTape, in: view, context)
                    part.references += ReferenceRules.check(object, onTape, in: view, context)
                    if gathersViewPaths {
                        for (path, _) in onTape.views { part.viewPaths.append(view.string(of: path)) }
                    }
                }
                return part
            }
            for part in parts { diagnostics += part.paths }
            diagnostics += PathRules.checkArchive(context)
            for part in parts { diagnostics += part.references }
            context.viewPaths = ExactTextSet(minimumCapacity: parts.reduce(0) { $0 + $1.viewPaths.count })
            for part in parts { for path in part.viewPaths { context.viewPaths.insert(path) } }
            return diagnostics + ReferenceRules.checkApp(context)
        }
    }

    /// What the rules found about some of the objects, and their views' paths.
    private struct ObjectFindings {
        var paths: [Diagnostic] = []
        var references: [Diagnostic] = []
        var viewPaths: [String] = []
    }
}

/// What several rules need to know about an archive, computed once. A class, so that the rules'
/// visitor closures capture one reference rather than a copy of the archive and each set.
final class ValidationContext {
    let archive: RestorationArchive
    /// The states the archive left on the decoder's tape, if it was read so.
    let deferred: DeferredStates?
    /// Listed paths that have an entry: the objects UIKit can restore.
    let saved: ExactTextSet
    let listed: ExactTextSet
    /// Listed paths listed more than once, with their counts.
    let repeatedPaths: [IdentifierPath: Int]
    /// Paths of every view of a saved object: known once the objects have been checked, and
    /// only when the app state names first responders, the one rule that needs them.
    var viewPaths = ExactTextSet()

    init(_ archive: RestorationArchive, deferred: DeferredStates?) {
        self.archive = archive
        self.deferred = deferred
        // Sets of tens of thousands of paths for a large archive: made at once, each at its
        // final size (a set grown by doubling hashes every path again).
        var listed = ExactTextSet()
        var repeatedPaths: [IdentifierPath: Int] = [:]
        var saved = ExactTextSet()
        let threads = archive.objects.count >= 256 ? DeepStack.availableThreads : 1
        DeepStack.concurrentPerform(count: 2, threads: threads, stackSize: DeepStack.stackSize(for: .default)) { part in
            if part == 0 {
                listed = ExactTextSet(minimumCapacity: archive.identifierPaths.count)
                for path in archive.identifierPaths where !listed.insert(path.rawValue) {
                    repeatedPaths[path, default: 1] += 1
                }
            } else {
                saved = ExactTextSet(minimumCapacity: archive.objects.count)
                for (index, object) in archive.objects.enumerated()
                where object.state != nil || object.undecodedEntry != nil || deferred?.defers(index) == true {
                    saved.insert(object.identifierPath.rawValue)
                }
            }
        }
        (self.listed, self.repeatedPaths, self.saved) = (listed, repeatedPaths, saved)
    }
}
