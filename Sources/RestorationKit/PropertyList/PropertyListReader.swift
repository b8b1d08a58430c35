/// The two encodings a property list can have on disk.
public enum PropertyListFormat: String, Sendable {
    case binary
    case xml
}

/// Reads a property list of either format, told apart by its content, never by a file name,
/// as the object table of its format; nothing here makes a tree of values.
struct PropertyListReader: Sendable {
    var limits: DecodingLimits

    init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    /// The members of the root dictionary of `bytes` whose values are no strings, data or
    /// containers, in order, once the whole property list is checked; nil when the root is no
    /// dictionary.
    func topLevelScalars(_ bytes: ArraySlice<UInt8>) throws(PropertyListError) -> OrderedFields<PropertyListScalar>? {
        switch try Self.format(of: bytes) {
        case .binary:
            try BinaryPropertyList.withTable(bytes) { (table) throws(PropertyListError) in try table.topLevelScalars(limits: limits) }
        case .xml:
            try XMLPropertyListReader(limits: limits).table(bytes).topLevelScalars(limits: limits)
        }
    }

    /// Which format `bytes` hold, nil when neither (`format(of:)` says why): asked of every data
    /// value of an archive, most of which are no property list.
    static func knownFormat(of bytes: ArraySlice<UInt8>) -> PropertyListFormat? {
        if BinaryPropertyListFormat.startsWithMagic(bytes) { return .binary }
        return looksLikeXML(bytes) ? .xml : nil
    }

    /// Which format `bytes` hold, or an error saying why they are neither.
    static func format(of bytes: ArraySlice<UInt8>) throws(PropertyListError) -> PropertyListFormat {
        if let format = knownFormat(of: bytes) {
            return format
        }
        guard !bytes.isEmpty else {
            throw PropertyListError("file is empty")
        }
        if bytes.starts(with: BinaryPropertyListFormat.magic.prefix(6)) {
            let version = String(decoding: bytes.prefix(8), as: UTF8.self)
            throw PropertyListError("unsupported binary property list version '\(version)' (only bplist00 is known)", at: bytes.startIndex)
        }
        throw PropertyListError("not a property list: neither a binary (bplist00) nor an XML header", at: bytes.startIndex)
    }

    /// Whether `bytes` begin, after an optional byte-order mark and white space, with an XML
    /// declaration, a doctype or a `<plist` element.
    static func looksLikeXML<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool where Bytes.SubSequence == Bytes {
        var rest = bytes
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) {
            rest = rest.dropFirst(3)
        }
        rest = rest.drop(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
        // Static strings: this runs for every data value of an archive, and arrays would allocate.
        func starts(with prefix: StaticString) -> Bool {
            prefix.withUTF8Buffer { rest.starts(with: $0) }
        }
        return starts(with: "<?xml") || starts(with: "<!DOCTYPE") || starts(with: "<plist")
    }
}
