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
        DeepStack.run(stackSize: DeepStack.stackSize(for: .default)) {
            let context = ValidationContext(archive)
            var diagnostics: [Diagnostic] = []
            diagnostics += MetadataRules.check(archive, expectedBundleVersion: expectedBundleVersion)
            diagnostics += PathRules.check(context)
            diagnostics += ReferenceRules.check(context)
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
        listed = Set(archive.identifierPaths.map(\.rawValue))
        saved = Set(archive.objects.filter { $0.state != nil || $0.undecodedEntry != nil }.map(\.identifierPath.rawValue))
        viewPaths = Set(archive.objects.flatMap { $0.views.map(\.identifierPath.rawValue) })
    }
}
