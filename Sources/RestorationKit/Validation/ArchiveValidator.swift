/// Predicts the state-restoration failures UIKit would log for an archive.
public struct ArchiveValidator: Sendable {
    /// The app's current CFBundleVersion; when set, an archive saved by another version is
    /// reported (apps commonly refuse to restore such archives).
    public var expectedBundleVersion: String?

    public init(expectedBundleVersion: String? = nil) {
        self.expectedBundleVersion = expectedBundleVersion
    }

    /// Every defect found, archive-level ones first, then object by object in save order. A
    /// keyed archive that is no restoration archive has none: no rule applies to it (see
    /// `report(for:)`).
    ///
    /// Runs on the calling thread, whatever the nesting (no walk recurses per level); a large
    /// archive's objects are checked on the other processors too, and the call waits for them.
    public func validate(_ archive: RestorationArchive) -> [Diagnostic] {
        // Without a limit on the messages there is always a list.
        validate(archive, messageLimit: .max)!
    }

    /// The verdict on `archive` (read from `file`): its findings, whether it is valid with
    /// warnings counting as failures when `strict`, and whether it is a restoration archive at all.
    public func report(for archive: RestorationArchive, file: String = "", strict: Bool = false) -> ValidationReport {
        var report = ValidationReport(file: file, diagnostics: validate(archive), strict: strict)
        report.isRestorationArchive = archive.kind != .keyedArchive
        return report
    }

    /// As `validate(_:)`, or nil once the findings' messages together pass `messageLimit` bytes:
    /// a report that must be written whole within that many bytes cannot be, and objects that
    /// share one state (a small file can make thousands of them) repeat its findings, each
    /// costing memory.
    package func validate(_ archive: RestorationArchive, messageLimit: Int) -> [Diagnostic]? {
        check(archive, messageLimit: messageLimit, into: [Diagnostic].self)
    }

    /// How many errors and warnings `validate` finds, and their rules in the order they first
    /// appear, without keeping the findings (for `scan`, which counts them): objects that share
    /// one state repeat its findings, millions of times in a small file.
    package func tally(_ archive: RestorationArchive) -> FindingTally {
        // Without a limit on the messages there is always a tally.
        check(archive, messageLimit: .max, into: FindingTally.self)!
    }

    private func check<Findings: FindingSink>(
        _ archive: RestorationArchive, messageLimit: Int, into: Findings.Type
    ) -> Findings? {
        // Runs on the calling thread, its parts on the others too; the walk of values keeps its
        // own stack (`ReferenceScan`), so any nesting takes an ordinary thread's stack.
        guard archive.kind != .keyedArchive else { return Findings() }
        guard archive.kind == .restorationArchive || archive.content == nil else {
            var findings = Findings()
            findings.add(SavedStateRules.check(archive))
            return findings
        }
        let context = ValidationContext(archive, messageLimit: messageLimit)
        // Only the first responders' rule reads the views' paths: gathered only for it.
        let gathersViewPaths = ReferenceRules.firstResponders(of: archive) != nil
        var findings = Findings()
        findings.add(MetadataRules.check(archive, expectedBundleVersion: expectedBundleVersion))
        // Each object's findings depend on that object and the context alone: parts of the
        // objects are checked apart, on all processors, and their findings join in order,
        // every object's path findings before the reference findings.
        let parts = Parallel.mapParts(of: archive.objects.count) { range in
            var part = ObjectFindings<Findings>()
            // Told when this part counts findings: most objects have none, and asking the
            // shared count for every object would make the threads wait on each other.
            var pastLimit = false
            var scan = ReferenceScan(saved: context.saved)
            archive.forEachObjectOnTape(range, while: { !pastLimit }) { object, onTape, view in
                let paths = PathRules.check(object, onTape, in: view, context)
                var references = Findings.references(within: context)
                ReferenceRules.check(object, onTape, in: view, context, scan: &scan, into: &references)
                let pathsPast = context.count(paths)
                part.paths.add(paths)
                pastLimit = part.references.add(references: references, counting: context) || pathsPast
                if gathersViewPaths {
                    for (path, _) in onTape.views { part.viewPaths.append(view.string(of: path)) }
                }
            }
            return part
        }
        guard !context.isPastMessageLimit else { return nil }
        for part in parts { findings.add(part.paths) }
        findings.add(PathRules.checkArchive(context))
        for part in parts { findings.add(part.references) }
        context.viewPaths = ExactTextSet(minimumCapacity: parts.reduce(0) { $0 + $1.viewPaths.count })
        for part in parts { for path in part.viewPaths { context.viewPaths.insert(path) } }
        var app = Findings.references(within: context)
        ReferenceRules.checkApp(context, into: &app)
        _ = findings.add(references: app, counting: context)
        return findings
    }

    /// What the rules found about some of the objects, and their views' paths.
    private struct ObjectFindings<Findings: FindingSink> {
        var paths = Findings()
        var references = Findings()
        var viewPaths: [String] = []
    }
}

