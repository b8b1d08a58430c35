/// Reads XML property lists with a parser of our own, in one pass over the bytes.
///
/// Why not libplist (which the tests keep as a second reader to compare with): its 2.2.0 XML
/// parser reads integers beyond the signed 64-bit range wrongly (2^64−1 as −1), cuts strings at
/// U+0000, clamps dates to 32-bit seconds, decodes entities in quadratic time and recurses
/// without a bound. This one keeps every value exact (integers in 128 bits, dates to the
/// fraction written), bounds depth and values by `limits`, and takes time and memory in
/// proportion to its input.
///
/// It reads what Core Foundation writes and reads: the `plist` element (optional) around one
/// value, `dict` (with `key`), `array`, `string`, `integer` (decimal, or hexadecimal after
/// `0x`), `real` (`nan`, `inf`, `-inf` too), `true`, `false`, `date` (`YYYY-MM-DDTHH:MM:SSZ`,
/// a fraction allowed), `data` (base64, white space allowed); the five predefined entities and
/// character references; CDATA sections, comments and processing instructions. A document type
/// declaration is skipped, and one that declares entities is refused. A dictionary whose only
/// key is `CF$UID` with an integer is a keyed archiver's reference (a UID), as Core Foundation
/// reads it.
struct XMLPropertyListReader {
    let limits: DecodingLimits

    /// The property list laid out as an object table.
    func table(_ bytes: ArraySlice<UInt8>) throws(PropertyListError) -> XMLPropertyList {
        var table = XMLPropertyList.Builder()
        var parser = XMLPropertyListParser(bytes: bytes, limits: limits)
        do {
            try parser.document(into: &table)
        } catch {
            var placed = error
            placed.textPosition = error.byteOffset.map { TextPosition(of: $0, in: bytes) }
            throw placed
        }
        return table.table
    }
}

private struct XMLPropertyListParser {
    let bytes: ArraySlice<UInt8>
    let limits: DecodingLimits
    var position: Int
    var values = 0

    init(bytes: ArraySlice<UInt8>, limits: DecodingLimits) {
        self.bytes = bytes
        self.limits = limits
        position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.startIndex + 3 : bytes.startIndex
    }

    // MARK: The document

    mutating func document(into sink: inout XMLPropertyList.Builder) throws(PropertyListError) {
        try skipMisc(allowingDoctype: true)
        var tag = try openTag()
        let wrapped = tag.name == "plist"
        if wrapped {
            guard !tag.isEmpty else { throw error("the plist element is empty", at: tag.start) }
            try skipMisc()
            tag = try openTag()
        }
        try value(of: tag, into: &sink)
        if wrapped {
            try skipMisc()
            try closeTag("plist")
        }
        try skipMisc()
        guard position == bytes.endIndex else {
            throw error("content after the property list's end")
        }
    }

    // MARK: Values

    /// The value that begins with `first`, handed to `sink`, read with a stack of its own:
    /// neither nesting nor length uses the thread's stack.
    private mutating func value(of first: Tag, into sink: inout XMLPropertyList.Builder) throws(PropertyListError) {
        // Whether each open container is a dictionary.
        var open: [Bool] = []
        var tag = first
        while true {
            // The value `tag` begins, at the depth of `open`: a scalar or an empty container is
            // read whole, any other container is opened.
            if let value = try scalarOrEmpty(tag) {
                sink.value(value)
            } else {
                try checkDepth(open.count + 1, at: tag.start)
                open.append(tag.name == "dict")
                sink.open(dictionary: tag.name == "dict")
            }
            // Containers that end after it, then the tag of the next member.
            while true {
                guard let isDictionary = open.last else { return }
                try skipMisc()
                guard try atCloseTag(isDictionary ? "dict" : "array") else { break }
                open.removeLast()
                sink.close()
            }
            if open.last == true {
                let keyTag = try openTag()
                guard keyTag.name == "key" else {
                    throw error("a dictionary holds <\(keyTag.name)> where a <key> belongs", at: keyTag.start)
                }
                sink.key(try text(of: keyTag))
                try skipMisc()
            }
            tag = try openTag()
        }
    }

