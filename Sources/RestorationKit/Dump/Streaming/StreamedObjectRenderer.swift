/// A saved object rendered from its own archive's bytes (UIKit's second level, views included)
/// as the text `ObjectDocument` gives for the decoded object. A class: the document and its
/// JSON tree hand each one around, and a copy should not retain every field again.
final class StreamedObject: Sendable {
    let identifierPath: IdentifierPath
    let restorationClass: String?
    /// The object's entry in the outer archive: decoded again only for a sink that is not a
    /// text writer (see `JSONDeferred.streamedObject`).
    let entry: ArraySlice<UInt8>
    let limits: DecodingLimits
    let text: RenderedJSON
    /// What rendering counted against the limits.
    let nodes: Int
    let bytes: Int
    let nestedBytes: Int

    init(
        identifierPath: IdentifierPath, restorationClass: String?, entry: ArraySlice<UInt8>, limits: DecodingLimits,
        text: RenderedJSON, nodes: Int, bytes: Int, nestedBytes: Int
    ) {
        self.identifierPath = identifierPath
        self.restorationClass = restorationClass
        self.entry = entry
        self.limits = limits
        self.text = text
        self.nodes = nodes
        self.bytes = bytes
        self.nestedBytes = nestedBytes
    }

    /// The nesting level of an object in a dump document: the document, then `objects`.
    static let level = 2

    /// Renders the object saved under `path` (of class `restorationClass` in the class map)
    /// whose entry is `entry`; nil where the streaming road gives up (see
    /// `StreamedArchiveRenderer`).
    static func render(
        path: IdentifierPath, restorationClass: String?, entry: ArraySlice<UInt8>, limits: DecodingLimits, context: StreamingContext
    ) -> StreamedObject? {
        let budget = StreamingBudget(limits: limits)
        return context.withPrivateCopy(of: entry) { copy in try? render(path: path, restorationClass: restorationClass, entry: entry, copy: copy, limits: limits, budget: budget, context: context) }
    }

    private static func render(
        path: IdentifierPath, restorationClass: String?, entry: ArraySlice<UInt8>, copy: ArraySlice<UInt8>, limits: DecodingLimits,
        budget: StreamingBudget, context: StreamingContext
    ) throws(GiveUp) -> StreamedObject {
        try BinaryPropertyList.withTable(copy) { (table) throws(GiveUp) in
            var output = StreamingOutput(level: level, budget: budget, capacity: 2 * entry.count + 512)
            var nestedBytes = entry.count
            var archive = try StreamedArchiveRenderer(table: table, budget: budget, context: context)
            var fields = try archive.entries(of: archive.top)
            var views: [(key: StreamedKey, bytes: Range<Int>)] = []
            let viewKey: StreamedKey = "kViewRestorationDataKey"
            switch fields.filter({ $0.key == viewKey }).count {
            case 0: break
            case 1:
                // Moved out of the state only when it is a dictionary (of view archives, or this
                // road gives up on it); anything else stays in the state, as the model leaves it.
                if let found = try archive.viewArchives(fields.first { $0.key == viewKey }!.value) {
                    views = found
                    fields.removeAll { $0.key == viewKey }
                }
            default: throw GiveUp()
            }
            // The members in the writer's order (their keys' byte order).
            output.writer.openContainer(UInt8(ascii: "{"))
            output.writeKey("components", first: true)
            // `path.rawComponents`, written from the path's bytes without a string each.
            var rawPath = path.rawValue
            let components: Result<Void, GiveUp> = rawPath.withUTF8 { bytes in
                let slash = UInt8(ascii: "/")
                var start = 0
                return Result { () throws(GiveUp) in
                    try output.writeArray(count: bytes.count { $0 == slash } + 1) { (output, _) throws(GiveUp) in
                        let end = bytes[start...].firstIndex(of: slash) ?? bytes.count
                        output.writer.writeString(utf8: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end])))
                        start = end + 1
                    }
                }
            }
            try components.get()
            output.writeKey("identifierPath", first: false)
            output.writer.writeString(path.rawValue)
            output.writeKey("restorationClass", first: false)
            output.writer.writeString(restorationClass)
            output.writeKey("restorationClassDemangled", first: false)
            output.writer.writeString(restorationClass.flatMap(SwiftDemangler.demangle))
            output.writeKey("state", first: false)
            try archive.writeFields(fields, to: &output)
            output.writeKey("stateProblem", first: false)
            output.writer.writeNull()
            output.writeKey("views", first: false)
            try output.writeObject(keys: views.map(\.key)) { (output, index) throws(GiveUp) in
                let range = views[index].bytes
                nestedBytes += range.count
                try output.countNode()
                let viewBytes = table.source[(table.base + range.lowerBound)..<(table.base + range.upperBound)]
                try BinaryPropertyList.withTable(viewBytes) { (view) throws(GiveUp) in
                    var viewArchive = try StreamedArchiveRenderer(table: view, budget: budget, context: context)
                    try viewArchive.writeFields(try viewArchive.entries(of: viewArchive.top), to: &output)
                }
            }
            output.writer.closeContainer(UInt8(ascii: "}"))
            guard nestedBytes <= budget.maxNestedBytes else { throw GiveUp() }
            return StreamedObject(
                identifierPath: path, restorationClass: restorationClass, entry: entry, limits: limits,
                text: output.rendered(level: level), nodes: output.nodes, bytes: output.bytes, nestedBytes: nestedBytes)
        }
    }

    /// The object decoded from its entry the usual way.
    func decodedObject() -> RestorationObject {
        var object = RestorationArchive.object(path: identifierPath, entry: try? KeyedArchiveDecoder(limits: limits).decodeEntry(entry))
        object.restorationClass = restorationClass
        return object
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
    mutating func viewArchives(_ index: Int) throws(GiveUp) -> [(key: StreamedKey, bytes: Range<Int>)]? {
        guard let entries = try dictionaryEntries(index) else { return nil }
        return try entries.map { (entry) throws(GiveUp) in
            guard case .data(let start, let count) = try resolvedScalar(entry.value),
                  table.bytes(start, count).starts(with: BinaryPropertyListReader.magic)
            else { throw GiveUp() }
            return (entry.key, start..<(start + count))
        }
    }
}