/// Where the rules' findings go, in order: a list of them, or a tally.
protocol FindingSink {
    /// What one object's reference findings are gathered into first.
    associatedtype References: ReferenceSink
    init()
    mutating func add(_ findings: [Diagnostic])
    mutating func add(_ findings: Self)
    /// An empty sink for one object's reference findings.
    static func references(within context: ValidationContext) -> References
    /// Adds one object's reference findings; whether the messages counted so far, on all
    /// threads, pass the context's limit.
    mutating func add(references: References, counting context: ValidationContext) -> Bool
}

extension [Diagnostic]: FindingSink {
    mutating func add(_ findings: [Diagnostic]) {
        append(contentsOf: findings)
    }

    static func references(within context: ValidationContext) -> FindingList {
        FindingList(messageLimit: context.messageLimit)
    }

    mutating func add(references: FindingList, counting context: ValidationContext) -> Bool {
        append(contentsOf: references.diagnostics)
        return context.count(messageBytes: references.messageBytes)
    }
}

/// The errors and warnings of a validation counted, and their rules in the order they first
/// appear.
package struct FindingTally: FindingSink {
    package private(set) var errors = 0
    package private(set) var warnings = 0
    package private(set) var rules: [ValidationRule] = []

    init() {}

    mutating func add(_ findings: [Diagnostic]) {
        for finding in findings { add(finding.severity, finding.rule) { finding } }
    }

    mutating func add(_ findings: FindingTally) {
        (errors, warnings) = (errors + findings.errors, warnings + findings.warnings)
        for rule in findings.rules where !rules.contains(rule) { rules.append(rule) }
    }

    static func references(within context: ValidationContext) -> FindingTally {
        FindingTally()
    }

    mutating func add(references: FindingTally, counting context: ValidationContext) -> Bool {
        add(references)
        return false
    }
}

/// The reference rules' findings counted without their messages: one children list can hold
/// hundreds of thousands.
extension FindingTally: ReferenceSink {
    var isFull: Bool { false }

    mutating func add(_ severity: Diagnostic.Severity, _ rule: ValidationRule, _ finding: () -> Diagnostic) {
        switch severity {
        case .error: errors += 1
        case .warning: warnings += 1
        }
        if !rules.contains(rule) { rules.append(rule) }
    }

    mutating func addDangling(path: String?, key: String, target: String, _ finding: @autoclosure () -> Diagnostic) {
        add(.error, .danglingReference, finding)
    }
}

extension Sequence<Diagnostic> {
    /// The bytes of the findings' messages: the least any report of them writes.
    var messageBytes: Int {
        reduce(0) { $0 + $1.message.utf8.count }
    }
}

/// What several rules need to know about an archive, computed once. A class, so that the rules'
/// visitor closures capture one reference rather than a copy of the archive and each set.
final class ValidationContext {
    let archive: RestorationArchive
    /// Listed paths that have an entry: the objects UIKit can restore.
    let saved: ExactTextSet
    let listed: ExactTextSet
    /// Listed paths listed more than once, with their counts.
    let repeatedPaths: [IdentifierPath: Int]
    /// Paths of every view of a saved object: known once the objects have been checked, and
    /// only when the app state names first responders, the one rule that needs them.
    var viewPaths = ExactTextSet()
    /// The most bytes of messages worth gathering (see `ArchiveValidator.validate`), and those
    /// of the objects' findings counted so far, on all threads.
    let messageLimit: Int
    private let messages: SharedTextBudget

    init(_ archive: RestorationArchive, messageLimit: Int = .max) {
        self.archive = archive
        self.messageLimit = messageLimit
        messages = SharedTextBudget(limit: messageLimit, spent: 0)
        // Sets of tens of thousands of paths for a large archive: made at once, each at its
        // final size (a set grown by doubling hashes every path again).
        var listed = ExactTextSet()
        var repeatedPaths: [IdentifierPath: Int] = [:]
        var saved = ExactTextSet()
        Parallel.forEach(2, concurrently: archive.objects.count >= 256) { part in
            if part == 0 {
                listed = ExactTextSet(minimumCapacity: archive.identifierPaths.count)
                for path in archive.identifierPaths where !listed.insert(path.rawValue) {
                    repeatedPaths[path, default: 1] += 1
                }
            } else {
                saved = ExactTextSet(minimumCapacity: archive.objects.count)
                for object in archive.objects where object.entry != nil {
                    saved.insert(object.identifierPath.rawValue)
                }
            }
        }
        (self.listed, self.repeatedPaths, self.saved) = (listed, repeatedPaths, saved)
    }

    /// Counts the messages of an object's findings; whether those counted so far pass
    /// `messageLimit` (false, without asking, when there are none).
    func count(_ findings: [Diagnostic]) -> Bool {
        count(messageBytes: findings.messageBytes)
    }

    /// `count(_:)` for findings whose messages' bytes are known.
    func count(messageBytes: Int) -> Bool {
        guard messageBytes > 0 else { return false }
        return messages.spend(messageBytes)
    }

    /// Whether the findings counted so far pass `messageLimit`.
    var isPastMessageLimit: Bool {
        messages.isSpent
    }
}
