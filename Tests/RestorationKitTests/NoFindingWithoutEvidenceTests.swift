import XCTest
@testable import RestorationKit

/// A rule reports what is in an archive, never the absence of a key UIKit need not write: taking
/// such a key out of any fixture, wherever it occurs (the outer archive, every object's and view's
/// state), may remove findings but never adds one.
final class NoFindingWithoutEvidenceTests: XCTestCase {
    /// Keys UIKit writes only sometimes: by container kind, by iOS version, by what the app set.
    static let optionalKeys = [
        RestorationKeys.bundleVersion, RestorationKeys.systemVersion, RestorationKeys.timestamp,
        RestorationKeys.userInterfaceIdiom, RestorationKeys.minorVersion, RestorationKeys.classMap,
        RestorationKeys.children, RestorationKeys.tabBarSelectedViewController, "kTabBarIsCustomizingKey",
        "kTabBarMoreDisplayedViewControllerKey", RestorationKeys.presentedViewController,
        RestorationKeys.viewRestorationData, RestorationKeys.firstResponders, "kObjectIsViewControllerKey",
        "kViewControllerViewWasLoadedKey", "UIStateRestorationViewControllerStoryboard",
        "UIStateRestorationViewControllerStoryboardIdentifier", "kAllowsNestedNavigationControllerKey",
        "WindowIdentifierToSizeClassMapKey", "kIgnoreSnapshotKey",
    ]

    static var fixtures: [String] {
        let folders = ["validate", "evidence", "diff"]
        var names = ["ios8-tabbar.data", "ios8-tabbar.xml", "ios7-plain.data", "values.data", "many-objects.data"]
        for folder in folders {
            let listing = (try? FileManager.default.contentsOfDirectory(atPath: FixtureFiles.path(folder))) ?? []
            names += listing.filter { $0.hasSuffix(".data") || $0.hasSuffix(".xml") }.sorted().map { folder + "/" + $0 }
        }
        return names
    }

    /// What a finding is about, its wording aside (a message may name what is left to go by).
    private struct Finding: Hashable, CustomStringConvertible {
        let severity: Diagnostic.Severity
        let rule: ValidationRule
        let path: String?
        let key: String?
        let target: String?

        init(_ diagnostic: Diagnostic) {
            (severity, rule, path, key, target) = (diagnostic.severity, diagnostic.rule, diagnostic.identifierPath?.rawValue, diagnostic.key, diagnostic.target?.rawValue)
        }

        var description: String { "\(severity.rawValue)[\(rule.rawValue)] \(path ?? "(archive)") \(key ?? "")" }
    }

    private func findings(_ archive: RestorationArchive) -> Set<Finding> {
        Set(ArchiveValidator(expectedBundleVersion: "no such version").validate(archive).map(Finding.init))
    }

    func testRemovingAnOptionalKeyNeverAddsAFinding() throws {
        var runs = 0
        var rulesSeen = Set<ValidationRule>()
        for name in Self.fixtures {
            let archive = try FixtureFiles.archive(name)
            let before = findings(archive)
            rulesSeen.formUnion(before.map(\.rule))
            for key in Self.optionalKeys {
                let stripped = KeyedArchive(top: Self.removing(key, from: archive.archive.top), version: archive.archive.version)
                let after = findings(RestorationArchive(archive: stripped))
                XCTAssertTrue(after.isSubset(of: before), "\(name) without \(key) gains \(after.subtracting(before).sorted { $0.description < $1.description })")
                runs += 1
            }
        }
        print("NoFindingWithoutEvidence: \(runs) validations of \(Self.fixtures.count) fixtures, each without one of \(Self.optionalKeys.count) optional keys")
        // Every rule that reads the archive (not the files beside it) was seen firing before a key was removed.
        // The saved-state rules read scene activities and macOS records (SavedStateTests).
        let archiveRules = Set(ValidationRule.allCases).subtracting([.pendingDiscard, .interruptedRestore, .unreadableSidecar, .undecodableUserInfo, .wrongKey, .tornRecord])
        XCTAssertEqual(archiveRules.subtracting(rulesSeen), [])
    }

    /// Per rule, the key it reads that UIKit need not write, taken out of the rule's own fixture.
    func testEachRuleWithItsOptionalKeyRemoved() throws {
        let cases: [(fixture: String, key: String, rule: ValidationRule)] = [
            ("validate/selected-tab-not-child.data", RestorationKeys.children, .selectedTabNotChild),
            ("validate/clean.data", RestorationKeys.children, .selectedTabNotChild),
            ("validate/clean.data", RestorationKeys.bundleVersion, .bundleVersionMismatch),
            ("validate/clean.data", RestorationKeys.timestamp, .malformedMetadata),
            ("validate/clean.data", RestorationKeys.systemVersion, .malformedMetadata),
            ("validate/clean.data", RestorationKeys.userInterfaceIdiom, .malformedMetadata),
            ("validate/clean.data", RestorationKeys.viewRestorationData, .firstResponderUnknownPath),
            ("validate/clean.data", RestorationKeys.classMap, .classMapUnknownPath),
            ("validate/class-map-unknown-path.data", RestorationKeys.classMap, .classMapUnknownPath),
            ("validate/dangling-reference.data", RestorationKeys.children, .danglingReference),
            ("validate/duplicate-sibling-identifier.data", RestorationKeys.children, .duplicateSiblingIdentifier),
            ("validate/unlisted-object.data", "kObjectIsViewControllerKey", .unlistedObject),
            ("evidence/statedemo-ios8.data", RestorationKeys.tabBarSelectedViewController, .selectedTabNotChild),
        ]
        for (fixture, key, rule) in cases {
            let archive = try FixtureFiles.archive(fixture)
            let stripped = RestorationArchive(archive: KeyedArchive(top: Self.removing(key, from: archive.archive.top)))
            let validator = ArchiveValidator(expectedBundleVersion: "no such version")
            let before = validator.validate(archive).filter { $0.rule == rule }.count
            let after = validator.validate(stripped).filter { $0.rule == rule }.count
            XCTAssertLessThanOrEqual(after, before, "\(fixture) without \(key): \(rule.rawValue) fires \(after) times, \(before) before")
            if fixture.hasPrefix("validate/clean") || fixture.hasPrefix("evidence/") {
                XCTAssertEqual(after, 0, "\(fixture) without \(key) raises \(rule.rawValue)")
            }
        }
    }

    /// `fields` without `key`, at every level: nested archives, objects, string-keyed dictionaries.
    static func removing(_ key: String, from fields: ArchiveFields) -> ArchiveFields {
        let kept = fields.removing(key)
        return ArchiveFields(keys: kept.keys, values: kept.values.map { removing(key, from: $0) })
    }

    static func removing(_ key: String, from value: ArchiveValue) -> ArchiveValue {
        if let archive = value.archiveValue {
            return .archive(KeyedArchive(top: removing(key, from: archive.top), version: archive.version))
        } else if var object = value.objectValue, value.kind == .object {
            object.fields = removing(key, from: object.fields)
            return .object(object)
        } else if let dictionary = value.dictionaryValue {
            let entries = dictionary.entries.compactMap { entry -> ArchiveDictionary.Entry? in
                entry.key == .string(key) ? nil : .init(key: entry.key, value: removing(key, from: entry.value))
            }
            return .dictionary(ArchiveDictionary(entries: entries))
        } else if value.kind == .array, let elements = value.elements {
            return .array(elements.map { removing(key, from: $0) })
        }
        return value
    }
}
