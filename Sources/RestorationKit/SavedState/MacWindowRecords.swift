/// macOS AppKit's `data.data`: records appended one after another, each a 16-byte header
/// (`NSCR1000`, the window id and the record's length, header included, both big-endian u32)
/// and AES-128-CBC ciphertext under that window's `NSDataKey` (see `MacWindowList`), zero IV.
///
/// The plaintext is an envelope: a u32 of unknown meaning, the name's length and the name
/// (`_NSWindow`), then tagged values (four letters, a big-endian u32 length, the bytes), the
/// first an `rchv`: the window's keyed archive. See docs/formats/macos-saved-state.md.
public struct MacWindowRecords: Sendable, Hashable {
    public struct Record: Sendable, Hashable {
        public enum Status: Sendable, Hashable {
            /// Decrypted, its envelope read.
            case readable
            /// No key for its window: no windows.plist, no entry with its id, or a key that is no
            /// 16 bytes of data.
            case noKey(String)
            /// Decrypted with its window's key into something that is no envelope.
            case wrongKey(String)
            /// Its length runs past the end of the file, is too short for a header, or leaves
            /// ciphertext that is not whole blocks.
            case torn(String)

            /// One word a program can switch on: `readable`, `noKey`, `wrongKey` or `torn`.
            public var code: String {
                switch self {
                case .readable: "readable"
                case .noKey: "noKey"
                case .wrongKey: "wrongKey"
                case .torn: "torn"
                }
            }

            /// Why it could not be read, in words; nil when it could.
            public var reason: String? {
                switch self {
                case .readable: nil
                case .noKey(let why), .wrongKey(let why), .torn(let why): why
                }
            }

            /// What a person reads: `no key: why`; nil when it could be read.
            public var problem: String? {
                switch self {
                case .readable: nil
                case .noKey(let why): "no key: " + why
                case .wrongKey(let why): "wrong key: " + why
                case .torn(let why): "torn: " + why
                }
            }
        }

        /// Where the record starts in the file.
        public var offset: Int
        public var windowID: UInt32
        /// The length the header gives, header included.
        public var length: Int
        public var status: Status
        /// The envelope's name (`_NSWindow`) and first field, once decrypted.
        public var name: String?
        public var envelopeField: UInt32?
        /// The envelope's tagged values by tag, in order: an `rchv` holds the window's archive.
        public var values: ArchiveFields = .empty
        /// Whether it is the last record of its window (and name): the window's current state.
        public var isCurrent = false
        /// How many records of its window (and name) come before it.
        public var olderRecords = 0
    }

    public var records: [Record]
    /// Bytes at the end that start no record, and why.
    public var unreadTail: (offset: Int, reason: String)?
    /// Where the keys came from, in words.
    public var keySource: String

