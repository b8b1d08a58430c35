/// The checks `validate` makes. The raw values are stable names that scripts may match on.
public enum ValidationRule: String, Sendable, CaseIterable {
    case danglingReference = "dangling-reference"
    case missingObject = "missing-object"
    case unlistedObject = "unlisted-object"
    case duplicatePath = "duplicate-path"
    case malformedPath = "malformed-path"
    case orphanPath = "orphan-path"
    case duplicateSiblingIdentifier = "duplicate-sibling-identifier"
    case classMapUnknownPath = "class-map-unknown-path"
    case unsupportedVersion = "unsupported-version"
    case malformedMetadata = "malformed-metadata"
    case undecodableState = "undecodable-state"
    case bundleVersionMismatch = "bundle-version-mismatch"
    case selectedTabNotChild = "selected-tab-not-child"
    case proxyWithoutPath = "proxy-without-path"
    case firstResponderUnknownPath = "first-responder-unknown-path"
    case pendingDiscard = "pending-discard"
    case interruptedRestore = "interrupted-restore"
    case unreadableSidecar = "unreadable-sidecar"
    case repeatedTopKey = "repeated-top-key"
    case undecodableUserInfo = "undecodable-user-info"
    case wrongKey = "wrong-key"
    case tornRecord = "torn-record"
    case repeatedStateKey = "repeated-state-key"

    /// The severities the rule reports with.
    public var severities: String {
        switch self {
        case .classMapUnknownPath: "error/warning"
        case .unlistedObject, .orphanPath, .malformedMetadata, .bundleVersionMismatch, .firstResponderUnknownPath,
             .pendingDiscard, .interruptedRestore, .unreadableSidecar, .repeatedTopKey, .tornRecord, .repeatedStateKey: "warning"
        default: "error"
        }
    }

    /// What the rule checks, in one line (for `validate --list-rules`).
    public var summary: String {
        switch self {
        case .danglingReference: "a child entry or an object reference names a path with no saved object"
        case .missingObject: "a listed identifier path has no entry in the archive"
        case .unlistedObject: "an entry holds a view controller's archive but its path is not listed"
        case .duplicatePath: "an identifier path is listed more than once"
        case .malformedPath: "an identifier path has an empty component or a malformed or trailing index component"
        case .orphanPath: "a path's parent path has no saved object"
        case .duplicateSiblingIdentifier: "a container's children include the same path twice"
        case .classMapUnknownPath: "a restoration class map entry names no saved object, or an empty class name"
        case .unsupportedVersion: "the archive's major version is missing or not 2"
        case .malformedMetadata: "a bundle version, system version, timestamp or idiom is present but of the wrong type"
        case .undecodableState: "an object's or view's entry is not a decodable keyed archive"
        case .bundleVersionMismatch: "the archive names another bundle version than --bundle-version"
        case .selectedTabNotChild: "a tab bar controller's selected view controller is neither in its children list nor a child by its path"
        case .proxyWithoutPath: "an object reference has no identifier path"
        case .firstResponderUnknownPath: "a first responder path names no saved object or view, and its parent path none either"
        case .pendingDiscard: "inprogress.data shows the next interrupted restore, or the next launch, deletes the archive"
        case .interruptedRestore: "inprogress.data shows a restore was under way when the app stopped"
        case .unreadableSidecar: "inprogress.data or restorationInfo.plist cannot be read"
        case .repeatedTopKey: "a key appears more than once in the archive's $top"
        case .undecodableUserInfo: "a scene's saved activity holds user-info data that is not a readable keyed archive"
        case .wrongKey: "a macOS window's current record does not decrypt with the key windows.plist gives it"
        case .tornRecord: "a macOS data.data record runs past the end of the file or is cut short"
        case .repeatedStateKey: "a key appears more than once in an object's state"
        }
    }

