/// macOS 15's `ApplicationMapping.plist`, beside the `<UUID>.savedState` folders of talagent's
/// daemon container: a flat array in which a dictionary naming an app
/// (`{unprotected: {bundleIdentifier}}` or `{protected: {signingIdentifier, …}}`) comes just
/// before that app's folder UUID. See docs/formats/macos-saved-state.md.
struct ApplicationMapping: Sendable {
    /// Folder UUID → the app's bundle or signing identifier.
    private(set) var apps: [String: String] = [:]

    static let fileName = "ApplicationMapping.plist"

    /// The mapping in `directory`, if it has one that can be read (a link is not followed).
    init?(in directory: String, limits: DecodingLimits) {
        let path = directory + "/" + Self.fileName
        guard DirectoryListing.kind(of: path) != nil,
              let root = try? SavedStateReading.plainRoot(at: path, limit: min(limits.maxInputBytes, 16 << 20), limits: limits),
              root.kind == .array, let members = root.elements
        else { return nil }
        var named: String?
        for member in members {
            if let entry = member.dictionaryValue {
                named = Self.identifier(in: entry)
            } else {
                if let uuid = member.stringValue, let name = named { apps[uuid] = name }
                named = nil
            }
        }
    }

    private static func identifier(in entry: ArchiveDictionary) -> String? {
        for (outer, inner) in [("unprotected", "bundleIdentifier"), ("protected", "signingIdentifier"), ("protected", "bundleIdentifier")] {
            if let app = entry[outer]?.dictionaryValue, let name = app[inner]?.stringValue { return name }
        }
        return nil
    }

    func app(for uuid: String) -> String? {
        apps[uuid]
    }
}
