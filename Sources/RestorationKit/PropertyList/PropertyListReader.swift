/// The two encodings a property list can have on disk.
public enum PropertyListFormat: String, Sendable {
    case binary
    case xml
}

/// Reads a property list of either format, told apart by its content, never by a file name.
public struct PropertyListReader: Sendable {
    public var limits: DecodingLimits

    public init(limits: DecodingLimits = .default) {
        self.limits = limits
    }

    public func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        try read(bytes[...])
    }

    /// Reads `bytes`. The readers keep stacks of their own, but freeing a tree recurses once per
    /// level (a debug build uses about 210 bytes of stack a level), so this runs on a stack that
    /// fits the nesting `limits` allow (see `DeepStack`), where a tree given up on an error is
    /// freed. The tree returned is freed wherever the caller lets it go.
    public func read(_ bytes: ArraySlice<UInt8>) throws(PropertyListError) -> PropertyListValue {
        let format = try Self.format(of: bytes)
        return try DeepStack.run(stackSize: DeepStack.stackSize(for: limits)) { () throws(PropertyListError) -> PropertyListValue in
            switch format {
            case .binary: try BinaryPropertyListReader(limits: limits).read(bytes)
            case .xml: try XMLPropertyListReader(limits: limits).read(bytes)
            }
        }
    }

    /// Which format `bytes` hold, or an error saying why they are neither.
    public static func format(of bytes: ArraySlice<UInt8>) throws(PropertyListError) -> PropertyListFormat {
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
