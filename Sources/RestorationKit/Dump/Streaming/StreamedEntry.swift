/// A saved object's entry rendered from its own archive's bytes (UIKit's second level, views
/// included): the object's text from its `state` to its end, as `ObjectDocument` gives it for the
/// decoded object. The rest of the object's text (its path and class, see `StreamedObject`) is
/// rendered apart, so an entry can be rendered before the outer archive says whose it is.
struct StreamedEntry: Sendable {
    /// Where the entry lies in the file (indices of `StreamedTexts.file`): decoded again only
    /// for a sink that is not a text writer (see `JSONDeferred.streamedObject`). A range, not a
    /// slice: a slice would retain the file's buffer, a counter every thread would contend for.
    let entry: Range<Int>
    let limits: DecodingLimits
    /// The text after `"state": `: the state, the object's remaining members and its `}`.
    let text: RenderedText
    /// What rendering counted against the limits.
    let counts: Counts

    struct Counts {
        var nodes: Int
        var bytes: Int
        var nestedBytes: Int
    }

    private init(entry: Range<Int>, limits: DecodingLimits, output: StreamingOutput, nestedBytes: Int, context: StreamingContext) {
        self.entry = entry
        self.limits = limits
        text = context.texts.keep(output.writer.output.bytes)
        counts = Counts(nodes: output.nodes, bytes: output.bytes, nestedBytes: nestedBytes)
    }

    /// The nesting level of the members of an object in a dump document: the document, then
    /// `objects`, then the object.
    static let level = 3


    /// Renders `entry`, a saved object's entry, within what `allowance` has left, and counts it
    /// there; nil where the streaming road gives up (see `StreamedArchiveRenderer`) or the
    /// allowance has stopped.
    static func render(
        _ entry: ArraySlice<UInt8>, limits: DecodingLimits, allowance: RenderingAllowance, context: StreamingContext
    ) -> StreamedEntry? {
        entry.withUnsafeBytes { render($0, at: entry.indices, limits: limits, allowance: allowance, context: context) }
    }

    /// `render(_:limits:allowance:context:)` for an entry given as bytes, which lie at `range`
    /// in the file: the threads rendering ahead take entries this way, since each slice of the
    /// file they shared would count a reference to it, a counter they would all contend for.
    static func render(
        _ entry: UnsafeRawBufferPointer, at range: Range<Int>, limits: DecodingLimits, allowance: RenderingAllowance,
        context: StreamingContext
    ) -> StreamedEntry? {
        guard let budget = allowance.next() else { return nil }
        let rendered = context.withPrivateCopy(of: entry) { copy in
            try? render(copy, at: range, limits: limits, budget: budget, context: context)
        }
        allowance.record(rendered)
        return rendered
    }

    private static func render(
        _ copy: ArraySlice<UInt8>, at entry: Range<Int>, limits: DecodingLimits, budget: StreamingBudget, context: StreamingContext
    ) throws(GiveUp) -> StreamedEntry {
        try BinaryPropertyList.withTable(copy) { (table) throws(GiveUp) in
            var output = StreamingOutput(level: level, budget: budget, buffer: context.textBuffer)
            var nestedBytes = entry.count
            let archive = try StreamedArchiveRenderer(table: table, budget: budget, context: context)
            let views = try archive.withEntries(of: archive.top) { (fields) throws(GiveUp) in
                let viewKey: StreamedKey = "kViewRestorationDataKey"
                switch fields.count(where: { $0.key == viewKey }) {
                case 0: break
                case 1:
                    // Moved out of the state only when it is a dictionary (of view archives, or
                    // this road gives up on it); anything else stays in the state, as the model
                    // leaves it.
                    if let views = try archive.viewArchives(fields.first { $0.key == viewKey }!.value) {
                        try withFieldStorage(count: fields.count - 1) { (state) throws(GiveUp) in
                            _ = state.initialize(fromContentsOf: fields.lazy.filter { $0.key != viewKey })
                            try archive.writeFields(UnsafeBufferPointer(state), to: &output)
                        }
                        return views
                    }
                default: throw GiveUp()
                }
                try archive.writeFields(fields, to: &output)
                return []
            }
            // The members after `state`, in the writer's order, and the object's end.
            output.writeKey("stateProblem", first: false)
            output.writer.writeNull()
            output.writeKey("views", first: false)
            try output.writeObject(keys: views.map(\.key)) { (output, index) throws(GiveUp) in
                let range = views[index].bytes
                nestedBytes += range.count
                try output.countNode()
                let viewBytes = copy[(table.base + range.lowerBound)..<(table.base + range.upperBound)]
                try BinaryPropertyList.withTable(viewBytes) { (view) throws(GiveUp) in
                    let viewArchive = try StreamedArchiveRenderer(table: view, budget: budget, context: context)
                    try viewArchive.withEntries(of: viewArchive.top) { (fields) throws(GiveUp) in try viewArchive.writeFields(fields, to: &output) }
                }
            }
            output.writer.closeContainer(UInt8(ascii: "}"))
            guard nestedBytes <= budget.maxNestedBytes else { throw GiveUp() }
            return StreamedEntry(entry: entry, limits: limits, output: output, nestedBytes: nestedBytes, context: context)
        }
    }

