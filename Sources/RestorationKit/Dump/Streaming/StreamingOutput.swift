/// The text a streamed archive is written to, and what writing it has counted against the
/// decoding limits.
struct StreamingOutput {
    /// Deeper text is left to the decoded road: text rendered ahead must stay below the writer's
    /// indentation cap (see `JSONTextWriter.writeRendered`), and this also bounds recursion.
    static let maximumLevel = 28

    var writer: JSONTextWriter
    let budget: StreamingBudget
    private(set) var nodes = 0
    private(set) var bytes = 0

    /// Writes values at nesting `level` into `buffer`, emptied first.
    init(level: Int, budget: StreamingBudget, buffer: ByteBuffer) {
        buffer.removeAll()
        writer = JSONTextWriter(level: level, output: buffer)
        self.budget = budget
    }

    mutating func countNode(_ count: Int = 1) throws(GiveUp) {
        nodes += count
        guard nodes <= budget.maxNodes, writer.output.count <= budget.maxTextBytes else { throw GiveUp() }
    }

    mutating func countBytes(_ count: Int) throws(GiveUp) {
        bytes += count
        guard bytes <= budget.maxBytes else { throw GiveUp() }
    }

    // MARK: Containers

    mutating func writeKey(_ key: StreamedKey, first: Bool) {
        writer.writeKey(utf8: key.bytes, first: first)
    }

    /// An object whose member `i` is named `keys[i]`, members in the keys' byte order (as the
    /// writer sorts them).
    mutating func writeObject(keys: [StreamedKey], _ value: (inout StreamingOutput, Int) throws(GiveUp) -> Void) throws(GiveUp) {
        try writeObject(count: keys.count, key: { keys[$0] }, value)
    }

    /// An object whose member `i` is named `key(i)`, members in the keys' byte order. The order
    /// is kept on the stack: objects are many and small. With `rejectingRepeatedKeys`, a key
    /// that repeats makes it give up.
    mutating func writeObject(
        count: Int, key: (Int) -> StreamedKey, rejectingRepeatedKeys: Bool = false,
        _ value: (inout StreamingOutput, Int) throws(GiveUp) -> Void
    ) throws(GiveUp) {
        guard count > 0 else { return writer.append("{}") }
        let written: Result<Void, GiveUp> = withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { order in
            stableOrder(into: order) { StreamedKey.compare(key($0), key($1)) }
            if rejectingRepeatedKeys, count > 1, (1..<count).contains(where: { key(order[$0 - 1]) == key(order[$0]) }) {
                return .failure(GiveUp())
            }
            return Result { () throws(GiveUp) in try writeObject(order: UnsafeBufferPointer(order), key: key, value) }
        }
        try written.get()
    }

    private mutating func writeObject(
        order: UnsafeBufferPointer<Int>, key: (Int) -> StreamedKey, _ value: (inout StreamingOutput, Int) throws(GiveUp) -> Void
    ) throws(GiveUp) {
        guard !order.isEmpty else { return writer.append("{}") }
        try open(UInt8(ascii: "{"))
        for (position, index) in order.enumerated() {
            writer.writeKey(utf8: key(index).bytes, first: position == 0)
            try value(&self, index)
        }
        writer.closeContainer(UInt8(ascii: "}"))
    }

    /// An object of two members, `first` then `second`, which must be in the writer's order.
    mutating func writeObject(
        _ first: StreamedKey, _ second: StreamedKey, _ value: (inout StreamingOutput, Int) throws(GiveUp) -> Void
    ) throws(GiveUp) {
        try open(UInt8(ascii: "{"))
        writer.writeKey(utf8: first.bytes, first: true)
        try value(&self, 0)
        writer.writeKey(utf8: second.bytes, first: false)
        try value(&self, 1)
        writer.closeContainer(UInt8(ascii: "}"))
    }

    mutating func writeArray(count: Int, _ element: (inout StreamingOutput, Int) throws(GiveUp) -> Void) throws(GiveUp) {
        guard count > 0 else { return writer.append("[]") }
        try open(UInt8(ascii: "["))
        for index in 0..<count {
            writer.startMember(first: index == 0)
            try element(&self, index)
        }
        writer.closeContainer(UInt8(ascii: "]"))
    }

