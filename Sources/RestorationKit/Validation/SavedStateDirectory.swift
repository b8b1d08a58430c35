/// A `<bundle-id>.savedState` directory as UIKit leaves it: `data.data`, and beside it
/// `inprogress.data` while (or if) a restore is under way and `restorationInfo.plist`. With
/// scenes (iOS 13 and later) each scene session has a subdirectory with its own `data.data`.
package enum SavedStateDirectory {
    public static let archiveName = "data.data"
    public static let inProgressName = "inprogress.data"
    public static let restorationInfoName = "restorationInfo.plist"
    public static let knownSceneSessions = "KnownSceneSessions"

    /// The archives in `directory`: its own `data.data`, then each scene session's, sorted;
    /// nil when the directory cannot be read. Whatever is named `data.data` counts, a symbolic
    /// link, FIFO or directory too, so that reading it reports why it is no archive; scene
    /// folders that are symbolic links are not followed. Folders named `*.savedState` are other
    /// apps' states, not scene sessions. A scene folder that cannot be read is added to
    /// `unreadable` with the system's reason: its archive cannot be told missing from hidden.
    public static func archives(in directory: String, unreadable: inout [(path: String, reason: String)]) -> [String]? {
        guard let entries = DirectoryListing.entries(in: directory) else { return nil }
        var found: [String] = []
        let own = directory + "/" + archiveName
        if entries.contains(where: { $0.name == archiveName }) { found.append(own) }
        for entry in entries where entry.kind == .directory && entry.name != knownSceneSessions && !entry.name.hasSuffix(".savedState") && entry.name != archiveName {
            let folder = directory + "/" + entry.name
            if let reason = DirectoryListing.failureReason(folder) {
                unreadable.append((folder, reason))
                continue
            }
            let archive = folder + "/" + archiveName
            if DirectoryListing.kind(of: archive) != nil {
                found.append(archive)
            }
        }
        return found
    }

    /// The most a side file is read: each is a dictionary of a key or two.
    static let maximumSidecarBytes = 64 << 10

    /// What `inprogress.data` and `restorationInfo.plist` in `directory` say. Neither is
    /// followed if it is a symbolic link, and one larger than `maximumSidecarBytes` is refused
    /// before it is read.
    public static func sidecarDiagnostics(in directory: String, limits: DecodingLimits = .default) -> [Diagnostic] {
        let prefix = directory.isEmpty ? "" : directory + "/"
        var diagnostics: [Diagnostic] = []
        let inProgress = prefix + inProgressName
        if DirectoryListing.kind(of: inProgress) != nil {
            diagnostics += checkInProgress(inProgress, limits: limits)
        }
        let info = prefix + restorationInfoName
        if DirectoryListing.kind(of: info) != nil, case .failure(let problem) = readDictionary(info, limits: limits) {
            diagnostics.append(Diagnostic(.warning, .unreadableSidecar, key: restorationInfoName, "\(restorationInfoName) cannot be read: \(problem)"))
        }
        return diagnostics
    }

    private static func checkInProgress(_ path: String, limits: DecodingLimits) -> [Diagnostic] {
        let dictionary: OrderedFields<PropertyListScalar>
        switch readDictionary(path, limits: limits) {
        case .success(let value): dictionary = value
        case .failure(let problem):
            return [Diagnostic(.warning, .unreadableSidecar, key: inProgressName, "\(inProgressName) cannot be read: \(problem)")]
        }
        guard case .integer(let triesLeft)? = dictionary["kRestorationTriesLeft"] else {
            return [Diagnostic(.warning, .unreadableSidecar, key: inProgressName, "\(inProgressName) has no integer kRestorationTriesLeft")]
        }
        switch triesLeft {
        case ...0:
            return [Diagnostic(.warning, .pendingDiscard, key: "kRestorationTriesLeft",
                "\(inProgressName) shows \(triesLeft) restore attempts left: the next launch deletes the archive instead of restoring it (UIKit: \"Too many failed attempts to restore state\")")]
        case 1:
            return [Diagnostic(.warning, .pendingDiscard, key: "kRestorationTriesLeft",
                "\(inProgressName) shows a restore was interrupted and 1 attempt is left: if the next restore is interrupted too, UIKit deletes the archive")]
        default:
            return [Diagnostic(.warning, .interruptedRestore, key: "kRestorationTriesLeft",
                "\(inProgressName) shows a restore was under way when the app stopped (\(triesLeft) attempts left): the app may have crashed while restoring")]
        }
    }

    private struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// The side file's root dictionary, its members that are numbers, booleans, dates or UIDs
    /// only (what is read from it is an integer), when the whole file reads as a property list.
    private static func readDictionary(_ path: String, limits: DecodingLimits) -> Result<OrderedFields<PropertyListScalar>, Problem> {
        do throws(ArchiveError) {
            let bytes = try InputFile.read(path, limit: min(limits.maxInputBytes, maximumSidecarBytes), followingLinks: false, run: limits.run)
            do throws(PropertyListError) {
                guard let dictionary = try PropertyListReader(limits: limits).topLevelScalars(bytes[...]) else {
                    return .failure(Problem(description: "it is not a dictionary"))
                }
                return .success(dictionary)
            } catch {
                return .failure(Problem(description: error.description))
            }
        } catch where error.kind == .limitExceeded && maximumSidecarBytes < limits.maxInputBytes {
            // The side files' own bound, not --max-input-size: none of UIKit's comes near it.
            return .failure(Problem(description: "it is larger than \(ByteSize.text(maximumSidecarBytes)), more than UIKit writes in this file"))
        } catch {
            return .failure(Problem(description: error.description))
        }
    }
}
