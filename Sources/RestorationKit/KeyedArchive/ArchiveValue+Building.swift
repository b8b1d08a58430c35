/// Values built by a library user or a test: each is written to a tape of its own as the decoder
/// would have written it (its containers' members in blocks, an object of a Foundation class
/// mapped to its natural value), the members it is built from copied there.
extension ArchiveValue {
    /// `$null`: a nil object.
    public static let null = building { _ in .null }

    public static func string(_ string: String) -> Self { building { $0.text(.string, string) } }
    public static func integer(_ integer: Int128) -> Self { building { $0.integer(integer) } }
    public static func real(_ real: Double) -> Self { building { _ in TapeNode(.real, payload: real.bitPattern) } }
    /// A 4-byte real (`encodeFloat:forKey:`), at its own precision.
    public static func float(_ float: Float) -> Self { building { _ in TapeNode(.float, payload: UInt64(float.bitPattern)) } }
    public static func boolean(_ boolean: Bool) -> Self { building { _ in TapeNode(.boolean, payload: boolean ? 1 : 0) } }
    /// Seconds since 2001-01-01T00:00:00Z.
    public static func date(_ seconds: Double) -> Self { building { _ in TapeNode(.date, payload: seconds.bitPattern) } }
    /// A reference back to an object that is still being decoded (the UID it has in `$objects`).
    public static func cycle(_ uid: UInt64) -> Self { building { _ in TapeNode(.cycle, payload: uid) } }
    /// A `_UIObjectIdentifierPathProxy`: a reference to the object saved under this identifier path.
    public static func reference(_ path: String) -> Self { building { $0.text(.reference, path) } }
    /// NSUUID: 16 bytes.
    public static func uuid(_ bytes: [UInt8]) -> Self { building { builder in bytes.withUnsafeBytes { builder.appendText(.uuid, $0) } } }

    public static func data(_ data: ArchiveData) -> Self {
        building { builder in
            let node = data.bytes.withUnsafeBytes { builder.appendText(.data, $0) }
            return data.archiveError.map { builder.failedArchive(node, reason: $0) } ?? node
        }
    }

    /// NSArray, NSMutableArray, or a plain property-list array.
    public static func array(_ elements: [ArchiveValue]) -> Self { building { $0.appendBlock(.array, elements) } }
    /// NSSet, NSMutableSet: the order given is kept, and equality respects it.
    public static func set(_ elements: [ArchiveValue]) -> Self { building { $0.appendBlock(.set, elements) } }
    public static func orderedSet(_ elements: [ArchiveValue]) -> Self { building { $0.appendBlock(.orderedSet, elements) } }

    /// NSDictionary, NSMutableDictionary, or a plain property-list dictionary.
    public static func dictionary(_ dictionary: ArchiveDictionary) -> Self {
        building { builder in
            let mark = builder.stack.count
            for entry in dictionary.entries {
                let key = builder.copy(entry.key)
                builder.stack.append(key)
                let value = builder.copy(entry.value)
                builder.stack.append(value)
            }
            return TapeNode(.dictionary, count: dictionary.count, payload: UInt64(builder.popPairs(from: mark)))
        }
    }

    /// An object of `object`'s class; one of a Foundation class whose fields make its natural
    /// value is that value, as the decoder reads it.
    public static func object(_ object: ArchiveObject) -> Self {
        building { builder in
            let index = builder.intern(TapeClass(name: object.className, chain: object.classChain, hints: object.classHints))
            let mark = builder.stack.count
            builder.pushFields(object.fields)
            if let kind = FoundationValues.kind(ofClass: object.className),
               let natural = FoundationValues.naturalNode(kind, fields: mark, count: object.fields.count, classIndex: index, in: &builder) {
                builder.stack.removeSubrange(mark...)
                return natural
            }
            return TapeNode(.object, count: object.fields.count, payload: UInt64(index) << 32 | UInt64(builder.popPairs(from: mark)))
        }
    }

    public static func url(_ url: ArchiveURL) -> Self {
        building { builder in
            let mark = builder.stack.count
            let relative = builder.text(.string, url.relative)
            builder.stack.append(relative)
            let base = builder.copy(url.base)
            builder.stack.append(base)
            return TapeNode(.url, count: 2, payload: UInt64(builder.popBlock(from: mark)))
        }
    }

    /// NSData that holds a keyed archive, decoded.
    public static func archive(_ archive: KeyedArchive) -> Self { building { $0.appendFields(archive.top, as: .archive) } }

    /// The value whose node `body` appends to a new tape.
    private static func building(_ body: (inout TapeBuilder) -> TapeNode) -> Self {
        var builder = TapeBuilder()
        let node = body(&builder)
        return ArchiveValue(node, on: ArchiveTape(builder, root: node))
    }
}

