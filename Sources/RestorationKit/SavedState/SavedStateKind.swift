/// What a file of a `.savedState` folder is, told by its content (a window snapshot, whose
/// content cannot be read, by its name). See docs/formats/ for each format and its sources.
public enum SavedStateKind: String, Sendable, Hashable, CaseIterable {
    /// UIKit's view-controller archive (`data.data`): a keyed archive with restoration metadata.
    case restorationArchive
    /// Any other NSKeyedArchiver archive.
    case keyedArchive
    /// An iOS 13+ scene session's saved `NSUserActivity` (`<session>/data.data`): a plain
    /// property list with `CanvasRestorationUserActivity…` keys.
    case sceneActivity
    /// `KnownSceneSessions/data.data`: a plain property list of the app's scene sessions.
    case knownSceneSessions
    /// Any other plain property list (`userInfo.data`, `internalUserInfo.data` …).
    case propertyList
    /// macOS AppKit's `windows.plist`: one entry per restorable window, with its key.
    case macWindowList
    /// macOS AppKit's `data.data`: `NSCR1000` records, each encrypted with a window's key.
    case macWindowRecords
    /// macOS AppKit's `window_<N>.data`: a window snapshot encrypted with a key kept in the
    /// keychain, which cannot be read offline.
    case macWindowSnapshot

    /// How a note names the kind.
    public var summary: String {
        switch self {
        case .restorationArchive: "a UIKit state-restoration archive"
        case .keyedArchive: "a keyed archive"
        case .sceneActivity: "an iOS scene session's saved user activity (a plain property list UIKit writes per scene, not a view-controller archive)"
        case .knownSceneSessions: "UIKit's list of known scene sessions (a plain property list)"
        case .propertyList: "a plain property list"
        case .macWindowList: "macOS AppKit's list of restorable windows (windows.plist)"
        case .macWindowRecords: "macOS AppKit's encrypted window state (NSCR1000 records)"
        case .macWindowSnapshot: "a macOS window snapshot"
        }
    }

    /// Whether the kind is one of the files `validate` checks (a generic keyed archive or
    /// property list has nothing of its own to check).
    public var isValidated: Bool {
        switch self {
        case .restorationArchive, .sceneActivity, .knownSceneSessions, .macWindowList, .macWindowRecords: true
        case .keyedArchive, .propertyList, .macWindowSnapshot: false
        }
    }
}
