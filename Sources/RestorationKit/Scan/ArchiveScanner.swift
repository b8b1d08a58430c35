/// Finds every state-restoration archive under directories (a simulator's device folder, all of
/// `~/Library/Developer/CoreSimulator/Devices`, an unpacked backup) and sums each up.
public struct ArchiveScanner: Sendable {
    public var limits: DecodingLimits
    /// How deep to descend below each starting directory; symbolic links are never followed,
    /// so a link cycle cannot trap the walk.
    public var maxDirectoryDepth: Int

    public init(limits: DecodingLimits = .default, maxDirectoryDepth: Int = 64) {
        self.limits = limits
        self.maxDirectoryDepth = maxDirectoryDepth
    }

    public struct Result: Sendable {
        public var rows: [ScanRow]
        /// Directories that could not be read (starting ones, those met on the way, scene-session
        /// folders), each with the system's reason ("Permission denied").
        public var unreadable: [(path: String, reason: String)]
        /// By starting directory: how many directories `maxDirectoryDepth` kept the walk out of,
        /// and the first of them.
        public var notSearched: [(root: String, count: Int, first: String)]
    }

    /// How far a scan has come: folders walked, archives read.
    public struct Progress: Sendable {
        public var folders = 0
        public var archives = 0
    }

    /// Scans `roots`; `progress` is told how far it has come after each folder walked and each
    /// archive read, for a long scan to show (it must be quick).
    public func scan(_ roots: [String], progress: (Progress) -> Void = { _ in }) -> Result {
        var rows: [ScanRow] = []
        var unreadable: [(path: String, reason: String)] = []
        var notSearched: [(root: String, count: Int, first: String)] = []
        var done = Progress()
        for root in roots {
            var tooDeep: [String] = []
            let walked = done.folders
            guard let savedStates = savedStateDirectories(under: root, unreadable: &unreadable, tooDeep: &tooDeep, progress: { folders in
                done.folders = walked + folders
                progress(done)
            }) else {
                unreadable.append((root, Self.reason(root)))
                continue
            }
            if let first = tooDeep.first { notSearched.append((root, tooDeep.count, first)) }
            // macOS 15's daemon container names its folders by UUID, mapped to apps beside them.
            var mappings: [String: ApplicationMapping?] = [:]
            for directory in savedStates {
                guard let archives = SavedStateDirectory.archives(in: directory, unreadable: &unreadable) else {
                    unreadable.append((directory, Self.reason(directory)))
                    continue
                }
                let parent = SavedStateReading.folder(of: directory)
                if mappings[parent] == nil { mappings[parent] = .some(ApplicationMapping(in: parent, limits: limits)) }
                let mapping = mappings[parent]!
                // The .savedState folder's own side files are read once for all its archives.
                let sidecars = SavedStateDirectory.sidecarDiagnostics(in: directory, limits: limits)
                var found: [ScanRow] = []
                for archive in archives {
                    found += self.rows(archive, savedState: directory, sidecars: sidecars)
                    done.archives += 1
                    progress(done)
                }
                found += sessionRowsWithoutActivity(in: directory, found: found)
                found += rowsOfFilesNotRead(in: directory, found: found)
                if let mapping {
                    for index in found.indices {
                        if let app = mapping.app(for: found[index].bundleIdentifier) { found[index].bundleIdentifier = app }
                    }
                }
                rows += found
            }
        }
        rows.sort(by: ScanRow.newestFirst)
        return Result(rows: rows, unreadable: unreadable, notSearched: notSearched)
    }

    /// Why a directory cannot be read, in the system's words.
    static func reason(_ path: String) -> String {
        DirectoryListing.failureReason(path) ?? (DirectoryListing.isDirectory(path) ? "it changed while it was read" : "Not a directory")
    }

    /// Every `*.savedState` directory at or below `root`, those inside another included (a
    /// `.savedState` folder is searched too), found by the walk every command takes (see
    /// `FolderWalk`); nil if `root` cannot be read. Folders below it that cannot be read are
    /// added to `unreadable`; those `maxDirectoryDepth` keeps the walk out of, to `tooDeep`,
    /// but for `.savedState` folders at the limit, which are read: only a folder nested in one
    /// is missed.
    func savedStateDirectories(
        under root: String, unreadable: inout [(path: String, reason: String)], tooDeep: inout [String], progress: (Int) -> Void = { _ in }
    ) -> [String]? {
        guard let walk = FolderWalk(root, maxDepth: maxDirectoryDepth, progress: progress) else { return nil }
        unreadable += walk.unreadable
        let isSavedState = { (path: String) in path.hasSuffix(".savedState") }
        tooDeep += walk.tooDeep.filter { !isSavedState($0) }
        return walk.folders.filter(isSavedState) + walk.tooDeep.filter(isSavedState)
    }