    /// Whether there were records but no list of keys to decrypt them (no `windows.plist`
    /// beside the file, or one that cannot be read; `keySource` says which): then nothing in
    /// the file could be checked.
    public var lacksKeys = false

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.records == rhs.records && lhs.unreadTail?.offset == rhs.unreadTail?.offset
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(records)
    }

    static let magic: [UInt8] = Array("NSCR1000".utf8)
    static let headerSize = 16
    /// The longest envelope name accepted: mac_apt rejects longer ones as a wrong key.
    static let maximumNameLength = 64
    /// The values a record costs against `DecodingLimits.maxNodes` before its archive: what
    /// showing its header takes.
    static let nodesPerRecord = 8

    /// Whether `bytes` start as a record file does.
    static func starts(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count >= 8 && bytes.prefix(8).elementsEqual(magic)
    }

    /// Reads the records of `bytes`, decrypting each with its window's key from `windows` (nil
    /// when there is no windows.plist to read), within `limits`: every record counts against
    /// the values, and the archives they hold are decoded as nested archives of one file.
    ///
    /// Every record's first blocks are decrypted, which hold its envelope's name (the name tells
    /// which record is current) and show whether the key fits; the records shown (each
    /// window's current one, or all `includingHistory`) are decrypted whole and their values
    /// decoded. An older record is thus checked by its first blocks unless `includingHistory`.
    ///
    /// Returns the records, and the tape they were decoded on, whose root is the archive `dump`
    /// shows (see `appendShown`).
    static func read(
        _ bytes: ArraySlice<UInt8>, windows: MacWindowList?, keySource: String, limits: DecodingLimits, includingHistory: Bool = true
    ) throws(ArchiveError) -> (records: MacWindowRecords, shown: ArchiveTape) {
        var state = DecodingState(limits: limits, allowsConcurrency: false)
        defer { state.chargeRun() }
        var (records, ciphertexts, tail) = try headers(bytes, windows: windows, keySource: keySource, &state)
        // The envelopes' heads, from the first blocks.
        var head: [UInt8] = []
        for index in records.indices {
            guard let ciphertext = ciphertexts[index] else { continue }
            head.removeAll(keepingCapacity: true)
            let key = windows!.entry(for: records[index].windowID)!.dataKey!
            guard WindowRecordCipher.decrypt(ciphertext.prefix(headBytes), key: key, appendingTo: &head) else {
                records[index].status = .wrongKey("the cipher refused it")
                ciphertexts[index] = nil
                continue
            }
            switch envelopeHead(head[...], plaintextCount: ciphertext.count) {
            case .failure(let problem):
                records[index].status = .wrongKey(problem.reason)
                ciphertexts[index] = nil
            case .success(let head):
                records[index].envelopeField = head.field
                records[index].name = head.name
            }
        }
        markCurrent(&records)
        // The records shown, decrypted whole into one buffer, their values decoded as nested
        // archives over it.
        let shown = records.indices.filter { ciphertexts[$0] != nil && (includingHistory || records[$0].isCurrent) }
        var plaintext: [UInt8] = []
        plaintext.reserveCapacity(shown.reduce(0) { $0 + ciphertexts[$1]!.count })
        var envelopes: [(index: Int, envelope: Envelope)] = []
        for index in shown {
            let before = plaintext.count
            let key = windows!.entry(for: records[index].windowID)!.dataKey!
            guard WindowRecordCipher.decrypt(ciphertexts[index]!, key: key, appendingTo: &plaintext) else {
                records[index].status = .wrongKey("the cipher refused it")
                continue
            }
            switch envelope(plaintext, before..<plaintext.count) {
            case .failure(let problem): records[index].status = .wrongKey(problem.reason)
            case .success(let envelope): envelopes.append((index, envelope))
            }
        }
        state.tape.source = plaintext[...]
        // Each record's values by tag, as nodes, by the record's index.
        let decoded = try state.withSourceInPlace { (state) throws(ArchiveError) in
            var decoded = [(tags: [String], nodes: [TapeNode])?](repeating: nil, count: records.count)
            for (index, envelope) in envelopes {
                state.location = [state.tape.string("window \(records[index].windowID), record at byte \(records[index].offset)")]
                var nodes: [TapeNode] = []
                for (_, range) in envelope.values {
                    nodes.append(try NestedArchiveReader(archiveDepth: 0, inSource: true).value(of: plaintext[range], depth: 1, &state))
                }
                decoded[index] = (envelope.values.map(\.tag), nodes)
            }
            return decoded
        }
        let top = appendShown(records, decoded, includingHistory: includingHistory, to: &state.tape)
        let tape = ArchiveTape(state.tape, root: top)
        for (index, values) in decoded.enumerated() {
            guard let (tags, nodes) = values else { continue }
            records[index].values = ArchiveFields(keys: tags, values: nodes.map { tape.value($0) })
        }
        var read = MacWindowRecords(records: records, unreadTail: tail, keySource: keySource)
        read.lacksKeys = windows == nil && !records.isEmpty
        return (read, tape)
    }

    /// The records as `dump` shows them, appended to the tape their values were decoded on (the
    /// values are not copied): an archive whose keys are the records' labels, each window's
    /// current record in file order, and the older ones too `includingHistory`.
    private static func appendShown(
        _ records: [Record], _ decoded: [(tags: [String], nodes: [TapeNode])?], includingHistory: Bool, to tape: inout TapeBuilder
    ) -> TapeNode {
        let mark = tape.stack.count
        for (index, record) in records.enumerated() where includingHistory || record.isCurrent {
            let label = tape.text(.string, record.label)
            tape.stack.append(label)
            let values = decoded[index] ?? ([], [])
            let shown = record.appendShown(tags: values.tags, values: values.nodes, to: &tape)
            tape.stack.append(shown)
        }
        return tape.popEntries(as: .archive, from: mark)
    }

    /// How much of a record is decrypted to read its envelope's head: the two words, a name of
    /// at most `maximumNameLength` bytes, the first tag and length, and 8 bytes of its value.
    static let headBytes = 96

    /// The records' headers: each record with what is known before decrypting it, the
    /// ciphertext of those that have a key, and bytes at the end that start no record.
    private static func headers(
        _ bytes: ArraySlice<UInt8>, windows: MacWindowList?, keySource: String, _ state: inout DecodingState
    ) throws(ArchiveError) -> ([Record], [ArraySlice<UInt8>?], (offset: Int, reason: String)?) {
        var records: [Record] = []
        var ciphertexts: [ArraySlice<UInt8>?] = []
        var offset = bytes.startIndex
        var tail: (Int, String)?
        while bytes.endIndex - offset >= headerSize {
            let start = offset - bytes.startIndex
            guard bytes[offset..<(offset + 8)].elementsEqual(magic) else {
                tail = (start, "\(bytes.endIndex - offset) bytes from byte \(start) on do not start a record (no NSCR1000): not read")
                break
            }
            try state.consume(nodesPerRecord)
            let windowID = bigEndian(bytes, offset + 8)
            let length = Int(bigEndian(bytes, offset + 12))
            var record = Record(offset: start, windowID: windowID, length: length, status: .readable)
            guard length > headerSize, length <= bytes.endIndex - offset else {
                // A record that lost its length must not hide the ones after it: the bytes that
                // follow are searched for the next record's header.
                let next = nextHeader(in: bytes, from: offset + 8)
                let following = (next ?? bytes.endIndex) - (offset + headerSize)
                let rest = next.map { " (the next record starts at byte \($0 - bytes.startIndex): \(max(0, following)) bytes between are not read)" }
                    ?? (following > 0 ? " (the \(following) bytes after its header hold no other record: not read)" : "")
                record.status = .torn((length <= headerSize
                    ? "its length of \(length) bytes leaves no room for ciphertext after the 16-byte header"
                    : "its length of \(length) bytes runs past the end of the file, \(bytes.endIndex - offset) bytes from its start") + rest)
                records.append(record)
                ciphertexts.append(nil)
                guard let next else { return (records, ciphertexts, nil) }
                offset = next
                continue
            }
            let ciphertext = bytes[(offset + headerSize)..<(offset + length)]
            offset += length
            var readable: ArraySlice<UInt8>?
            if ciphertext.count % 16 != 0 {
                record.status = .torn("its \(ciphertext.count) bytes of ciphertext are not a whole number of 16-byte AES blocks")
            } else if let problem = keyProblem(windowID, windows, keySource: keySource) {
                record.status = .noKey(problem)
            } else {
                readable = ciphertext
            }
            records.append(record)
            ciphertexts.append(readable)
        }
        if tail == nil, offset < bytes.endIndex {
            let start = offset - bytes.startIndex
            tail = (start, "the last \(bytes.endIndex - offset) bytes, from byte \(start), are too few for a record's 16-byte header: not read")
        }
        return (records, ciphertexts, tail)
    }

    /// Where the next `NSCR1000` starts, from `start` on; nil if none does.
    private static func nextHeader(in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var position = start
        while position + magic.count <= bytes.endIndex {
            guard let found = bytes[position...].firstIndex(of: magic[0]), found + magic.count <= bytes.endIndex else { return nil }
            if bytes[found..<(found + magic.count)].elementsEqual(magic) { return found }
            position = found + 1
        }
        return nil
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>, _ at: Int) -> UInt32 {
        bytes[at..<(at + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Why the records of `windowID` cannot be decrypted, or nil when there is a key; without a
    /// list of keys, why there is none (`keySource`: none beside the file, or one that cannot
    /// be read, and why).
    private static func keyProblem(_ windowID: UInt32, _ windows: MacWindowList?, keySource: String) -> String? {
        guard let windows else { return keySource }
        guard let entry = windows.entry(for: windowID) else { return "windows.plist has no entry with NSWindowID \(windowID) (keys are replaced as windows close)" }
        guard let key = entry.dataKey else { return "its windows.plist entry has no NSDataKey data" }
        guard key.count == 16 else { return "its NSDataKey is \(key.count) bytes, not 16" }
        return nil
    }

    private struct Envelope {
        var field: UInt32
        var name: String
        var values: [(tag: String, range: Range<Int>)]
    }

    private struct EnvelopeProblem: Error {
        var reason: String
    }

    /// The envelope of a decrypted record, or why the plaintext is none: the check that tells
    /// a wrong key (a sane name length, `rchv` first, a binary property list in it).
    private static func envelope(_ plaintext: [UInt8], _ range: Range<Int>) -> Result<Envelope, EnvelopeProblem> {
        let bytes = plaintext[range]
        let (field, name, nameLength): (UInt32, String, Int)
        switch envelopeHead(bytes, plaintextCount: bytes.count) {
        case .failure(let problem): return .failure(problem)
        case .success(let head): (field, name, nameLength) = head
        }
        // The head checked the name and the `rchv` value that follows it; the values, that one
        // first, run to the first that is no tag of four printable letters or does not fit.
        var values: [(String, Range<Int>)] = []
        var position = range.lowerBound + 8 + nameLength
        while range.upperBound - position >= 8 {
            let tagBytes = bytes[position..<(position + 4)]
            guard tagBytes.allSatisfy({ (0x20...0x7e).contains($0) }) else { break }
            let length = Int(bigEndian(bytes, position + 4))
            guard length <= range.upperBound - position - 8 else { break }
            values.append((String(decoding: tagBytes, as: UTF8.self), (position + 8)..<(position + 8 + length)))
            position += 8 + length
        }
        return .success(Envelope(field: field, name: name, values: values))
    }

    /// The first field and name of an envelope, or why the plaintext is none: the checks that
    /// tell a wrong key (a name of at most `maximumNameLength` bytes, an `rchv` value after it
    /// that fits the plaintext's `plaintextCount` bytes, a binary property list in it). `head`
    /// may be the plaintext's first `headBytes` bytes only: that is enough.
    private static func envelopeHead(_ head: ArraySlice<UInt8>, plaintextCount: Int) -> Result<(field: UInt32, name: String, nameLength: Int), EnvelopeProblem> {
        let start = head.startIndex
        guard head.count >= 8 else { return .failure(EnvelopeProblem(reason: "its plaintext is too short for an envelope")) }
        let nameLength = Int(bigEndian(head, start + 4))
        guard nameLength <= maximumNameLength, 8 + nameLength + 8 <= plaintextCount else {
            return .failure(EnvelopeProblem(reason: "its plaintext gives a name of \(nameLength) bytes, not an envelope's (the key does not fit)"))
        }
        let tagStart = start + 8 + nameLength
        let archiveStart = tagStart + 8
        guard head[tagStart..<(tagStart + 4)].elementsEqual("rchv".utf8),
              Int(bigEndian(head, tagStart + 4)) <= plaintextCount - (archiveStart - start) else {
            return .failure(EnvelopeProblem(reason: "its plaintext has no rchv value after the name (the key does not fit)"))
        }
        guard Int(bigEndian(head, tagStart + 4)) >= 8, head[archiveStart..<min(head.endIndex, archiveStart + 8)].elementsEqual("bplist00".utf8) else {
            return .failure(EnvelopeProblem(reason: "its rchv value is not a binary property list (the key does not fit)"))
        }
        // A byte that is not UTF-8 is kept as it is (see `RawPath`) and shown as `\xNN`: two
        // different names never look alike.
        return .success((bigEndian(head, start), RawPath.string(head[(start + 8)..<tagStart]), nameLength))
    }

    /// Marks each window's (and name's) last record current and counts the records before it.
    private static func markCurrent(_ records: inout [Record]) {
        struct Group: Hashable {
            var windowID: UInt32
            var name: String?
        }
        var last: [Group: Int] = [:]
        var counts: [Group: Int] = [:]
        for (index, record) in records.enumerated() {
            let group = Group(windowID: record.windowID, name: record.name)
            last[group] = index
            counts[group, default: 0] += 1
        }
        for (group, index) in last {
            records[index].isCurrent = true
            records[index].olderRecords = counts[group]! - 1
        }
    }
}

extension MacWindowRecords.Record {
    /// How a key names the record: `window <id>`, with its name when it is not `_NSWindow`,
    /// and for an older record where it is.
    var label: String {
        var label = "window \(windowID)"
        if let name, name != "_NSWindow" { label += " " + name }
        if !isCurrent { label += " (older record at byte \(offset))" }
        return label
    }

    /// The record as `dump` shows it, appended to `tape`: where it is, whether it could be read
    /// (and why not), the envelope's name and first field, then its values by tag (`values`,
    /// nodes of `tape`), then the window's frame as numbers.
    fileprivate func appendShown(tags: [String], values: [TapeNode], to tape: inout TapeBuilder) -> TapeNode {
        let mark = tape.stack.count
        func entry(_ key: String, _ value: TapeNode) {
            let name = tape.text(.string, key)
            tape.stack.append(name)
            tape.stack.append(value)
        }
        entry("recordOffset", tape.integer(Int128(offset)))
        entry("recordLength", tape.integer(Int128(length)))
        entry("windowID", tape.integer(Int128(windowID)))
        if isCurrent { entry("olderRecords", tape.integer(Int128(olderRecords))) }
        // A code to switch on, and apart from it why, so that neither is parsed out of the other.
        entry("status", tape.text(.string, status.code))
        if let reason = status.reason { entry("reason", tape.text(.string, reason)) }
        if let name { entry("name", tape.text(.string, name)) }
        if let envelopeField { entry("envelopeField", tape.integer(Int128(envelopeField))) }
        for (tag, value) in zip(tags, values) { entry(tag, value) }
        if let frame = Self.windowFrame(tags: tags, values: values, on: tape) {
            func rectangle(_ at: Int) -> TapeNode {
                let mark = tape.stack.count
                for (index, name) in ["x", "y", "width", "height"].enumerated() {
                    let number = frame[at + index]
                    entry(name, number == number.rounded() && abs(number) < 1e15 ? tape.integer(Int128(number)) : TapeNode(.real, payload: number.bitPattern))
                }
                return tape.popEntries(as: .dictionary, from: mark)
            }
            let frameMark = tape.stack.count
            entry("window", rectangle(0))
            if frame.count == 8 { entry("screen", rectangle(4)) }
            entry("windowFrame", tape.popEntries(as: .dictionary, from: frameMark))
        }
        return tape.popEntries(as: .dictionary, from: mark)
    }

    /// The window archive's `NSWindowFrame` as numbers, shown beside its text: AppKit writes
    /// eight space-separated numbers, the window's x, y, width and height, then its screen's
    /// (`"0 504 570 371 0 0 1440 875 "`, in every window archive of the real folders read), so
    /// that a program reads a width without parsing text. Nil when the first `rchv` value is
    /// no archive, or its first `NSWindowFrame` is no string of four or eight numbers.
    private static func windowFrame(tags: [String], values: [TapeNode], on tape: TapeBuilder) -> [Double]? {
        guard let position = tags.firstIndex(of: "rchv"), case let archive = values[position], archive.kind == .archive else { return nil }
        let (first, count) = (archive.first, archive.memberCount)
        guard let key = (0..<count).first(where: { tape.textEquals(tape.nodes[first + $0], "NSWindowFrame") }) else { return nil }
        let value = tape.nodes[first + count + key]
        guard value.kind == .string else { return nil }
        let numbers = tape.string(of: value).split(separator: " ").map { Double($0) }
        guard numbers.count == 4 || numbers.count == 8, numbers.allSatisfy({ $0?.isFinite == true }) else { return nil }
        return numbers.map { $0! }
    }
}

extension MacWindowRecords {
    /// What `dump` notes about the records.
    func notes(includingHistory: Bool) -> [String] {
        let windows = Set(records.map(\.windowID)).count
        let older = records.filter { !$0.isCurrent }.count
        var summary = "\(SavedStateKind.macWindowRecords.summary): \(records.count) \(records.count == 1 ? "record" : "records") of \(windows) \(windows == 1 ? "window" : "windows"); the last record of each window is its current state"
        if older > 0 {
            let olderWords = older == 1 ? "1 older one" : "\(older) older ones"
            summary += includingHistory ? " (\(olderWords) shown too)" : " (\(olderWords) not shown: --history shows \(older == 1 ? "it" : "them"))"
        }
        var notes = [summary, keySource]
        for record in records where record.isCurrent || includingHistory {
            switch record.status {
            case .readable: continue
            case .noKey(let why): notes.append("\(record.label) (record at byte \(record.offset)) cannot be decrypted: \(why)")
            case .wrongKey(let why): notes.append("\(record.label) (record at byte \(record.offset)) does not decrypt with its key: \(why)")
            case .torn(let why): notes.append("\(record.label) (record at byte \(record.offset)) is torn: \(why)")
            }
        }
        if let unreadTail { notes.append(unreadTail.reason) }
        return notes
    }
}
