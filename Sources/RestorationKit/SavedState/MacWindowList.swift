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
        /// Every key of the entry, as written.
        public var fields: ArchiveFields
    }

    /// The dictionaries of the array, in order.
    public var entries: [Entry]
    /// The array's members that are not dictionaries, by position.
    public var otherMembers: [(position: Int, kind: String)]

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
        for (position, member) in members.enumerated() {
            guard member.kind == .dictionary, let fields = member.fields else {
                others.append((position, member.kindDescription))
                continue
            }
            var entry = Entry(windowID: fields["NSWindowID"]?.integerValue, dataKey: nil, title: fields["NSTitle"]?.stringValue,
                              isMainMenuBar: fields["NSIsMainMenuBar"] == .boolean(true), isGlobal: fields["NSIsGlobal"] == .boolean(true),
                              fields: fields)
            if let data = fields["NSDataKey"]?.dataValue { entry.dataKey = Array(data) }
            entries.append(entry)
        }
        guard entries.contains(where: { $0.fields["NSWindowID"] != nil || $0.fields["NSDataKey"] != nil }) else { return nil }
        self.entries = entries
        self.otherMembers = others
    }

    /// The entry of the window whose records carry `windowID`: the last one listed, as a
    /// dictionary built from the list would keep it.
    public func entry(for windowID: UInt32) -> Entry? {
        entries.last { $0.windowID == Int128(windowID) }
    }

    /// How a key names an entry: `window <id>`, or `entry <position>` without an integer id.
    func label(of entry: Entry, at position: Int) -> String {
        entry.windowID.map { "window \($0)" } ?? "entry \(position)"
    }

    /// The list as the fields `dump` shows: one per entry, its dictionary as written.
    var shownFields: ArchiveFields {
        var keys: [String] = []
        var values: [ArchiveValue] = []
        for (position, entry) in entries.enumerated() {
            keys.append(label(of: entry, at: position))
            values.append(.dictionary(ArchiveDictionary(entries: entry.fields.entries.map { .init(key: .string($0.0), value: $0.1) })))
        }
        return ArchiveFields(keys: keys, values: values)
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
        return notes
    }
}