    /// `{tag: value}`, or the value alone when `tag` is nil.
    mutating func writeTagged(_ tag: StreamedKey?, _ value: (inout StreamingOutput) throws(GiveUp) -> Void) throws(GiveUp) {
        guard let tag else { return try value(&self) }
        // `writeObject(keys: [tag])`, without the arrays.
        try open(UInt8(ascii: "{"))
        writer.writeKey(utf8: tag.bytes, first: true)
        try value(&self)
        writer.closeContainer(UInt8(ascii: "}"))
    }

    private mutating func open(_ bracket: UInt8) throws(GiveUp) {
        guard writer.level < Self.maximumLevel else { throw GiveUp() }
        writer.openContainer(bracket)
    }

    // MARK: Scalars (as `JSONArchiveValue` writes them)

    /// A scalar object of `table`: not a UID or a container.
    mutating func writeScalar(_ object: BinaryPropertyList.RawObject, table: BinaryPropertyList) throws(GiveUp) {
        try countNode()
        switch object {
        case .boolean(let value):
            writer.writeBool(value)
        case .integer(let value):
            if JSONArchiveValue.exactIntegerRange.contains(value) {
                writer.writeInteger(Int64(value))
            } else {
                try writeTagged("$integer") { (output) throws(GiveUp) in output.writer.writeString(String(value)) }
            }
        case .real(let value):
            try writeReal(value)
        case .float(let value):
            if value.isFinite { writer.writeNumber(value.description) } else { try writeReal(Double(value)) }
        case .date(let seconds):
            try writeDate(seconds)
        case .data(let start, let count):
            let bytes = table.bytes(start, count)
            guard !StreamedShape.holdsPropertyList(table, start: start, count: count) else { throw GiveUp() }
            try countBytes(TextEscaping.writtenSize(ofData: count))
            try writeObject("$data", "length") { (output, index) throws(GiveUp) in
                if index == 0 { output.writer.writeBase64(bytes) } else { output.writer.writeInteger(Int64(count)) }
            }
        case .asciiString(let start, let count):
            let bytes = table.bytes(start, count)
            if bytes.isASCII {
                try countBytes(TextEscaping.writtenSize(bytes))
                writer.writeString(utf8: bytes)
            } else {
                try writeString(table.asciiString(start: start, count: count))
            }
        case .utf16String(let start, let count):
            try writeString(table.utf16String(start: start, count: count))
        case .utf8String(let start, let count):
            try writeString(String(decoding: table.bytes(start, count), as: UTF8.self))
        case .uid, .array, .dictionary:
            throw GiveUp()
        }
    }

    private mutating func writeString(_ string: String) throws(GiveUp) {
        try countBytes(TextEscaping.writtenSize(string))
        writer.writeString(string)
    }

    mutating func writeReal(_ value: Double) throws(GiveUp) {
        if value.isFinite {
            // `value.description`'s digits, without the string (most reals have more digits
            // than a string holds without allocating).
            var stream = ByteBufferStream(buffer: writer.output)
            value.write(to: &stream)
        } else {
            try writeTagged("$real") { (output) throws(GiveUp) in
                output.writer.writeString(value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf"))
            }
        }
    }

    mutating func writeDate(_ seconds: Double) throws(GiveUp) {
        if let iso = ReferenceDate.ISO8601Parts(seconds) {
            try writeTagged("$date") { (output) throws(GiveUp) in
                // ISO 8601 text is ASCII without anything to escape: written as it is made.
                let text = output.writer.output
                text.append(UInt8(ascii: "\""))
                iso.write { text.append($0) }
                text.append(UInt8(ascii: "\""))
            }
        } else {
            try writeObject("$date", "referenceSeconds") { (output, index) throws(GiveUp) in
                if index == 0 { output.writer.writeNull() } else { try output.writeReal(seconds) }
            }
        }
    }
}

/// What one file's streamed objects may count, together: half the decoding limits, so that what
/// the streaming road accepts the decoder would accept too, whatever small differences there are
/// in how the two count.
struct StreamingBudget: Sendable {
    var maxNodes: Int
    var maxBytes: Int
    var maxNestedBytes: Int
    /// The text rendered ahead is held until the document is written: a file of a few bytes
    /// could otherwise make hundreds of megabytes of it before a node limit is reached (see
    /// `RenderingAllowance`, which sets it for a file). Past it, the file is decoded the usual
    /// way, which writes as it goes.
    var maxTextBytes = Int.max

    init(limits: DecodingLimits) {
        maxNodes = limits.maxNodes / 2
        maxBytes = limits.maxExpandedBytes / 2
        maxNestedBytes = limits.maxNestedArchiveBytes / 2
    }
}