    /// The rows of one file: one for an archive or a scene's activity, one per window for a
    /// macOS folder's records.
    private func rows(_ archive: String, savedState directory: String, sidecars: [Diagnostic]) -> [ScanRow] {
        let folder = PathText.components(directory).last.map(String.init) ?? directory
        let bundle = String(folder.dropLast(".savedState".count))
        let sceneFolder = PathText.components(archive).dropLast().last.map(String.init)
        let scene = sceneFolder == folder ? nil : sceneFolder
        var row = ScanRow(path: archive, bundleIdentifier: bundle, sceneSession: scene)
        // What validate says of the files beside the archive (the scene's, then the .savedState
        // folder's), counted as it counts them.
        let sidecarFindings = (scene.map { SavedStateDirectory.sidecarDiagnostics(in: directory + "/" + $0, limits: limits) } ?? []) + sidecars
        row.sidecarNotes = sidecarFindings.map(\.message)
        row.discardPending = sidecarFindings.contains { $0.rule == .pendingDiscard }
        row.restoreInterrupted = sidecarFindings.contains { $0.rule == .interruptedRestore }
        do {
            let contents = try InputFile.contents(of: archive, limit: limits.maxInputBytes, followingLinks: false, run: limits.run)
            // What identifies the file is kept even when it does not decode: a damaged archive
            // is evidence too.
            row.size = contents.bytes.count
            row.modificationTime = contents.modificationTime
            row.sha256 = FileDigest.sha256Hex(contents.bytes)
            let decoded = try RestorationArchive.read(bytes: contents.bytes[...], limits: limits, path: archive)
            row.kind = decoded.kind
            if case .windowRecords(let records)? = decoded.content {
                return windowRows(records, decoded, file: row).map { $0.noting(sidecarFindings) }
            }
            guard decoded.kind.isValidated else {
                row.reason = "not a restoration archive: \(decoded.kind.summary)"
                return [row.noting(sidecarFindings)]
            }
            row.timestamp = decoded.timestamp
            row.systemVersion = decoded.systemVersion
            row.bundleVersion = decoded.bundleVersion
            row.objectCount = decoded.isRestorationArchive ? decoded.objects.count : nil
            let findings = ArchiveValidator().tally(decoded)
            row.errors = findings.errors
            row.warnings = findings.warnings + sidecarFindings.count
            row = row.noting(findings.rules)
        } catch {
            row.reason = error.description
            row.isUnreadable = true
        }
        return [row.noting(sidecarFindings)]
    }

    /// A row for each scene session of `directory` that has no saved activity: a session folder
    /// without `data.data` (UIKit deletes it when the scene returns no activity), and a session
    /// `KnownSceneSessions/data.data` lists without a folder. `found` are the rows of its files.
    private func sessionRowsWithoutActivity(in directory: String, found: [ScanRow]) -> [ScanRow] {
        let folder = PathText.components(directory).last.map(String.init) ?? directory
        let bundle = String(folder.dropLast(".savedState".count))
        let withRows = Set(found.compactMap(\.sceneSession))
        var rows: [ScanRow] = []
        var folders = Set<String>()
        for entry in DirectoryListing.entries(in: directory) ?? [] where entry.kind == .directory {
            folders.insert(entry.name)
            // A directory named data.data is the folder's archive, reported as unreadable.
            guard entry.name != SavedStateDirectory.knownSceneSessions, entry.name != SavedStateDirectory.archiveName,
                  !entry.name.hasSuffix(".savedState"), !withRows.contains(entry.name) else { continue }
            var row = ScanRow(path: directory + "/" + entry.name, bundleIdentifier: bundle, sceneSession: entry.name)
            row.kind = .sceneActivity
            row.reason = "no saved activity (no data.data: UIKit deletes it when the scene returns no activity)"
            rows.append(row)
        }
        let known = directory + "/" + SavedStateDirectory.knownSceneSessions + "/" + SavedStateDirectory.archiveName
        if DirectoryListing.kind(of: known) != nil {
            let archive: RestorationArchive
            do {
                archive = try RestorationArchive.read(contentsOf: known, limits: limits, followingLinks: false)
            } catch {
                // Listed with why, as an archive that cannot be read is: it may hide sessions.
                var row = ScanRow(path: known, bundleIdentifier: bundle, sceneSession: nil)
                row.kind = .knownSceneSessions
                row.reason = error.description
                row.isUnreadable = true
                return rows + [row]
            }
            guard case .knownSceneSessions(let sessions)? = archive.content else { return rows }
            for session in sessions where !folders.contains(session) {
                var row = ScanRow(path: known, bundleIdentifier: bundle, sceneSession: session)
                row.kind = .knownSceneSessions
                row.reason = "listed in KnownSceneSessions/data.data, with no folder of its own"
                rows.append(row)
            }
        }
        return rows
    }

