/// The rules for saved-state files other than UIKit's view-controller archive: what is present
/// in a scene's activity or a macOS folder's records and cannot be read. Each finding names
/// something in the file; nothing is reported for what a file need not hold.
enum SavedStateRules {
    static func check(_ archive: RestorationArchive) -> [Diagnostic] {
        switch archive.content {
        case .sceneActivity(let activity)?:
            guard let problem = activity.userInfoProblem else { return [] }
            return [Diagnostic(.error, .undecodableUserInfo, key: SceneActivity.userInfoDataKey, "the activity's userInfo cannot be read: \(problem)")]
        case .windowRecords(let records)?:
            var findings: [Diagnostic] = []
            for record in records.records where record.isCurrent {
                switch record.status {
                case .readable, .noKey: continue
                case .wrongKey(let why):
                    findings.append(Diagnostic(.error, .wrongKey, key: "window \(record.windowID)",
                        "the current record of window \(record.windowID) (at byte \(record.offset)) does not decrypt with the NSDataKey windows.plist gives it: \(why)"))
                case .torn(let why):
                    findings.append(Diagnostic(.warning, .tornRecord, key: "window \(record.windowID)",
                        "the record of window \(record.windowID) at byte \(record.offset) is torn: \(why)"))
                }
            }
            if let tail = records.unreadTail {
                findings.append(Diagnostic(.warning, .tornRecord, key: "data.data", tail.reason))
            }
            return findings
        default:
            return []
        }
    }
}
