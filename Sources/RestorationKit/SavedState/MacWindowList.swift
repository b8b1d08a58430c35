/// macOS AppKit's `windows.plist`: an array with one dictionary per restorable window (and one
/// for the main menu bar and one app-level entry). Each entry's `NSWindowID` links it to the
/// window's records in `data.data`; its `NSDataKey` is the AES-128 key of those records.
public struct MacWindowList: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        /// `NSWindowID`, when it is an integer.
        public var windowID: Int128?
        /// `NSDataKey`, when it is data.
        public var dataKey: [UInt8]?
        /// `NSTitle`, when it is a string.
        public var title: String?
        /// `NSIsMainMenuBar` and `NSIsGlobal` (the app-level entry), when they are true.
        public var isMainMenuBar: Bool
        public var isGlobal: Bool
        /// The entry's dictionary, as written.
        public var value: ArchiveValue

        /// Every key of the entry, as written.
        public var fields: ArchiveFields { value.fields ?? .empty }
    }

    /// The dictionaries of the array, in order.
    public var entries: [Entry]
    /// The array's members that are not dictionaries, by position.
    public var otherMembers: [(position: Int, kind: String)]
    /// The position in `entries` of the last entry of each `NSWindowID`: records find their key
    /// here, in one step whatever the number of entries.
    private var lastEntry: [Int128: Int] = [:]
    /// Window ids that more than one entry has, with those entries' positions, in order.
    public private(set) var repeatedIDs: [(windowID: Int128, positions: [Int])] = []

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.entries == rhs.entries && lhs.otherMembers.map(\.position) == rhs.otherMembers.map(\.position)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries)
    }

    /// The list a property list's root value holds, if it is one: an array of dictionaries at
    /// least one of which has `NSWindowID` or `NSDataKey`.
    init?(root: ArchiveValue) {
        guard root.kind == .array, let members = root.elements else { return nil }
        var entries: [Entry] = []
        var others: [(Int, String)] = []
        var hasKeys = false
        // Each entry's keys are looked up by their bytes, none made a string, and an entry the
        // list holds many times (one dictionary, shared: one node) is read once: a list may hold
        // hundreds of thousands of entries. (A dictionary's block start names it, once it has
        // members: an empty one takes no room.)
        var read: [UInt64: Entry] = [:]
        for (position, member) in members.enumerated() {
            if member.kind == .dictionary, member.node.memberCount > 0, let entry = read[member.node.payload] {
                entries.append(entry)
                continue
            }
            guard member.hasStringKeys else {
                others.append((position, member.kindDescription))
                continue
            }
            let (windowID, dataKey) = (member["NSWindowID"], member["NSDataKey"])
            hasKeys = hasKeys || windowID != nil || dataKey != nil
            let entry = Entry(windowID: windowID?.integerValue, dataKey: dataKey?.dataValue.map(Array.init), title: member["NSTitle"]?.stringValue,
                              isMainMenuBar: member["NSIsMainMenuBar"]?.boolValue == true, isGlobal: member["NSIsGlobal"]?.boolValue == true,
                              value: member)
            if member.node.memberCount > 0 { read[member.node.payload] = entry }
            entries.append(entry)
        }
        guard hasKeys else { return nil }
        self.entries = entries
        self.otherMembers = others
        var positions: [Int128: [Int]] = [:]
        var order: [Int128] = []
        for (position, entry) in entries.enumerated() {
            guard let id = entry.windowID else { continue }
            if positions[id] == nil { order.append(id) }
            positions[id, default: []].append(position)
            lastEntry[id] = position
        }
        repeatedIDs = order.compactMap { id in positions[id]!.count > 1 ? (id, positions[id]!) : nil }
    }

    /// The entry of the window whose records carry `windowID`: the last one listed, as a
    /// dictionary built from the list would keep it.
    public func entry(for windowID: UInt32) -> Entry? {
        lastEntry[Int128(windowID)].map { entries[$0] }
    }

    /// A note for each window id that more than one entry has, naming them: the records are
    /// decrypted with the last one's key.
    var repeatedIDNotes: [String] {
        repeatedIDs.map { id, positions in
            let listed = positions.map { "entry \($0)" }
            let named = listed.dropLast().joined(separator: ", ") + " and " + listed.last!
            return "NSWindowID \(id) is in \(positions.count) entries of windows.plist (\(named)): the records of window \(id) are decrypted with the last one's NSDataKey"
        }
    }

    /// How a key names an entry: `window <id>`, or `entry <position>` without an integer id.
    func label(of entry: Entry, at position: Int) -> String {
        entry.windowID.map { "window \($0)" } ?? "entry \(position)"
    }

    /// The list as the fields `dump` shows: one per entry, labelled, its dictionary as written
    /// (the node on the tape the list was read from).
    var shownEntries: [(label: String, value: TapeNode)] {
        entries.enumerated().map { position, entry in (label(of: entry, at: position), entry.value.node) }
    }

    /// What `dump` notes about the list.
    var notes: [String] {
        var notes = ["\(SavedStateKind.macWindowList.summary): \(entries.count) \(entries.count == 1 ? "entry" : "entries"); each NSDataKey decrypts the data.data records of its NSWindowID"]
        for (position, entry) in entries.enumerated() {
            if entry.isMainMenuBar { notes.append("\(label(of: entry, at: position)) is the main menu bar (NSIsMainMenuBar)") }
            if entry.isGlobal { notes.append("\(label(of: entry, at: position)) is the app-level entry (NSIsGlobal)") }
            if let key = entry.dataKey, key.count != 16 {
                notes.append("\(label(of: entry, at: position)): NSDataKey is \(key.count) bytes, not the 16 of an AES-128 key")
            } else if entry.fields["NSDataKey"] != nil, entry.dataKey == nil {
                notes.append("\(label(of: entry, at: position)): NSDataKey is \(entry.fields["NSDataKey"]!.kindDescription), not data")
            }
        }
        for (position, kind) in otherMembers {
            notes.append("member \(position) of the array is \(kind), not a window's dictionary")
        }
        return notes + repeatedIDNotes
    }
}
