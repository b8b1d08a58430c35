extension RestorationTree {
    /// The tree of a saved-state file other than a restoration archive: one root per macOS
    /// window (its current record, or its windows.plist entry), per scene session listed, or
    /// for a scene's activity. Nil for a file with nothing to draw (a plain property list, a
    /// window snapshot).
    public init?(savedState archive: RestorationArchive) {
        let roots: [Line]
        switch archive.content {
        case .windowRecords(let records)?:
            roots = records.records.filter(\.isCurrent).map { record in
                var label = record.label
                if let title = record.values["rchv"]?.archiveValue?.top["NSTitle"]?.stringValue { label += " \"\(title)\"" }
                if record.olderRecords > 0 { label += " (\(record.olderRecords) older \(record.olderRecords == 1 ? "record" : "records"))" }
                return Self.leaf(label, problem: record.status.problem)
            }
        case .windowList(let list)?:
            roots = list.entries.enumerated().map { position, entry in
                var label = list.label(of: entry, at: position)
                if let title = entry.title { label += " \"\(title)\"" }
                if entry.isMainMenuBar { label += " (main menu bar)" }
                if entry.isGlobal { label += " (app-level entry)" }
                return Self.leaf(label, problem: nil)
            }
        case .sceneActivity(let activity)?:
            var label = "activity " + (activity.activityType ?? "(no type)")
            if let title = activity.title { label += " \"\(title)\"" }
            roots = [Self.leaf(label, problem: activity.userInfoProblem)]
        case .knownSceneSessions(let sessions)?:
            roots = sessions.map { Self.leaf("session " + $0, problem: nil) }
        case .windowSnapshot?, nil:
            return nil
        }
        self.init(depthFirst: roots.map { ($0, 0) })
    }

    private static func leaf(_ label: String, problem: String?) -> Line {
        Line(identifierPath: IdentifierPath(label), label: label, stateProblem: problem)
    }
}