    /// The value `tag` begins when it is a scalar or an empty container; nil for a container
    /// with members. Counts the value.
    private mutating func scalarOrEmpty(_ tag: Tag) throws(PropertyListError) -> PropertyListObject? {
        values += 1
        guard values <= limits.maxNodes else {
            throw PropertyListError(limits.exceeded(.nodes), at: tag.start, exceedsLimit: true)
        }
        switch tag.name {
        case "dict":
            return tag.isEmpty ? .dictionary(PropertyListContainer(index: 0, count: 0, references: 0)) : nil
        case "array":
            return tag.isEmpty ? .array(PropertyListContainer(index: 0, count: 0, references: 0)) : nil
        case "string":
            return .string(try text(of: tag))
        case "integer":
            return .scalar(.integer(try integer(try text(of: tag), at: tag.start)))
        case "real":
            return .scalar(.real(try real(try text(of: tag), at: tag.start)))
        case "true", "false":
            _ = try text(of: tag)
            return .scalar(.boolean(tag.name == "true"))
        case "date":
            return .scalar(.date(try date(try text(of: tag), at: tag.start)))
        case "data":
            return .data(try base64(try text(of: tag), at: tag.start)[...])
        default:
            throw error("unknown element <\(tag.name)>", at: tag.start)
        }
    }

    private func checkDepth(_ depth: Int, at offset: Int) throws(PropertyListError) {
        guard depth <= limits.maxDepth else {
            throw PropertyListError(DecodingLimit.depth.exceeded(limits.maxDepth), at: offset, exceedsLimit: true)
        }
    }

    // MARK: Scalars

    private func integer(_ text: String, at offset: Int) throws(PropertyListError) -> Int128 {
        var digits = Substring(trimmed(text))
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        var radix: Int128 = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty else { throw error("<integer> holds no number", at: offset) }
        var magnitude: Int128 = 0
        for character in digits.utf8 {
            guard let digit = Self.digitValue(character), Int128(digit) < radix else {
                throw error("<integer> holds '\(trimmed(text))', not a number", at: offset)
            }
            // Accumulated as a negative number, so that Int128.min itself fits.
            let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: radix)
            let (next, overflowAgain) = shifted.subtractingReportingOverflow(Int128(digit))
            guard !overflow, !overflowAgain else {
                throw error("<integer> \(trimmed(text)) is outside the 128-bit range a property list holds", at: offset)
            }
            magnitude = next
        }
        if negative { return magnitude }
        guard magnitude != .min else {
            throw error("<integer> \(trimmed(text)) is outside the 128-bit range a property list holds", at: offset)
        }
        return -magnitude
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    private func real(_ text: String, at offset: Int) throws(PropertyListError) -> Double {
        let number = trimmed(text)
        switch number.lowercased() {
        case "nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: break
        }
        // Double(String) also takes "nan"/"inf" spellings, handled above, and hexadecimal floats,
        // which Core Foundation does not write: only decimal forms pass.
        guard number.utf8.allSatisfy({ Self.isDecimalNumberByte($0) }), let value = Double(number) else {
            throw error("<real> holds '\(number)', not a number", at: offset)
        }
        return value
    }

