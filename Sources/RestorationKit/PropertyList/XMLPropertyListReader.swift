internal import CPlist

/// Reads XML property lists through libplist's `plist_from_xml` (see `LibplistConverter` for
/// what libplist 2.2.0 loses on the way; binary files, read by our own reader, lose nothing).
struct XMLPropertyListReader {
    let limits: DecodingLimits

    func read(_ bytes: ArraySlice<UInt8>) throws(PropertyListError) -> PropertyListValue {
        guard bytes.count < Int(UInt32.max) else {
            throw PropertyListError("XML property list of \(bytes.count) bytes is larger than libplist can read (4 GiB)")
        }
        // libplist's XML parser recurses without a bound, so refuse deep nesting before it sees it.
        try checkNesting(bytes)
        let document = bytes.withUnsafeBufferPointer { buffer in
            LibplistDocument(xml: buffer)
        }
        guard let document else {
            throw PropertyListError("not a well-formed XML property list (libplist could not parse it)")
        }
        var converter = LibplistConverter(limits: limits)
        return try converter.convert(document.root)
    }

    /// Counts how deeply `<array>` and `<dict>` elements nest, without parsing the XML.
    private func checkNesting(_ bytes: ArraySlice<UInt8>) throws(PropertyListError) {
        var depth = 0
        var index = bytes.startIndex
        let end = bytes.endIndex
        while index < end {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            let tag = index
            index += 1
            let closing = index < end && bytes[index] == UInt8(ascii: "/")
            if closing { index += 1 }
            guard startsWith(bytes, at: index, "array") || startsWith(bytes, at: index, "dict") else { continue }
            // Skip to the end of the tag to see whether it closes itself (`<array/>`).
            var close = index
            while close < end && bytes[close] != UInt8(ascii: ">") { close += 1 }
            let selfClosing = close > index && bytes[close - 1] == UInt8(ascii: "/")
            if closing {
                depth -= 1
            } else if !selfClosing {
                depth += 1
                if depth > limits.maxDepth {
                    throw PropertyListError("containers nest deeper than the limit of \(levels(limits.maxDepth))", at: tag, exceedsLimit: true)
                }
            }
            index = close
        }
    }

    private func startsWith(_ bytes: ArraySlice<UInt8>, at index: Int, _ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.endIndex - index > count else { return false }
        let pointer = word.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] {
            return false
        }
        let next = bytes[index + count]
        return next == UInt8(ascii: ">") || next == UInt8(ascii: "/") || next == UInt8(ascii: " ")
    }
}

/// Owns the node tree libplist allocates for one document and frees it.
final class LibplistDocument {
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
