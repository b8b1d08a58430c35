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
            // The path and reference rules read the archive independently: on a large archive
            // two processors run them at once, and their findings join in this order.
            var findings: [[Diagnostic]] = [[], []]
            let threads = archive.objects.count >= 256 ? min(2, DeepStack.availableThreads) : 1
            findings.withUnsafeMutableBufferPointer { findings in
                DeepStack.concurrentPerform(count: 2, threads: threads, stackSize: stackSize) { part in
                    findings[part] = part == 0 ? PathRules.check(context) : ReferenceRules.check(context)
                }
            }
            diagnostics += findings[0]
            diagnostics += findings[1]
            return diagnostics
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

/// What several rules need to know about an archive, computed once. A class: the rules' visitor
/// closures capture it, and copying its sets for each value visited dominated validation.
final class ValidationContext {
    let archive: RestorationArchive
    /// Listed paths that have an entry: the objects UIKit can restore.
    let saved: Set<String>
    let listed: Set<String>
    /// Paths of every view of a saved object.
    let viewPaths: Set<String>

    init(_ archive: RestorationArchive) {
        self.archive = archive
        listed = Set(archive.identifierPaths.lazy.map(\.rawValue))
        saved = Set(archive.objects.lazy.filter { $0.state != nil || $0.undecodedEntry != nil }.map(\.identifierPath.rawValue))
        viewPaths = Set(archive.objects.lazy.flatMap { $0.views.lazy.map(\.identifierPath.rawValue) })
    }
}
