/// A tape's nodes, bytes and side tables by pointer: what readers that run on several threads at
/// once hold. Copying it counts no reference: the tape's own reference count is shared by every
/// thread, and counting it for each node would have them wait on each other.
///
/// Valid only inside `ArchiveTape.withView(_:)`.
struct TapeView {
    let nodes: UnsafeBufferPointer<TapeNode>
    /// The tape's input, and the index of its first byte (`inSource` offsets are indices).
    let source: UnsafeRawBufferPointer
    let sourceStart: Int
    let text: UnsafeRawBufferPointer
    let classes: UnsafeBufferPointer<TapeClass>
    let wideIntegers: UnsafeBufferPointer<Int128>
    let dataErrors: UnsafePointer<[TapeBytes.Location: String]>

    /// Member `position` of a container node: an array's, set's or URL's element, or a
    /// dictionary's, object's or archive's key (their block holds the keys, then the values).
    func member(_ position: Int, of node: TapeNode) -> TapeNode {
        nodes[node.first + position]
    }

    /// The value of entry `position` of a dictionary, object or archive node.
    func value(_ position: Int, of node: TapeNode) -> TapeNode {
        nodes[node.first + node.memberCount + position]
    }

    /// The bytes of a string, data, UUID or reference node.
    func bytes(of node: TapeNode) -> UnsafeRawBufferPointer {
        let count = node.memberCount
        guard node.flags.contains(.inSource) else { return UnsafeRawBufferPointer(rebasing: text[node.offset..<(node.offset + count)]) }
        let start = node.offset - sourceStart
        return UnsafeRawBufferPointer(rebasing: source[start..<(start + count)])
    }

    /// A string or reference node's bytes as a string.
    func string(of node: TapeNode) -> String {
        String(decoding: bytes(of: node), as: UTF8.self)
    }

    /// Whether a string node's bytes are `expected`'s. The lengths are compared first, from the
    /// node alone: the rules look keys up by name in every object's state this way.
    func textEquals(_ node: TapeNode, _ expected: StaticString) -> Bool {
        node.kind == .string && node.memberCount == expected.utf8CodeUnitCount && bytes(of: node).hasSameBytes(as: expected.bytes)
    }

    /// Why data flagged `archiveError` could not be read as the property list it announced.
    func dataError(_ node: TapeNode) -> String? {
        node.flags.contains(.archiveError) ? dataErrors.pointee[TapeBytes.Location(node)] : nil
    }

    /// How messages name the value of `node` (see `ArchiveValue.kindDescription`).
    func kindDescription(_ node: TapeNode) -> String {
        node.kind.valueDescription(className: node.kind.layout == .object ? classes[node.classIndex].name : "")
    }

    /// See `TapeNode.scalar(wide:)`.
    func scalar(_ node: TapeNode) -> TapeScalar? {
        node.scalar { wideIntegers[$0] }
    }
}

extension ArchiveTape {
    /// Calls `body` with a view of the tape.
    func withView<Result>(_ body: (TapeView) -> Result) -> Result {
        nodes.withUnsafeBufferPointer { nodes in
            source.withUnsafeBytes { source in
                text.withUnsafeBytes { text in
                    classes.withUnsafeBufferPointer { classes in
                        wideIntegers.withUnsafeBufferPointer { wideIntegers in
                            withUnsafePointer(to: dataErrors) { dataErrors in
                                body(TapeView(
                                    nodes: nodes, source: source, sourceStart: self.source.startIndex, text: text, classes: classes,
                                    wideIntegers: wideIntegers, dataErrors: dataErrors))
                            }
                        }
                    }
                }
            }
        }
    }
}

extension TapeNode {
    /// The value of a node of a kind that holds no bytes and no members (null, boolean,
    /// integer, real, float, date, cycle), `wide` giving the tape's wide integers; nil for
    /// another.
    func scalar(wide: (Int) -> Int128) -> TapeScalar? {
        switch kind {
        case .null: .null
        case .boolean: .boolean(payload != 0)
        case .integer: flags.contains(.wide) ? .integer(wide(Int(payload))) : .integer(Int128(Int64(bitPattern: payload)))
        case .real: .real(Double(bitPattern: payload))
        case .float: .float(Float(bitPattern: UInt32(truncatingIfNeeded: payload)))
        case .date: .date(Double(bitPattern: payload))
        case .cycle: .cycle(payload)
        default: nil
        }
    }
}

/// The value of a node laid out as a scalar (`TapeLayout.scalar`).
enum TapeScalar: Equatable {
    case null
    case boolean(Bool)
    case integer(Int128)
    case real(Double)
    case float(Float)
    case date(Double)
    case cycle(UInt64)
}
