extension JSONTextWriter {
    /// Writes JSON text made ahead of the document around it (see `StreamedDump`), written by a
    /// `JSONTextWriter` at nesting `textLevel`, which a writer at another level indents again.
    /// The text must stay valid as long as the documents being written (see `writeShared`).
    /// Rendered text never reaches the indentation cap (its renderer gives up first), so every
    /// line's level can be read back from its spaces.
    mutating func writeRendered(_ text: UnsafeRawBufferPointer, level textLevel: Int) {
        guard textLevel != level else { return writeShared(text) }
        let shift = level - textLevel
        var position = 0
        while position < text.count {
            let byte = text[position]
            output.append(byte)
            position += 1
            guard byte == UInt8(ascii: "\n") else { continue }
            var spaces = 0
            while position + spaces < text.count, text[position + spaces] == UInt8(ascii: " ") {
                spaces += 1
            }
            let lineLevel = max(0, spaces / 2 + shift)
            for _ in 0..<(2 * min(lineLevel, Self.maximumIndent)) { output.append(UInt8(ascii: " ")) }
            position += spaces
        }
    }

    /// A saved object whose header and entry were rendered ahead (see `StreamedObject`): the
    /// members in the writer's order, as `ObjectDocument`'s.
    mutating func writeStreamedObject(_ object: StreamedObject, of decoded: RestorationObject) {
        writeRendered(object.header, level: StreamedObject.level)
        writeRendered(object.rest, level: StreamedObject.level)
    }

    /// A key of ours, which needs no escape.
    mutating func writeKey(utf8 key: StaticString, first: Bool) {
        startMember(first: first)
        output.append(UInt8(ascii: "\""))
        output.append(contentsOf: UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        output.append("\": ")
    }

    // MARK: Containers written member by member (the streaming renderer sorts keys itself)

    mutating func openContainer(_ bracket: UInt8) {
        output.append(bracket)
        level += 1
    }

    mutating func closeContainer(_ bracket: UInt8) {
        level -= 1
        close(bracket)
    }

    /// Starts an object member: the separator, the key (valid UTF-8) and the colon.
    mutating func writeKey(utf8 key: UnsafeRawBufferPointer, first: Bool) {
        startMember(first: first)
        writeString(utf8: key)
        append(": ")
    }

    /// Base64 of `bytes`, as a JSON string, without an intermediate string.
    mutating func writeBase64(_ bytes: UnsafeRawBufferPointer) {
        output.append(UInt8(ascii: "\""))
        ByteFormatting.appendBase64(bytes) { output.append($0) }
        output.append(UInt8(ascii: "\""))
    }
}