    /// The archive keys the rule reads. A rule reports only what it finds under these keys, never
    /// their absence (except `unsupported-version`: UIKit writes the major version in every archive).
    public var reads: [String] {
        switch self {
        case .danglingReference:
            [RestorationKeys.children, RestorationKeys.proxyPath + " (in any object's or view's state)", RestorationKeys.identifierPaths]
        case .missingObject: [RestorationKeys.identifierPaths, "<identifier path> entries"]
        case .unlistedObject: ["<identifier path> entries", RestorationKeys.identifierPaths]
        case .duplicatePath, .malformedPath: [RestorationKeys.identifierPaths]
        case .orphanPath: [RestorationKeys.identifierPaths, "<identifier path> entries"]
        case .duplicateSiblingIdentifier: [RestorationKeys.children]
        case .classMapUnknownPath: [RestorationKeys.classMap, RestorationKeys.identifierPaths]
        case .unsupportedVersion: [RestorationKeys.majorVersion]
        case .malformedMetadata:
            [RestorationKeys.bundleVersion, RestorationKeys.systemVersion, RestorationKeys.timestamp, RestorationKeys.userInterfaceIdiom]
        case .undecodableState: ["<identifier path> entries", RestorationKeys.viewRestorationData]
        case .bundleVersionMismatch: [RestorationKeys.bundleVersion]
        case .selectedTabNotChild: [RestorationKeys.tabBarSelectedViewController, RestorationKeys.children, RestorationKeys.identifierPaths]
        case .proxyWithoutPath: [RestorationKeys.proxyPath + " of every " + RestorationKeys.proxyClass]
        case .firstResponderUnknownPath: [RestorationKeys.firstResponders, RestorationKeys.identifierPaths, RestorationKeys.viewRestorationData]
        case .pendingDiscard, .interruptedRestore: ["kRestorationTriesLeft (inprogress.data)"]
        case .unreadableSidecar: ["inprogress.data", "restorationInfo.plist"]
        case .repeatedTopKey: ["every $top key"]
        case .undecodableUserInfo: [SceneActivity.userInfoDataKey + " (a scene's data.data)"]
        case .wrongKey: ["NSDataKey and NSWindowID (windows.plist)", "each window's last record (data.data)"]
        case .tornRecord: ["the record headers of data.data (macOS)"]
        case .repeatedStateKey: ["every key of each object's state"]
        }
    }

    /// What UIKit does with such an archive: the line its debug log writes, where one is known
    /// (FORMAT.md, "What fails at restore time"), or the consequence.
    public var predicts: String {
        switch self {
        case .danglingReference:
            "\"Can't find Child View Controller at index N with identifier P, truncating child array\" for a child; a reference decodes as nil"
        case .missingObject: "the object is not restored (no state to decode)"
        case .unlistedObject: "the state is never read: UIKit restores listed paths only"
        case .duplicatePath: "the object is restored once"
        case .malformedPath: "no UIKit log line: UIKit writes index components only as :[n]: before a child"
        case .orphanPath: "the object has no container to be restored into"
        case .duplicateSiblingIdentifier: "the two children cannot be restored as two view controllers"
        case .classMapUnknownPath: "an unused class-map entry; an empty class name finds no restoration class"
        case .unsupportedVersion: "\"State restoration archive was saved with major version N ... Current major version 2\"; the archive is not restored"
        case .malformedMetadata: "no restore failure by itself: a sign of a damaged or unusual archive"
        case .undecodableState: "the object's or view's state cannot be decoded"
        case .bundleVersionMismatch: "an app that compares the version in application(_:shouldRestoreApplicationState:) refuses the archive"
        case .selectedTabNotChild: "\"TabBarController's selected view controller from State Restoration isn't contained in Tab Controller, skipping\""
        case .proxyWithoutPath: "\"Warning! Couldn't decode restoration identifier path, returning nil\""
        case .firstResponderUnknownPath: "the first responder is not made first responder again"
        case .pendingDiscard: "\"Too many failed attempts to restore state ... deleting\""
        case .interruptedRestore: "a restore was under way when the app stopped; UIKit counts the try"
        case .unreadableSidecar: "unknown: the tool cannot tell what UIKit makes of the file"
        case .repeatedTopKey: "NSKeyedUnarchiver reads one of the values, and which one is not known"
        case .undecodableUserInfo: "UIKit's secure unarchiving of the activity's userInfo fails: the scene is restored without it"
        case .wrongKey: "the window's state cannot be decrypted with the key AppKit would use: the window is not restored as saved"
        case .tornRecord: "the record's state cannot be read; every public reader skips such a record"
        case .repeatedStateKey: "NSKeyedUnarchiver reads one of the values, and which one is not known"
        }
    }
}
