/// The archive's version and metadata.
enum MetadataRules {
    static func check(_ archive: RestorationArchive, expectedBundleVersion: String?) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        switch archive.majorVersion {
        case 2?:
            break
        case let version?:
            diagnostics.append(Diagnostic(.error, .unsupportedVersion, key: RestorationKeys.majorVersion,
                "archive major version is \(version); UIKit reads version 2 and will not restore this archive"))
        case nil:
            // A value the model could not read is left among the app-level keys.
            let found = archive.appState[RestorationKeys.majorVersion].map { "is \($0.kindDescription), not an integer" } ?? "is missing"
            diagnostics.append(Diagnostic(.error, .unsupportedVersion, key: RestorationKeys.majorVersion,
                "the archive major version \(found); UIKit reads version 2 and will not restore this archive"))
        }
        // Each of these is optional (the bundle version always, the others before iOS 7): only a
        // value of the wrong type is reported, never a missing key.
        let metadata: [(String, String, Bool)] = [
            (RestorationKeys.bundleVersion, "bundle version", archive.bundleVersion != nil),
            (RestorationKeys.systemVersion, "system version", archive.systemVersion != nil),
            (RestorationKeys.timestamp, "timestamp", archive.timestamp != nil),
            (RestorationKeys.userInterfaceIdiom, "user interface idiom", archive.userInterfaceIdiom != nil),
        ]
        for (key, name, readable) in metadata where !readable {
            guard let value = archive.appState[key] else { continue }
            diagnostics.append(Diagnostic(.warning, .malformedMetadata, key: key, "the \(name) (\(key)) is \(value.kindDescription) of the wrong type"))
        }
        // A damaged or forged file: UIKit never writes a key twice.
        for (key, count) in archive.tape.repeatedRootKeys {
            diagnostics.append(Diagnostic(.warning, .repeatedTopKey, key: key,
                "the root dictionary holds \(key) \(count) times: NSKeyedUnarchiver reads one of the values, and which one is not known; the tool reads the first"))
        }
        let repeated = archive.repeatedTopKeys
        let listed = repeated.isEmpty ? [] : Set(archive.identifierPaths.map(\.rawValue))
        for (key, count) in repeated {
            diagnostics.append(Diagnostic(.warning, .repeatedTopKey, path: listed.contains(key) ? IdentifierPath(key) : nil, key: key,
                "$top holds \(key) \(count) times: NSKeyedUnarchiver reads one of the values, and which one is not known; the tool reads the first"))
        }
        if let expected = expectedBundleVersion, let saved = archive.bundleVersion, saved != expected {
            diagnostics.append(Diagnostic(.warning, .bundleVersionMismatch, key: RestorationKeys.bundleVersion,
                "the archive was saved with bundle version \"\(saved)\", not \"\(expected)\"; an app that checks the version in application(_:shouldRestoreApplicationState:) will not restore it"))
        }
        return diagnostics
    }
}
