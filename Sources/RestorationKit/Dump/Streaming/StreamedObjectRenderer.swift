/// A saved object rendered from its own archive's bytes (UIKit's second level, views included)
/// as the text `ObjectDocument` gives for the decoded object.
struct StreamedObject: Sendable {
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

    /// The nesting level of an object in a dump document: the document, then `objects`.
    static let level = 2

    /// Renders `object` (read from the outer archive, without state) whose entry is `entry`;
    /// nil where the streaming road gives up (see `StreamedArchiveRenderer`).
    static func render(_ object: RestorationObject, entry: ArraySlice<UInt8>, limits: DecodingLimits, context: StreamingContext) -> StreamedObject? {
        let budget = StreamingBudget(limits: limits)
        return try? BinaryPropertyList.withTable(entry) { (table) throws(GiveUp) in
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
            let components = object.identifierPath.rawComponents
            try output.writeArray(count: components.count) { (output, index) throws(GiveUp) in output.writer.writeString(components[index]) }
            output.writeKey("identifierPath", first: false)
            output.writer.writeString(object.identifierPath.rawValue)
            output.writeKey("restorationClass", first: false)
            output.writer.writeString(object.restorationClass)
            output.writeKey("restorationClassDemangled", first: false)
            output.writer.writeString(object.restorationClass.flatMap(SwiftDemangler.demangle))
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
                identifierPath: object.identifierPath, restorationClass: object.restorationClass, entry: entry, limits: limits,
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
