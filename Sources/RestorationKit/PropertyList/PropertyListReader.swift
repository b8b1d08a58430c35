/// The two encodings a property list can have on disk.
public enum PropertyListFormat: String, Sendable {
    case binary
    case xml
}

/// Reads a property list of either format, told apart by its content, never by a file name.
/// Not public: a tree is freed by recursion, once per level; the library's readers give tapes.
package struct PropertyListReader: Sendable {
    package var limits: DecodingLimits

    package init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    package func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        try read(bytes[...])
    }

    /// Reads `bytes`. The readers keep stacks of their own; freeing a tree recurses once per
    /// level, which `limits.maxDepth` bounds.
    package func read(_ bytes: ArraySlice<UInt8>) throws(PropertyListError) -> PropertyListValue {
        switch try Self.format(of: bytes) {
        case .binary: try BinaryPropertyListReader(limits: limits).read(bytes)
        case .xml: try XMLPropertyListReader(limits: limits).read(bytes)
        }
    }

    /// The members of the root dictionary of `bytes` whose values are no containers, in order,
    /// once the whole property list is checked as `read` reads it (without making its tree,
    /// which could be deep); nil when the root is no dictionary.
    func topLevelScalars(_ bytes: ArraySlice<UInt8>) throws(PropertyListError) -> PropertyListDictionary? {
        switch try Self.format(of: bytes) {
        case .binary:
            try BinaryPropertyList.withTable(bytes) { (table) throws(PropertyListError) in try table.topLevelScalars(limits: limits) }
        case .xml:
            try XMLPropertyListReader(limits: limits).table(bytes).topLevelScalars(limits: limits)
        }
    }

    /// Which format `bytes` hold, or an error saying why they are neither.
    package static func format(of bytes: ArraySlice<UInt8>) throws(PropertyListError) -> PropertyListFormat {
        guard !bytes.isEmpty else {
            throw PropertyListError("file is empty")
        }
        let magic = BinaryPropertyListReader.magic
        if bytes.starts(with: magic) {
            return .binary
        }
        if bytes.starts(with: magic.prefix(6)) {
            let version = String(decoding: bytes.prefix(8), as: UTF8.self)
            throw PropertyListError("unsupported binary property list version '\(version)' (only bplist00 is known)", at: bytes.startIndex)
        }
        if looksLikeXML(bytes) {
            return .xml
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
