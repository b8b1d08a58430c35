/// Turns archived objects of Foundation's common classes into natural values.
///
/// Each mapping applies only when the object has exactly the fields Foundation writes, with the
/// types it writes; anything else stays an object, so no field can be lost by a mapping. It runs
/// once, in the decoder, on an object's decoded fields.
enum FoundationValues {
    /// The classes with a natural value. The decoder finds a class's kind once per class
    /// description, not once per object.
    enum Kind {
        case array, set, orderedSet, dictionary, string, data, date, uuid, url, identifierPathProxy, value
    }

    static func kind(ofClass className: String) -> Kind? {
        switch className {
        case "NSArray", "NSMutableArray": .array
        case "NSSet", "NSMutableSet": .set
        case "NSOrderedSet", "NSMutableOrderedSet": .orderedSet
        case "NSDictionary", "NSMutableDictionary": .dictionary
        case "NSString", "NSMutableString": .string
        case "NSData", "NSMutableData": .data
        case "NSDate": .date
        case "NSUUID": .uuid
        case "NSURL": .url
        case "_UIObjectIdentifierPathProxy": .identifierPathProxy
        case "NSValue": .value
        default: nil
        }
    }

    /// The natural value of an object of class kind `kind` whose `count` fields are on the
    /// tape's stack from `mark`, as name/value pairs, and whose class is `classIndex` in the
    /// tape's class table; nil when the fields are not Foundation's. A value that needs a block
    /// of its own (a dictionary, a URL, reordered elements) gets one in `tape.nodes`; the stack
    /// is left as it is.
    static func naturalNode(_ kind: Kind, fields mark: Int, count: Int, classIndex: Int, in tape: inout TapeBuilder) -> TapeNode? {
        let fields = Fields(mark: mark, count: count)
        switch kind {
        case .array, .set, .orderedSet:
            guard var elements = elements(fields, in: &tape) else { return nil }
            elements.kind = kind == .array ? .array : kind == .set ? .set : .orderedSet
            return elements
        case .dictionary:
            return dictionary(fields, in: &tape)
        case .string:
            if let string = fields.only("NS.string", in: tape), string.kind == .string { return string }
        case .data:
            if let data = fields.only("NS.data", in: tape), data.kind == .data || data.kind == .archive { return data }
        case .date:
            guard let time = fields.only("NS.time", in: tape) else { return nil }
            switch time.kind {
            case .real: return TapeNode(.date, payload: time.payload)
            case .float: return TapeNode(.date, payload: Double(Float(bitPattern: UInt32(truncatingIfNeeded: time.payload))).bitPattern)
            case .integer:
                let seconds = time.flags.contains(.wide) ? Double(tape.wideIntegers[Int(time.payload)]) : Double(Int64(bitPattern: time.payload))
                return TapeNode(.date, payload: seconds.bitPattern)
            default: return nil
            }
        case .uuid:
            if var data = fields.only("NS.uuidbytes", in: tape), data.kind == .data, data.count == 16, !data.flags.contains(.archiveError) {
                data.kind = .uuid
                return data
            }
        case .url:
            return url(fields, in: &tape)
        case .identifierPathProxy:
            if var path = fields.only("kObjectIdentifierPathProxyIdentifierPathKey", in: tape), path.kind == .string {
                path.kind = .reference
                return path
            }
        case .value:
            return special(fields, classIndex: classIndex, in: &tape)
        }
        return nil
    }

    /// An object's fields on the tape's stack.
    private struct Fields {
        let mark: Int
        let count: Int

        func name(_ position: Int, in tape: TapeBuilder) -> TapeNode { tape.stack[mark + 2 * position] }
        func value(_ position: Int, in tape: TapeBuilder) -> TapeNode { tape.stack[mark + 2 * position + 1] }

        /// The value of `key` when it is the object's only field.
        func only(_ key: StaticString, in tape: TapeBuilder) -> TapeNode? {
            guard count == 1, tape.textEquals(name(0, in: tape), key) else { return nil }
            return value(0, in: tape)
        }

        /// The value of the first field named `key`.
        func first(_ key: StaticString, in tape: TapeBuilder) -> TapeNode? {
            position(of: key, in: tape).map { value($0, in: tape) }
        }

        /// The position of the first field named `key`.
        func position(of key: StaticString, in tape: TapeBuilder) -> Int? {
            (0..<count).first { tape.textEquals(name($0, in: tape), key) }
        }
    }

