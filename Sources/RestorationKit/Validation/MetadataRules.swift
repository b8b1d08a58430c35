/// The archive's version and metadata.
enum MetadataRules {
    static func check(_ archive: RestorationArchive, expectedBundleVersion: String?) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let top = archive.archive.top
        switch archive.majorVersion {
        case 2?:
            break
        case let version?:
            diagnostics.append(Diagnostic(.error, .unsupportedVersion, key: RestorationKeys.majorVersion,
                "archive major version is \(version); UIKit reads version 2 and will not restore this archive"))
        case nil:
            let found = top[RestorationKeys.majorVersion].map { "is \($0.kindDescription), not an integer" } ?? "is missing"
            diagnostics.append(Diagnostic(.error, .unsupportedVersion, key: RestorationKeys.majorVersion,
                "the archive major version \(found); UIKit reads version 2 and will not restore this archive"))
        }
        let metadata: [(String, String, Bool)] = [
            (RestorationKeys.bundleVersion, "bundle version", archive.bundleVersion != nil),
            (RestorationKeys.systemVersion, "system version", archive.systemVersion != nil),
            (RestorationKeys.timestamp, "timestamp", archive.timestamp != nil),
            (RestorationKeys.userInterfaceIdiom, "user interface idiom", archive.userInterfaceIdiom != nil),
        ]
        for (key, name, present) in metadata where !present {
            let problem = top[key].map { "is \($0.kindDescription) of the wrong type" } ?? "is missing"
            diagnostics.append(Diagnostic(.warning, .missingMetadata, key: key, "the \(name) (\(key)) \(problem)"))
        }
        if let expected = expectedBundleVersion, archive.bundleVersion != expected {
            let saved = archive.bundleVersion.map { "bundle version \"\($0)\"" } ?? "no bundle version"
            diagnostics.append(Diagnostic(.warning, .bundleVersionMismatch, key: RestorationKeys.bundleVersion,
                "the archive was saved with \(saved), not \"\(expected)\"; an app that checks the version in application(_:shouldRestoreApplicationState:) will not restore it"))
        }
        return diagnostics
    }
}
