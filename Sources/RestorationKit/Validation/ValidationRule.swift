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
    case missingMetadata = "missing-metadata"
    case undecodableState = "undecodable-state"
    case bundleVersionMismatch = "bundle-version-mismatch"
    case selectedTabNotChild = "selected-tab-not-child"
    case proxyWithoutPath = "proxy-without-path"
    case firstResponderUnknownPath = "first-responder-unknown-path"
    case pendingDiscard = "pending-discard"
    case interruptedRestore = "interrupted-restore"
    case unreadableSidecar = "unreadable-sidecar"

    /// The severities the rule reports with.
    public var severities: String {
        switch self {
        case .classMapUnknownPath: "error/warning"
        case .unlistedObject, .orphanPath, .missingMetadata, .bundleVersionMismatch, .firstResponderUnknownPath,
             .pendingDiscard, .interruptedRestore, .unreadableSidecar: "warning"
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
        case .unsupportedVersion: "the archive's major version is not 2"
        case .missingMetadata: "bundle version, system version, timestamp or idiom is missing or of the wrong type"
        case .undecodableState: "an object's or view's entry is not a decodable keyed archive"
        case .bundleVersionMismatch: "the archive was saved by another bundle version than --bundle-version"
        case .selectedTabNotChild: "a tab bar controller's selected view controller is not one of its children"
        case .proxyWithoutPath: "an object reference has no identifier path"
        case .firstResponderUnknownPath: "a first responder path names no saved object or view"
        case .pendingDiscard: "inprogress.data shows the next interrupted restore, or the next launch, deletes the archive"
        case .interruptedRestore: "inprogress.data shows a restore was under way when the app stopped"
        case .unreadableSidecar: "inprogress.data or restorationInfo.plist cannot be read"
        }
    }
}