    /// A row for each other file of `directory` and of its scene folders that is no regular file
    /// (a FIFO `userInfo.data`, a device, a symbolic link): `scan` reads none of them, and says
    /// why, so that nothing in the folder is passed over without a word. `found` are the rows
    /// made of its files so far; the side files beside an archive are told of with its row.
    private func rowsOfFilesNotRead(in directory: String, found: [ScanRow]) -> [ScanRow] {
        let folder = PathText.components(directory).last.map(String.init) ?? directory
        let bundle = String(folder.dropLast(".savedState".count))
        let listed = Set(found.map(\.path))
        let toldWithTheArchive: Set<Substring> = [Substring(SavedStateDirectory.inProgressName), Substring(SavedStateDirectory.restorationInfoName), "windows.plist"]
        guard let walk = FolderWalk(directory, maxDepth: 2) else { return [] }
        return walk.files.compactMap { path -> ScanRow? in
            let components = PathText.components(path.dropFirst(directory.count + 1))
            guard !listed.contains(path), let name = components.last, !toldWithTheArchive.contains(name),
                  !components.dropLast().contains(where: { $0.hasSuffix(".savedState") }),
                  let kind = DirectoryListing.kind(of: path), kind != .file else { return nil }
            var row = ScanRow(path: path, bundleIdentifier: bundle, sceneSession: nil)
            row.kind = .propertyList
            do throws(ArchiveError) {
                _ = try InputFile.read(path, limit: 0, followingLinks: false)
                row.reason = "not read"
            } catch {
                row.reason = error.description
            }
            row.isUnreadable = true
            return row
        }
    }

    /// One row per window of a macOS folder's records: its current record, with what validate
    /// finds in it.
    private func windowRows(_ records: MacWindowRecords, _ decoded: RestorationArchive, file: ScanRow) -> [ScanRow] {
        let findings = ArchiveValidator().validate(decoded)
        return records.records.filter(\.isCurrent).map { record in
            var row = file
            // Named as dump names the record: a window with several records (Mail's "Main
            // Window", `_NS:146`, `_NSWindow`) has a row for each, told apart by the name.
            row.window = record.label
            row.windowID = record.windowID
            row.record = record.name
            row.title = record.values["rchv"]?.archiveValue?.top["NSTitle"]?.stringValue
            let own = findings.filter { $0.key == "window \(record.windowID)" }
            row.errors = own.filter { $0.severity == .error }.count
            row.warnings = own.count - row.errors! + file.sidecarNotes.count
            if case .noKey(let why) = record.status { row.reason = "not decrypted: " + why }
            // Without a list of keys nothing of the file could be read: as unreadable as a file
            // that cannot be opened.
            row.isUnreadable = records.lacksKeys
            return row.noting(own)
        }
    }
}

/// One archive found by `ArchiveScanner`.
public struct ScanRow: Sendable {
    public var path: String
    /// From the `.savedState` folder's name.
    public var bundleIdentifier: String
    /// The scene-session folder, for iOS 13+ scene archives.
    public var sceneSession: String?
    /// What the file is.
    public var kind: SavedStateKind = .restorationArchive
    /// For a macOS folder's records, the record as `dump` names it: `window <id>`, and the
    /// record's name when it is not `_NSWindow` (`window 4294967295 _NSApplication`).
    public var window: String?
    /// For a macOS folder's records: the window's id, the record's name (its envelope's:
    /// `_NSWindow`, `Main Window`, `_NS:146`) and the window's title (`NSTitle`).
    public var windowID: UInt32?
    public var record: String?
    public var title: String?