    private static func isDecimalNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): true
        default: false
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z` as seconds since 2001-01-01 (see
    /// `ReferenceDate.referenceSeconds(iso8601:)`; libplist 2.2.0 clamps to 32-bit seconds).
    private func date(_ text: String, at offset: Int) throws(PropertyListError) -> Double {
        switch ReferenceDate.referenceSeconds(iso8601: Array(trimmed(text).utf8)) {
        case .seconds(let seconds): return seconds
        case .malformed: throw error("<date> holds '\(trimmed(text))', not a date of the form YYYY-MM-DDTHH:MM:SSZ", at: offset)
        case .finerThanADate:
            throw error("<date> holds '\(trimmed(text))', whose fraction of a second is finer than a date holds (a double of seconds since 2001)", at: offset)
        }
    }

    private func base64(_ text: String, at offset: Int) throws(PropertyListError) -> [UInt8] {
        switch ByteFormatting.base64Bytes(text.utf8, allowingSpace: true) {
        case .success(let bytes): return bytes
        case .failure(.notBase64(let byte)): throw error("<data> holds a byte 0x\(String(byte, radix: 16)) that is not base64", at: offset)
        case .failure(.afterPadding): throw error("<data> continues after its base64 padding", at: offset)
        }
    }

    /// `text` without the XML white space around it.
    private func trimmed(_ text: String) -> Substring {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) }) else { return "" }
        return text[first...last]
    }

    // MARK: Markup

    private struct Tag {
        var name: String
        /// `<name/>`: no content and no closing tag.
        var isEmpty: Bool
        var start: Int
    }

    /// Reads `<name attributes…>` or `<name …/>` at the current position.
    private mutating func openTag() throws(PropertyListError) -> Tag {
        let start = position
        guard peek() == UInt8(ascii: "<") else {
            throw error(position == bytes.endIndex ? "the property list ends before its value" : "text where an element belongs")
        }
        position += 1
        let name = readName()
        guard !name.isEmpty else { throw error("a malformed tag", at: start) }
        // Attributes (only `plist` has one, `version`) are skipped; a quoted value may hold '>'.
        var quote: UInt8?
        while position < bytes.endIndex {
            let byte = bytes[position]
            position += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return Tag(name: name, isEmpty: bytes[position - 2] == UInt8(ascii: "/"), start: start)
            }
        }
        throw error("the tag <\(name)> is not closed", at: start)
    }

    private mutating func readName() -> String {
        let start = position
        while position < bytes.endIndex {
            switch bytes[position] {
            case UInt8(ascii: ">"), UInt8(ascii: "/"), 0x20, 0x09, 0x0A, 0x0D: return String(decoding: bytes[start..<position], as: UTF8.self)
            default: position += 1
            }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// Whether `</name>` follows; consumes it if so.
    private mutating func atCloseTag(_ name: String) throws(PropertyListError) -> Bool {
        guard peek() == UInt8(ascii: "<"), position + 1 < bytes.endIndex, bytes[position + 1] == UInt8(ascii: "/") else { return false }
        try closeTag(name)
        return true
    }

    private mutating func closeTag(_ name: String) throws(PropertyListError) {
        let start = position
        guard starts(with: "</") else {
            throw error(position == bytes.endIndex ? "the property list ends before </\(name)>" : "</\(name)> expected", at: start)
        }
        position += 2
        let found = readName()
        skipWhiteSpace()
        guard found == name, peek() == UInt8(ascii: ">") else {
            throw error("</\(found)> closes <\(name)>", at: start)
        }
        position += 1
    }

    /// The text content of `tag` up to its closing tag: entities and character references
    /// decoded, CDATA taken as it is, comments left out. An element inside is an error.
    private mutating func text(of tag: Tag) throws(PropertyListError) -> String {
        guard !tag.isEmpty else { return "" }
        var text: [UInt8] = []
        while true {
            guard position < bytes.endIndex else { throw error("the property list ends inside <\(tag.name)>", at: tag.start) }
            let byte = bytes[position]
            if byte == UInt8(ascii: "<") {
                if starts(with: "<![CDATA[") {
                    let contentStart = position + 9
                    guard let end = find("]]>", from: contentStart) else { throw error("a CDATA section is not closed") }
                    text += bytes[contentStart..<end]
                    position = end + 3
                } else if starts(with: "<!--") {
                    try skipComment()
                } else {
                    try closeTag(tag.name)
                    break
                }
            } else if byte == UInt8(ascii: "&") {
                try appendReference(to: &text)
            } else {
                // Plain text runs are copied in one piece (the common case: no markup inside).
                let runEnd = bytes[position...].firstIndex { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") } ?? bytes.endIndex
                text += bytes[position..<runEnd]
                position = runEnd
            }
        }
        guard let string = String(validating: text, as: UTF8.self) else {
            throw error("the text of <\(tag.name)> is not valid UTF-8", at: tag.start)
        }
        return string
    }

    /// `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#n;`, `&#xh;` at the current position.
    private mutating func appendReference(to text: inout [UInt8]) throws(PropertyListError) {
        let start = position
        guard let end = bytes[position..<min(position + 12, bytes.endIndex)].firstIndex(of: UInt8(ascii: ";")) else {
            throw error("an '&' that begins no entity", at: start)
        }
        let name = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
        position = end + 1
        switch name {
        case "lt": text.append(UInt8(ascii: "<"))
        case "gt": text.append(UInt8(ascii: ">"))
        case "amp": text.append(UInt8(ascii: "&"))
        case "quot": text.append(UInt8(ascii: "\""))
        case "apos": text.append(UInt8(ascii: "'"))
        default:
            let scalarValue: UInt32?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                scalarValue = UInt32(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                scalarValue = UInt32(name.dropFirst(), radix: 10)
            } else {
                throw error("unknown entity &\(name); (only XML's five and character references are read)", at: start)
            }
            guard let scalarValue, let scalar = Unicode.Scalar(scalarValue) else {
                throw error("&\(name); is not a Unicode character", at: start)
            }
            text += Array(String(Character(scalar)).utf8)
        }
    }

    /// White space, comments and processing instructions; the document type declaration too
    /// before the first element.
    private mutating func skipMisc(allowingDoctype: Bool = false) throws(PropertyListError) {
        while true {
            skipWhiteSpace()
            if starts(with: "<!--") {
                try skipComment()
            } else if starts(with: "<?") {
                guard let end = find("?>", from: position + 2) else { throw error("a processing instruction is not closed") }
                position = end + 2
            } else if allowingDoctype, starts(with: "<!DOCTYPE") {
                try skipDoctype()
            } else {
                return
            }
        }
    }

    private mutating func skipComment() throws(PropertyListError) {
        guard let end = find("-->", from: position + 4) else { throw error("a comment is not closed") }
        position = end + 3
    }

    /// Skips `<!DOCTYPE …>`. An internal subset may declare entities, which would make the
    /// document expand beyond its size: such a declaration is refused.
    private mutating func skipDoctype() throws(PropertyListError) {
        let start = position
        var quote: UInt8?
        var inSubset = false
        while position < bytes.endIndex {
            let byte = bytes[position]
            position += 1
            if let open = quote {
                if byte == open { quote = nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
            case UInt8(ascii: "["): inSubset = true
            case UInt8(ascii: "]"): inSubset = false
            case UInt8(ascii: "<") where inSubset && starts(with: "!ENTITY"):
                throw error("the document type declares entities, which are not read", at: position - 1)
            case UInt8(ascii: ">") where !inSubset: return
            default: break
            }
        }
        throw error("the document type declaration is not closed", at: start)
    }

    private mutating func skipWhiteSpace() {
        while position < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) {
            position += 1
        }
    }

    private func peek() -> UInt8? {
        position < bytes.endIndex ? bytes[position] : nil
    }

    private func starts(with prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { bytes[position...].starts(with: $0) }
    }

    /// Where `pattern` next begins at or after `start`, in time proportional to the distance.
    private func find(_ pattern: StaticString, from start: Int) -> Int? {
        pattern.withUTF8Buffer { needle -> Int? in
            var index = start
            while let candidate = bytes[index...].firstIndex(of: needle[0]) {
                if bytes[candidate...].starts(with: needle) { return candidate }
                index = candidate + 1
            }
            return nil
        }
    }

    private func error(_ reason: String, at offset: Int? = nil) -> PropertyListError {
        PropertyListError("not a well-formed XML property list: " + reason, at: offset ?? position)
    }
}
