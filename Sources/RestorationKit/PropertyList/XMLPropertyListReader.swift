internal import CPlist

/// Reads XML property lists through libplist's `plist_from_xml` (see `LibplistConverter` for
/// what libplist 2.2.0 loses on the way; binary files, read by our own reader, lose nothing).
struct XMLPropertyListReader {
    let limits: DecodingLimits

    func read(_ bytes: ArraySlice<UInt8>) throws(PropertyListError) -> PropertyListValue {
        // libplist refuses a UTF-8 byte-order mark, which editors and some encoders write; the
        // slice keeps file offsets for messages.
        let bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes
        guard bytes.count < Int(UInt32.max) else {
            throw PropertyListError("XML property list of \(bytes.count) bytes is larger than libplist can read (4 GiB)")
        }
        // libplist's XML parser recurses without a bound and builds its whole tree (about 190
        // bytes an element) before we see it: bound depth and size before it starts.
        try preScan(bytes)
        // libplist makes no promise about threads, and nested archives may be decoded on several
        // (see KeyedArchiveDecoder): one document at a time goes through it.
        return try LibplistDocument.lock.withLock { () throws(PropertyListError) -> PropertyListValue in
            let document = bytes.withUnsafeBufferPointer { buffer in
                LibplistDocument(xml: buffer)
            }
            guard let document else {
                throw PropertyListError("not a well-formed XML property list (libplist could not parse it)")
            }
            var converter = LibplistConverter(limits: limits)
            return try converter.convert(document.root)
        }
    }

    /// Counts elements and how deeply `<array>` and `<dict>` nest, without parsing the XML.
    /// It errs on the safe side: a tag inside a comment or CDATA counts too.
    private func preScan(_ bytes: ArraySlice<UInt8>) throws(PropertyListError) {
        var depth = 0
        var elements = 0
        var index = bytes.startIndex
        let end = bytes.endIndex
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            index = open + 1
            let closing = index < end && bytes[index] == UInt8(ascii: "/")
            if closing { index += 1 }
            guard index < end, Self.isNameStart(bytes[index]) else { continue }
            elements += 1
            guard elements <= limits.maxNodes else {
                throw PropertyListError("XML property list has more than the limit of \(limits.maxNodes) elements", at: open, exceedsLimit: true)
            }
            let container = tagName(bytes, at: index, is: "array") || tagName(bytes, at: index, is: "dict")
            guard container else { continue }
            // Find the end of the tag to see whether it closes itself (`<array/>`).
            let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) ?? end
            let selfClosing = close < end && close > index && bytes[close - 1] == UInt8(ascii: "/")
            if closing {
                depth -= 1
            } else if !selfClosing {
                depth += 1
                if depth > limits.maxDepth {
                    throw PropertyListError("containers nest deeper than the limit of \(levels(limits.maxDepth))", at: open, exceedsLimit: true)
                }
            }
            index = close
        }
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// Whether the tag name at `index` is `name`: followed by `>`, `/` or XML white space.
    private func tagName(_ bytes: ArraySlice<UInt8>, at index: Int, is name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard bytes.endIndex - index > count else { return false }
        let pointer = name.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] {
            return false
        }
        switch bytes[index + count] {
        case UInt8(ascii: ">"), UInt8(ascii: "/"), 0x20, 0x09, 0x0A, 0x0D: return true
        default: return false
        }
    }
}

/// Owns the node tree libplist allocates for one document and frees it.
final class LibplistDocument {
    /// Held while a document is parsed, read and freed.
    static let lock = ThreadLock()

    let root: plist_t

    init?(xml: UnsafeBufferPointer<UInt8>) {
        var root: plist_t? = nil
        xml.withMemoryRebound(to: CChar.self) { characters in
            plist_from_xml(characters.baseAddress, UInt32(characters.count), &root)
        }
        guard let root else { return nil }
        self.root = root
    }

    /// Takes ownership of a tree made elsewhere (the differential tests parse binary input with
    /// libplist to compare it with our own reader).
    init(owning root: plist_t) {
        self.root = root
    }

    deinit {
        plist_free(root)
    }
}
