/// An iOS 13+ scene session's saved user activity: the plain property list UIKit writes to
/// `<session>/data.data` (`CanvasRestorationUserActivity…` keys). Its `userInfo` is a keyed
/// archive in data, under the key `CanvasRestorationUserActivityUserInfoKey` of its `$top`; an
/// older form has the dictionary itself in the file. See docs/formats/ios-scenes.md.
public struct SceneActivity: Sendable, Hashable {
    public static let typeKey = "CanvasRestorationUserActivityTypeKey"
    public static let titleKey = "CanvasRestorationUserActivityTitleKey"
    public static let userInfoDataKey = "CanvasRestorationUserActivityUserInfoDataKey"
    public static let userInfoKey = "CanvasRestorationUserActivityUserInfoKey"

    /// The activity's `activityType`, when it is a string.
    public var activityType: String?
    public var title: String?
    /// The activity's `userInfo`, when it could be read.
    public var userInfo: ArchiveValue?
    /// Why `userInfo` could not be read from the data that holds it.
    public var userInfoProblem: String?

    /// The activity a plain property list's root holds, if it is one: a dictionary with a key
    /// that starts `CanvasRestorationUserActivity`.
    init?(root: ArchiveValue) {
        guard let dictionary = root.dictionaryValue,
              dictionary.entries.contains(where: { $0.key.stringValue?.hasPrefix("CanvasRestorationUserActivity") == true })
        else { return nil }
        activityType = dictionary[Self.typeKey]?.stringValue
        title = dictionary[Self.titleKey]?.stringValue
        let userInfoData = dictionary[Self.userInfoDataKey]
        if let archive = userInfoData?.archiveValue {
            if let info = archive.top[Self.userInfoKey] {
                userInfo = info
            } else {
                userInfoProblem = "its user-info archive has no \(Self.userInfoKey) in $top (it has \(archive.top.keys.count) other keys)"
            }
        } else if let data = userInfoData?.archiveData {
            userInfoProblem = data.archiveError.map { "its \(Self.userInfoDataKey) does not decode as a keyed archive: \($0)" }
                ?? "its \(Self.userInfoDataKey) is \(data.bytes.count) bytes of data that are not a keyed archive"
        } else if let other = userInfoData {
            userInfoProblem = "its \(Self.userInfoDataKey) is \(other.kindDescription), not data"
        } else {
            userInfo = dictionary[Self.userInfoKey]
        }
    }

    var notes: [String] {
        var words = SavedStateKind.sceneActivity.summary
        words += activityType.map { ": activity type \"\($0)\"" } ?? ": no activity type (\(Self.typeKey))"
        if let title { words += ", title \"\(title)\"" }
        var notes = [words]
        if let userInfoProblem { notes.append("the activity's userInfo cannot be read: " + userInfoProblem) }
        return notes
    }
}

/// What a saved-state file other than a keyed archive was read into.
public enum SavedStateContent: Sendable, Hashable {
    case sceneActivity(SceneActivity)
    /// `KnownSceneSessions/data.data`: the persistent identifiers it lists (its string keys).
    case knownSceneSessions([String])
    case windowList(MacWindowList)
    case windowRecords(MacWindowRecords)
    /// A window snapshot of this many bytes.
    case windowSnapshot(Int)
}