    /// The window as the table, CSV and time line show it: the record's name, then its title
    /// in double quotes, so that a title never reads as a status. Escaped.
    public var windowText: String? {
        guard let window else { return nil }
        guard let title else { return TextEscaping.escape(window) }
        return TextEscaping.escape(window) + " \"" + TextEscaping.escape(title).replacingQuotes() + "\""
    }
    /// When the archive says it was saved (seconds since 2001, as stored).
    public var timestamp: Double?
    /// The archive file's modification time.
    public var modificationTime: FileTime?
    /// The archive file's size in bytes and SHA-256, of the bytes that were decoded.
    public var size: Int?
    public var sha256: String?
    public var systemVersion: String?
    public var bundleVersion: String?
    public var objectCount: Int?
    public var errors: Int?
    public var warnings: Int?
    /// The validation rules that reported something, each once, in the order first reported.
    public var findings: [String] = []
    /// Why the archive could not be read, or is no restoration archive.
    public var reason: String?
    /// Whether the archive could not be read at all (`scan` exits with 2); a scene's
    /// user-activity state or a keyed archive of another kind is read, just not validated.
    public var isUnreadable = false
    /// What `validate` finds in `inprogress.data` and `restorationInfo.plist` beside the archive:
    /// a pending discard, an interrupted restore, a file that cannot be read (all warnings).
    public var sidecarNotes: [String] = []
    /// Whether one more interrupted restore, or the next launch, deletes the archive.
    public var discardPending = false
    /// Whether a restore was interrupted, with attempts to spare.
    public var restoreInterrupted = false

    /// What the STATUS column adds about `inprogress.data`.
    public var restoreNote: String? {
        discardPending ? "discard pending" : restoreInterrupted ? "restore interrupted" : nil
    }

    public init(path: String, bundleIdentifier: String, sceneSession: String?) {
        self.path = path
        self.bundleIdentifier = bundleIdentifier
        self.sceneSession = sceneSession
    }

    /// The row with the rules of `diagnostics` added to `findings`.
    func noting(_ diagnostics: [Diagnostic]) -> ScanRow {
        noting(diagnostics.map(\.rule))
    }

    /// The row with `rules` added to `findings`, each once, in order.
    func noting(_ rules: [ValidationRule]) -> ScanRow {
        var row = self
        for rule in rules.map(\.rawValue) where !row.findings.contains(rule) {
            row.findings.append(rule)
        }
        return row
    }

    /// One word: "valid", "invalid", "unreadable", or "skipped" for a file that was read but
    /// holds no restoration archive (a scene's user-activity state, another keyed archive).
    public var verdict: String {
        if isUnreadable { return "unreadable" }
        if reason != nil || errors == nil { return "skipped" }
        return errors == 0 ? "valid" : "invalid"
    }

    /// "valid", "valid (1 warning)", "invalid (2 errors)", "invalid (2 errors, 1 warning)",
    /// "unreadable: …" (or "skipped: …" for a file read but not validated): `validate`'s verdict and counts.
    public var status: String {
        if let reason { return (isUnreadable ? "unreadable: " : "skipped: ") + reason }
        guard let errors else { return "unknown" }
        var counts: [String] = []
        if errors > 0 { counts.append(Self.count(errors, "error")) }
        if let warnings, warnings > 0 { counts.append(Self.count(warnings, "warning")) }
        let verdict = errors == 0 ? "valid" : "invalid"
        return counts.isEmpty ? verdict : verdict + " (" + counts.joined(separator: ", ") + ")"
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// Newest first, by the time the archive gives; rows without a time that can be shown (none,
    /// NaN, infinite, or outside the years 1 to 9999: the SAVED column shows `-` for each) last,
    /// by path, so that a row sorts as it reads.
    static func newestFirst(_ a: ScanRow, _ b: ScanRow) -> Bool {
        func time(_ row: ScanRow) -> Double? { row.timestamp.flatMap { ReferenceDate.iso8601($0) == nil ? nil : $0 } }
        switch (time(a), time(b)) {
        case (let x?, let y?) where x != y: return x > y
        case (.some, nil): return true
        case (nil, .some): return false
        default: return a.path < b.path
        }
    }
}