extension ArchiveTape {
    /// A tape holding `archive`, its `$top` as the root archive.
    static func of(_ archive: KeyedArchive) -> ArchiveTape {
        var builder = TapeBuilder()
        let root = builder.appendFields(archive.top, as: .archive)
        return ArchiveTape(builder, root: root, repeatedRootKeys: archive.rootKeyRepeats)
    }
}

extension TapeBuilder {
    /// Appends a copy of `value`'s node and everything under it and returns the copy's node.
    mutating func copy(_ value: ArchiveValue) -> TapeNode {
        value.tape.withView { copy(value.node, from: $0) }
    }

    /// Appends a copy of `node` of the tape `view` is of, and everything under it (its bytes,
    /// wide integer, class and data error too), and returns the copy's node.
    mutating func copy(_ node: TapeNode, from view: TapeView) -> TapeNode {
        // Most values copied are leaves, copied without a walk.
        if let leaf = copyLeaf(node, from: view) { return leaf }
        var copier = TapeCopier(view: view)
        swap(&self, &copier.builder)
        var walker = TapeWalker()
        walker.walk(node, in: view, &copier)
        swap(&self, &copier.builder)
        return stack.removeLast()
    }

    /// The copy of a node that holds no others (its bytes appended to the tape); nil for a
    /// container.
    fileprivate mutating func copyLeaf(_ node: TapeNode, from view: TapeView) -> TapeNode? {
        switch node.kind.layout {
        case .scalar:
            return node.flags.contains(.wide) ? integer(view.wideIntegers[node.offset]) : node
        case .bytes:
            var copied = appendText(node.kind, view.bytes(of: node))
            copied.flags = node.flags.subtracting(.inSource)
            if let reason = view.dataError(node) { dataErrors[TapeBytes.Location(copied)] = reason }
            return copied
        case .elements, .url, .entries, .fields, .object:
            return nil
        }
    }
}

/// Copies what it walks onto a builder: each leaf's copy is pushed on the builder's stack, and a
/// container's members, once walked, are moved from there into its block.
private struct TapeCopier: TapeVisitor {
    var builder = TapeBuilder()
    let view: TapeView

    mutating func enter(_ node: TapeNode, at place: TapePlace, walker: inout TapeWalker) -> TapeDescent {
        if let leaf = builder.copyLeaf(node, from: view) {
            builder.stack.append(leaf)
            return .none
        }
        // The members go on the stack from here.
        return .all(mark: builder.stack.count)
    }

    mutating func exit(_ node: TapeNode, at place: TapePlace, mark: Int) {
        var copied = node
        // Walked key, value, key, value: a block holds the keys, then the values.
        let first = UInt64(node.kind.layout == .elements || node.kind.layout == .url ? builder.popBlock(from: mark) : builder.popPairs(from: mark))
        copied.payload = node.kind.layout == .object ? UInt64(builder.intern(view.classes[node.classIndex])) << 32 | first : first
        builder.stack.append(copied)
    }
}

extension TapeBuilder {
    /// An archive's named members as a block of names, then values.
    mutating func appendFields(_ fields: ArchiveFields, as kind: TapeKind) -> TapeNode {
        let mark = stack.count
        pushFields(fields)
        return TapeNode(kind, count: fields.count, payload: UInt64(popPairs(from: mark)))
    }

    /// Pushes each name, then its value, as the decoder pushes an object's fields.
    mutating func pushFields(_ fields: ArchiveFields) {
        for (name, value) in fields.entries {
            let key = text(.string, name)
            stack.append(key)
            let node = copy(value)
            stack.append(node)
        }
    }

    mutating func appendBlock(_ kind: TapeKind, _ elements: [ArchiveValue]) -> TapeNode {
        let mark = stack.count
        for element in elements {
            let node = copy(element)
            stack.append(node)
        }
        return TapeNode(kind, count: elements.count, payload: UInt64(popBlock(from: mark)))
    }

    /// A string's node (`kind`: string or reference), flagged `plain` as the decoder flags it.
    mutating func text(_ kind: TapeKind, _ string: String) -> TapeNode {
        var string = string
        return string.withUTF8 { text(kind, utf8: UnsafeRawBufferPointer($0)) }
    }

    /// A string's node from its UTF-8, which the caller has checked.
    mutating func text(_ kind: TapeKind, utf8 bytes: UnsafeRawBufferPointer) -> TapeNode {
        var node = appendText(kind, bytes)
        if TextEscaping.isPlain(bytes) { node.flags.insert(.plain) }
        return node
    }
}
