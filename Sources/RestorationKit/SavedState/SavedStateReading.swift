/// Reads any file of a `.savedState` folder, iOS or macOS, into the model every command reads:
/// a keyed archive as it is, any other file shown as one (its content as the archive's keys,
/// what it is in notes; see `RestorationArchive.kind`).
package enum SavedStateReading {
    /// Options for files of other kinds than keyed archives.
    package struct Options: Sendable {
        /// Whether older records of a macOS window are shown, not only its current one.
        package var includesHistory = false

        package init(includesHistory: Bool = false) {
            self.includesHistory = includesHistory
        }
    }

    /// A file told apart before it is read as a property list: macOS window records, or a
    /// window snapshot (by its name, `window_<N>.data`). Nil for any other file.
    static func readUnlessPropertyList(bytes: ArraySlice<UInt8>, path: String?, limits: DecodingLimits, options: Options) throws(ArchiveError) -> RestorationArchive? {
        if MacWindowRecords.starts(bytes) {
            let (windows, source) = windowList(besides: path, limits: limits)
            let (records, shown) = try MacWindowRecords.read(bytes, windows: windows, keySource: source, limits: limits, includingHistory: options.includesHistory)
            return RestorationArchive.shown(
                kind: .macWindowRecords, content: .windowRecords(records), tape: shown, notes: records.notes(includingHistory: options.includesHistory), limits: limits)
        }
        if let path, isSnapshotName(path), PropertyListReader.knownFormat(of: bytes) == nil {
            let note = "\(SavedStateKind.macWindowSnapshot.summary) (\(bytes.count) bytes): AppKit encrypts snapshots with a key kept in the keychain, not in windows.plist, so it cannot be read offline"
            return RestorationArchive.shown(kind: .macWindowSnapshot, content: .windowSnapshot(bytes.count), tape: .of(KeyedArchive(top: .empty)), notes: [note], limits: limits)
        }
        return nil
    }

    /// A plain property list decoded on `tape`, shown as what it holds: a root dictionary of
    /// string keys as the archive's `$top`, on the same tape.
    static func plain(_ tape: ArchiveTape, path: String?, limits: DecodingLimits) -> RestorationArchive {
        let root = tape.value(tape.root)
        if let activity = SceneActivity(root: root) {
            return shown(root, kind: .sceneActivity, content: .sceneActivity(activity), notes: activity.notes, limits: limits)
        }
        if let list = MacWindowList(root: root) {
            return RestorationArchive.shown(
                kind: .macWindowList, content: .windowList(list), tape: ArchiveTape(showing: tape, labelled: list.shownEntries), notes: list.notes, limits: limits)
        }
        if let path, isKnownSceneSessionsPath(path), let dictionary = root.dictionaryValue {
            let sessions = dictionary.entries.compactMap(\.key.stringValue)
            let note = "\(SavedStateKind.knownSceneSessions.summary): \(sessions.count) \(sessions.count == 1 ? "session" : "sessions"), keyed by persistent identifier; keyed archives in the values are decoded"
            return shown(root, kind: .knownSceneSessions, content: .knownSceneSessions(sessions), notes: [note], limits: limits)
        }
        var note = "\(SavedStateKind.propertyList.summary) (no $archiver): shown with the keyed archives in its data decoded"
        if !root.hasStringKeys { note += "; its root is \(root.kindDescription), shown under \(rootKey)" }
        return shown(root, kind: .propertyList, content: nil, notes: [note], limits: limits)
    }

    /// The key a root that is no string-keyed dictionary is shown under.
    static let rootKey = "(root)"

    /// `root` shown as an archive's `$top`, on the tape it was read into: itself when it is a
    /// dictionary of string keys, else under `rootKey`.
    private static func shown(_ root: ArchiveValue, kind: SavedStateKind, content: SavedStateContent?, notes: [String], limits: DecodingLimits) -> RestorationArchive {
        let tape = root.hasStringKeys ? ArchiveTape(showing: root.tape, top: root.node) : ArchiveTape(showing: root.tape, labelled: [(rootKey, root.node)])
        return RestorationArchive.shown(kind: kind, content: content, tape: tape, notes: notes, limits: limits)
    }

    /// `windows.plist` in the folder of `path`, and where the keys came from, in words.
    static func windowList(besides path: String?, limits: DecodingLimits) -> (MacWindowList?, String) {
        guard let path, path != "-" else { return (nil, "read from standard input: no windows.plist to take the keys from, so no record can be decrypted") }
        let folder = self.folder(of: path)
        let listPath = (folder.isEmpty ? "" : folder + "/") + "windows.plist"
        guard DirectoryListing.kind(of: listPath) != nil else {
            return (nil, "no windows.plist beside this file: the records cannot be decrypted without the keys it holds")
        }
        do throws(ArchiveError) {
            guard let root = try plainRoot(at: listPath, limit: limits.maxInputBytes, limits: limits), let list = MacWindowList(root: root) else {
                return (nil, "windows.plist beside this file is no list of windows: the records cannot be decrypted")
            }
            let source = "keys from windows.plist beside this file (\(list.entries.count) \(list.entries.count == 1 ? "entry" : "entries"))"
            return (list, ([source] + list.repeatedIDNotes).joined(separator: "; "))
        } catch {
            return (nil, "windows.plist beside this file cannot be read (\(error.description)): the records cannot be decrypted")
        }
    }

    /// The root value of the plain property list at `path` (a side file: `windows.plist`,
    /// `ApplicationMapping.plist`), read up to `limit` bytes without following a link; nil
    /// for a keyed archive.
    static func plainRoot(at path: String, limit: Int, limits: DecodingLimits) throws(ArchiveError) -> ArchiveValue? {
        let bytes = try InputFile.read(path, limit: limit, followingLinks: false, run: limits.run)
        var state = DecodingState(limits: limits, allowsConcurrency: false)
        let tape = try state.decodeFile(bytes[...], allowsPlain: true)
        return tape.isPlainPropertyList ? tape.value(tape.root) : nil
    }

    /// The folder `path` is in ("" for a bare name).
    static func folder(of path: String) -> String {
        PathText.components(path, omittingEmpty: false).dropLast().joined(separator: "/")
    }

    static func isSnapshotName(_ path: String) -> Bool {
        let name = PathText.components(path).last.map(String.init) ?? path
        guard name.hasPrefix("window_"), name.hasSuffix(".data") else { return false }
        let number = name.dropFirst("window_".count).dropLast(".data".count)
        return !number.isEmpty && number.allSatisfy(\.isASCIIDigit)
    }

    static func isKnownSceneSessionsPath(_ path: String) -> Bool {
        let components = PathText.components(path)
        return components.count >= 2 && components.last == "data.data" && components[components.count - 2] == "KnownSceneSessions"
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