    /// The object saved under `path` (of class `restorationClass`) with this entry of `file`,
    /// decoded the usual way.
    func decodedObject(path: IdentifierPath, restorationClass: String?, file: ArraySlice<UInt8>) -> RestorationObject {
        var object = RestorationArchive.object(path: path, entry: try? KeyedArchiveDecoder(limits: limits).decodeEntry(file[entry]))
        object.restorationClass = restorationClass
        return object
    }
}

/// The texts of a document's streamed objects (see `StreamedDump`): the rendered entries and
/// the objects' headers, held together. The document refers to them by position: making it
/// then touches no entry, each in the memory of the processor that rendered it.
///
/// Unchecked: `headers` is a `ByteBuffer`, which is not written to once the texts are made.
final class StreamedTexts: @unchecked Sendable {
    /// The file whose entries these are.
    let file: ArraySlice<UInt8>
    /// Entries rendered while the outer archive was decoded (the first `aheadCount` positions),
    /// then those rendered after it.
    private let ahead: AheadRendering?
    private let aheadCount: Int
    private let later: [StreamedEntry?]
    /// The headers of the objects, one after another (not written to again).
    let headers: ByteBuffer

    init(file: ArraySlice<UInt8>, ahead: AheadRendering?, aheadCount: Int, later: [StreamedEntry?], headers: ByteBuffer) {
        self.file = file
        self.ahead = ahead
        self.aheadCount = aheadCount
        self.later = later
        self.headers = headers
    }

    /// The entry at `position`: first those rendered ahead, then the others; nil where the
    /// renderer gave up.
    func renderedEntry(_ position: Int) -> StreamedEntry? {
        position < aheadCount ? ahead!.entry(position) : later[position - aheadCount]
    }

    /// The entry at `position`, of a document's object (so rendered).
    func entry(_ position: Int) -> StreamedEntry {
        renderedEntry(position)!
    }
}

/// A saved object of a dump document whose entry was rendered ahead: the text of the object up
/// to its state's value (its path and class, written as `ObjectDocument` writes them), and the
/// entry's. The header is rendered while the entries are, not when the document is written.
struct StreamedObject: Sendable {
    let texts: StreamedTexts
    /// The object's entry in `texts`, and its header's bytes in `texts.headers`.
    let entryPosition: Int
    let headerRange: Range<Int>

    var entry: StreamedEntry {
        texts.entry(entryPosition)
    }

    /// The nesting level of an object in a dump document, which its text is rendered for: the
    /// document, then `objects`.
    static var level: Int { StreamedEntry.level - 1 }

    /// The object's header, from its `{` to `"state": `: valid while `texts` lives.
    var header: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: texts.headers.bytes[headerRange])
    }

    /// The rest of the object's text, its entry's: valid while `texts` lives.
    var rest: UnsafeRawBufferPointer {
        texts.entry(entryPosition).text.bytes
    }

    /// The object saved under `path` (of class `restorationClass`) with this object's entry,
    /// decoded the usual way.
    func decodedObject(path: IdentifierPath, restorationClass: String?) -> RestorationObject {
        entry.decodedObject(path: path, restorationClass: restorationClass, file: texts.file)
    }

    /// Appends the header of `object` to `buffer`; returns its range there.
    static func writeHeader(of object: RestorationObject, to buffer: ByteBuffer) -> Range<Int> {
        let start = buffer.count
        var writer = JSONTextWriter(level: StreamedEntry.level - 1, output: buffer)
        writer.openContainer(UInt8(ascii: "{"))
        writer.writeKey(utf8: "components", first: true)
        // `path.rawComponents`, written from the path's bytes without a string each.
        var path = object.identifierPath.rawValue
        path.withUTF8 { writer.writeComponents(of: UnsafeRawBufferPointer($0), separatedBy: UInt8(ascii: "/"), thenWhole: "identifierPath") }
        writer.writeKey(utf8: "restorationClass", first: false)
        writer.writeString(object.restorationClass)
        writer.writeKey(utf8: "restorationClassDemangled", first: false)
        writer.writeString(object.restorationClass.flatMap(SwiftDemangler.demangle))
        writer.writeKey(utf8: "state", first: false)
        return start..<buffer.count
    }
}

extension GiveUp: PropertyListErrorConvertible {
    init(_ error: PropertyListError) {
        self.init()
    }
}

extension StreamedArchiveRenderer {
    /// The view archives under `kViewRestorationDataKey` (value at `index`), as buffer ranges of
    /// binary property lists, when the value is a dictionary: nil when it is not one. A
    /// dictionary entry that is not a string and a binary property list makes it give up.
    func viewArchives(_ index: Int) throws(GiveUp) -> [(key: StreamedKey, bytes: Range<Int>)]? {
        guard let entries = try dictionaryEntries(index) else { return nil }
        return try entries.map { (entry) throws(GiveUp) in
            guard case .data(let start, let count) = try resolvedScalar(entry.value),
                  table.bytes(start, count).starts(with: BinaryPropertyListReader.magic)
            else { throw GiveUp() }
            return (entry.key, start..<(start + count))
        }
    }
}