    /// A collection's elements, as an array node: `NS.objects` (an array), or one field per
    /// element named `NS.object.0` … `NS.object.N−1`, in any order, which is how Foundation
    /// (Apple's and the one on Linux) writes NSOrderedSet; an empty one has no field at all.
    private static func elements(_ fields: Fields, in tape: inout TapeBuilder) -> TapeNode? {
        if let array = fields.only("NS.objects", in: tape), array.kind == .array { return array }
        var order = [Int](repeating: -1, count: fields.count)
        for position in 0..<fields.count {
            guard let index = elementIndex(fields.name(position, in: tape), in: tape), index < order.count, order[index] < 0 else { return nil }
            order[index] = position
        }
        let first = tape.nodes.count
        for position in order {
            let element = fields.value(position, in: tape)
            tape.nodes.append(element)
        }
        return TapeNode(.array, count: order.count, payload: UInt64(first))
    }

    /// n for a key `NS.object.n` written as Foundation writes it (no sign, no leading zero).
    private static func elementIndex(_ name: TapeNode, in tape: TapeBuilder) -> Int? {
        let prefix: StaticString = "NS.object."
        let prefixCount = prefix.utf8CodeUnitCount
        let digitCount = name.memberCount - prefixCount
        guard name.kind == .string, digitCount >= 1, digitCount <= 9 else { return nil }
        return tape.withBytes(of: name) { bytes -> Int? in
            for position in 0..<prefixCount where bytes[position] != prefix.utf8Start[position] {
                return nil
            }
            var value = 0
            for position in 0..<digitCount {
                let digit = bytes[prefixCount + position]
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
                if position == 0, digit == UInt8(ascii: "0"), digitCount > 1 { return nil }
                value = value * 10 + Int(digit - UInt8(ascii: "0"))
            }
            return value
        }
    }

    private static func dictionary(_ fields: Fields, in tape: inout TapeBuilder) -> TapeNode? {
        guard fields.count == 2,
              let keys = fields.first("NS.keys", in: tape), keys.kind == .array,
              let values = fields.first("NS.objects", in: tape), values.kind == .array,
              keys.count == values.count
        else { return nil }
        // One block of keys, then values, as every dictionary node has.
        let first = tape.nodes.count
        let count = keys.memberCount
        for position in 0..<count {
            let key = tape.nodes[keys.first + position]
            tape.nodes.append(key)
        }
        for position in 0..<count {
            let value = tape.nodes[values.first + position]
            tape.nodes.append(value)
        }
        return TapeNode(.dictionary, count: count, payload: UInt64(first))
    }

    private static func url(_ fields: Fields, in tape: inout TapeBuilder) -> TapeNode? {
        guard let relative = fields.first("NS.relative", in: tape), relative.kind == .string else { return nil }
        let base = fields.first("NS.base", in: tape)
        guard fields.count == (base == nil ? 1 : 2) else { return nil }
        let baseNode = base ?? .null
        guard baseNode.kind == .null || baseNode.kind == .url else { return nil }
        let first = tape.nodes.count
        tape.nodes.append(relative)
        tape.nodes.append(baseNode)
        return TapeNode(.url, count: 2, payload: UInt64(first))
    }

    /// A structure an NSValue holds, as Foundation archives it: `NS.special` gives its code,
    /// and its fields follow (the codes and fields of `-[NSConcreteValue encodeWithCoder:]`;
    /// points, sizes and rects as the strings `NSStringFromRect` and its kin write).
    struct SpecialStructure: Sendable {
        /// How the text names it ("Rect").
        let title: StaticString
        /// Its JSON tag ("$rect").
        let tag: StaticString
        /// The fields after `NS.special`, in Foundation's order, all of `fieldKind`.
        let fields: [StaticString]
        let fieldKind: TapeKind
        /// The JSON members, one per number: a point's, size's or rect's are those its one
        /// string field spells (see `GeometryText`), the others' one per field.
        let members: [StaticString]
        /// The public value of a `special` node of this structure.
        let value: @Sendable (SpecialFields) -> NSValueStructure

        /// Whether its one field is a string of numbers (a point, a size, a rect).
        var isGeometry: Bool { fieldKind == .string }
    }

    /// The fields of a `special` node, counted from 1 (0 is `NS.special`), each of its
    /// structure's kind.
    struct SpecialFields {
        let node: TapeNode
        let view: TapeView

        func text(_ position: Int) -> GeometryText { GeometryText(view.string(of: view.value(position, of: node))) }
        func real(_ position: Int) -> Double { Double(bitPattern: view.value(position, of: node).payload) }
        func integer(_ position: Int) -> Int128 {
            if case .integer(let value)? = view.scalar(view.value(position, of: node)) { return value }
            preconditionFailure("a range's fields are integers")
        }
    }

    /// Every structure Foundation's `-[NSConcreteValue encodeWithCoder:]` writes with an
    /// `NS.special` code, by code: the one list the decoder, the model and the writers read.
    static let specialStructures: [Int: SpecialStructure] = [
        1: SpecialStructure(title: "Point", tag: "$point", fields: ["NS.pointval"], fieldKind: .string, members: ["x", "y"]) { .point($0.text(1)) },
        2: SpecialStructure(title: "Size", tag: "$size", fields: ["NS.sizeval"], fieldKind: .string, members: ["width", "height"]) { .size($0.text(1)) },
        3: SpecialStructure(title: "Rect", tag: "$rect", fields: ["NS.rectval"], fieldKind: .string, members: ["x", "y", "width", "height"]) {
            .rect($0.text(1))
        },
        4: SpecialStructure(title: "Range", tag: "$range", fields: ["NS.rangeval.location", "NS.rangeval.length"], fieldKind: .integer,
                            members: ["location", "length"]) { .range(location: $0.integer(1), length: $0.integer(2)) },
        10: SpecialStructure(title: "Affine Transform", tag: "$transform",
                             fields: ["NS.atval.a", "NS.atval.b", "NS.atval.c", "NS.atval.d", "NS.atval.tx", "NS.atval.ty"],
                             fieldKind: .real, members: ["m11", "m12", "m21", "m22", "tX", "tY"]) {
            .affineTransform(m11: $0.real(1), m12: $0.real(2), m21: $0.real(3), m22: $0.real(4), tX: $0.real(5), tY: $0.real(6))
        },
        11: SpecialStructure(title: "UI Edge Insets", tag: "$uiEdgeInsets", fields: ["NS.edgeval.top", "NS.edgeval.left", "NS.edgeval.bottom", "NS.edgeval.right"],
                             fieldKind: .real, members: ["top", "left", "bottom", "right"]) {
            .edgeInsets(top: $0.real(1), left: $0.real(2), bottom: $0.real(3), right: $0.real(4), uiKit: true)
        },
        12: SpecialStructure(title: "Edge Insets", tag: "$edgeInsets", fields: ["NS.edgeval.top", "NS.edgeval.left", "NS.edgeval.bottom", "NS.edgeval.right"],
                             fieldKind: .real, members: ["top", "left", "bottom", "right"]) {
            .edgeInsets(top: $0.real(1), left: $0.real(2), bottom: $0.real(3), right: $0.real(4), uiKit: false)
        },
        13: SpecialStructure(title: "Offset", tag: "$offset", fields: ["NS.offset.h", "NS.offset.v"], fieldKind: .real,
                             members: ["horizontal", "vertical"]) { .offset(horizontal: $0.real(1), vertical: $0.real(2)) },
        14: SpecialStructure(title: "Directional Edge Insets", tag: "$directionalEdgeInsets",
                             fields: ["NS.dirEdgeVal.top", "NS.dirEdgeVal.leading", "NS.dirEdgeVal.bottom", "NS.dirEdgeVal.trailing"],
                             fieldKind: .real, members: ["top", "leading", "bottom", "trailing"]) {
            .directionalEdgeInsets(top: $0.real(1), leading: $0.real(2), bottom: $0.real(3), trailing: $0.real(4))
        },
    ]

    /// The code of the structure a `special` node holds (its first value is `NS.special`).
    static func specialCode(of node: TapeNode, in view: TapeView) -> Int {
        Int(Int64(bitPattern: view.value(0, of: node).payload))
    }

    /// The structure a `special` node holds.
    static func specialStructure(of node: TapeNode, in view: TapeView) -> SpecialStructure {
        specialStructures[specialCode(of: node, in: view)]!
    }

    /// An NSValue whose fields are exactly `NS.special`, a code Foundation writes, and that
    /// structure's fields of their kind, each once: a `special` node, its fields in
    /// Foundation's order. Any other NSValue (an Objective-C type and its bytes) stays an object.
    private static func special(_ fields: Fields, classIndex: Int, in tape: inout TapeBuilder) -> TapeNode? {
        guard let code = fields.position(of: "NS.special", in: tape) else { return nil }
        let codeNode = fields.value(code, in: tape)
        guard codeNode.kind == .integer, !codeNode.flags.contains(.wide),
              let structure = specialStructures[Int(Int64(bitPattern: codeNode.payload))], fields.count == structure.fields.count + 1
        else { return nil }
        // Every field found, and one more than the structure's: each is there once.
        var positions = [code]
        for name in structure.fields {
            guard let position = fields.position(of: name, in: tape), fields.value(position, in: tape).kind == structure.fieldKind else { return nil }
            positions.append(position)
        }
        let first = tape.nodes.count
        for position in positions {
            let name = fields.name(position, in: tape)
            tape.nodes.append(name)
        }
        for position in positions {
            let value = fields.value(position, in: tape)
            tape.nodes.append(value)
        }
        return TapeNode(.special, count: positions.count, payload: UInt64(classIndex) << 32 | UInt64(first))
    }
}
