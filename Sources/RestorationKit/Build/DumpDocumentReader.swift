/// Reads a `dump --json` document (docs/json.md) back onto a tape: the values the archive it
/// describes would decode to, as the decoder lays them out, a restoration archive's objects and
/// views as archives nested in its `$top`. `KeyedArchiveWriter` writes the files from there.
///
/// The inverse of `JSONTapeValue`: every tagged form is read back to the node it was written
/// from. Without recursion: containers are frames of its own stack, as the decoder's are.
struct DumpDocumentReader {
    let input: JSONInput
    var builder = TapeBuilder()
    /// Repeated keys met in objects that are written as dictionaries or fields (kept, and said):
    /// the first `shownWarnings`, then how many more.
    private(set) var warnings: [String] = []
    private(set) var unshownWarnings = 0
    static let shownWarnings = 20
    private var frames: [Frame] = []

    /// A container whose members are being read: the JSON value that holds them, what it
    /// becomes, and where its members start on the builder's stack.
    private struct Frame {
        enum Shape {
            /// Each member a value: an array, a set, an ordered set.
            case elements(TapeKind)
            /// A JSON object's members as a dictionary's entries.
            case dictionary
            /// `$dictionary`: each member a `[key, value]` array, its two values read in turn.
            case pairs
            /// Named fields: an archive's `$top` (`.archive`) or an object's (`.object`, its class).
            case fields(TapeKind, classIndex: Int)
            /// `$url`: the relative string is on the stack; the base follows.
            case url
        }

        let json: Int
        let shape: Shape
        /// Members in a plain property list, where only its types may stand.
        let plain: Bool
        let mark: Int
        /// Steps through the members (a pair's key and value are two).
        var step = 0
        let steps: Int
        /// The member the step is at, among the JSON value's (an object's class keys are
        /// stepped over).
        var cursor = 0
    }

    let limits: DecodingLimits
    /// How many containers hold the value being read (the document's archives and dictionaries
    /// above it), and how many keyed archives: with the frames open, what the decoder will count
    /// reading the file back, bounded as it bounds them.
    var baseDepth = 1
    var archiveDepth = 1

    init(_ input: JSONInput, limits: DecodingLimits) {
        self.input = input
        self.limits = limits
        // Strings without an escape stay in the document's text, as a decoded file's stay in
        // the file.
        builder.source = input.bytes[...]
    }

    /// A node of `kind` for the string or key text `text` (an index of the input's texts).
    private mutating func textNode(_ kind: TapeKind, text: Int) -> TapeNode {
        let place = input.texts[text]
        guard place.inInput else { return input.withText(text) { builder.text(kind, utf8: $0) } }
        // Not marked `.plain` (no escape needed) as decoding marks strings: the mark only saves a
        // reader a look at each string, and this tape is written and validated.
        var node = TapeNode(kind, count: place.count, payload: UInt64(place.offset))
        node.flags.insert(.inSource)
        return node
    }

    /// Refuses a keyed archive nested deeper than the limits let a reader read.
    func checkArchiveDepth(_ depth: Int, at index: Int) throws(BuildError) {
        guard depth <= limits.maxArchiveDepth else {
            throw failure(index, "keyed archives nest deeper than \(limits.maxArchiveDepth) (\(DecodingLimit.archiveDepth.option))")
        }
    }

    /// A failure at JSON value `index`.
    func failure(_ index: Int, _ reason: String) -> BuildError {
        BuildError(reason, path: path(to: index), position: input.position(input.value(index).offset))
    }

    /// The jq path of value `index`: found from the root, since values are stored in the order
    /// they start, each container's members in increasing order.
    func path(to index: Int) -> String {
        var path = ""
        var current = input.root
        while current != index {
            let members = input.members(of: current)
            guard let member = members.last(where: { $0.value <= index }) else { break }
            if member.key < 0 {
                path += "[\(members.firstIndex { $0.value == member.value }! - members.startIndex)]"
            } else {
                let key = input.key(member)
                let isIdentifier = key.first.map { $0.isLetter || $0 == "_" } == true && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
                path += isIdentifier ? "." + key : "[" + String(reflecting: key) + "]"
            }
            current = member.value
        }
        return path.isEmpty ? "." : path
    }

    // MARK: Values

    /// The node of JSON value `index` and all it holds (`plain`: inside a plain property list).
    mutating func value(_ index: Int, plain: Bool = false) throws(BuildError) -> TapeNode {
        let base = frames.count
        if let leaf = try start(index, plain: plain) { return leaf }
        while true {
            let last = frames.count - 1
            let frame = frames[last]
            if frame.step < frame.steps {
                frames[last].step += 1
                if let leaf = try member(frame.step + 1, of: last) { builder.stack.append(leaf) }
                continue
            }
            frames.removeLast()
            let node = finish(frame)
            if frames.count == base { return node }
            builder.stack.append(node)
        }
    }

    /// The node of member step `step` (from 1) of frame `position`, or nil when it opened a
    /// frame.
    private mutating func member(_ step: Int, of position: Int) throws(BuildError) -> TapeNode? {
        let frame = frames[position]
        let members = input.members(of: frame.json)
        switch frame.shape {
        case .elements:
            return try start(members[members.startIndex + step - 1].value, plain: frame.plain)
        case .dictionary:
            let member = members[members.startIndex + (step - 1) / 2]
            if step & 1 == 1 { return keyNode(member) }
            return try start(member.value, plain: frame.plain)
        case .pairs:
            let pair = members[members.startIndex + (step - 1) / 2].value
            let halves = input.members(of: pair)
            guard input.value(pair).kind == .array, halves.count == 2 else {
                throw failure(pair, "expected a [key, value] pair")
            }
            let half = halves[halves.startIndex + (step - 1) & 1].value
            if frame.plain, step & 1 == 1, input.value(half).kind != .string {
                throw failure(half, "a plain property list's dictionary keys are strings")
            }
            return try start(half, plain: frame.plain)
        case .fields(let kind, _):
            var cursor = members.startIndex + frame.cursor
            guard step & 1 == 1 else {
                frames[position].cursor += 1
                return try start(members[cursor].value, plain: frame.plain && kind != .archive)
            }
            // An object's fields, after (or among) its class keys.
            while kind == .object, isClassKey(members[cursor]) { cursor += 1 }
            frames[position].cursor = cursor - members.startIndex
            let member = members[cursor]
            guard kind == .object, input.keyFirstByte(member) == UInt8(ascii: "$") else { return keyNode(member) }
            // `$$name` stands for the field `$name`.
            let node = input.withText(member.key) { bytes -> TapeNode? in
                guard bytes.count > 1, bytes[1] == UInt8(ascii: "$") else { return nil }
                return builder.text(.string, utf8: UnsafeRawBufferPointer(rebasing: bytes.dropFirst()))
            }
            guard let node else {
                throw failure(member.value, "an object's field whose name begins with $ is written with another $ in front ($\(input.key(member)))")
            }
            return node
        case .url:
            let base = input.member("base", of: frame.json)!.value
            switch input.value(base).kind {
            case .null: return .null
            case .object where input.member("$url", of: base) != nil: return try start(base, plain: false)
            default: throw failure(base, "a URL's base is null or another {\"$url\": …}")
            }
        }
    }

    /// The node of a frame whose members are read.
    private mutating func finish(_ frame: Frame) -> TapeNode {
        let count = (builder.stack.count - frame.mark)
        switch frame.shape {
        case .elements(let kind):
            return TapeNode(kind, count: count, payload: UInt64(builder.popBlock(from: frame.mark)))
        case .dictionary, .pairs:
            return TapeNode(.dictionary, count: count / 2, payload: UInt64(builder.popPairs(from: frame.mark)))
        case .fields(let kind, let classIndex):
            if kind == .archive { archiveDepth -= 1 }
            return TapeNode(kind, count: count / 2, payload: UInt64(classIndex) << 32 | UInt64(builder.popPairs(from: frame.mark)))
        case .url:
            return TapeNode(.url, count: 2, payload: UInt64(builder.popBlock(from: frame.mark)))
        }
    }

    private mutating func push(_ json: Int, _ shape: Frame.Shape, plain: Bool, steps: Int, mark: Int? = nil) throws(BuildError) {
        guard baseDepth + frames.count < limits.maxDepth else {
            throw failure(json, "values nest deeper than \(limits.maxDepth) levels (\(DecodingLimit.depth.option))")
        }
        if case .fields(.archive, _) = shape {
            try checkArchiveDepth(archiveDepth + 1, at: json)
            archiveDepth += 1
        }
        frames.append(Frame(json: json, shape: shape, plain: plain, mark: mark ?? builder.stack.count, steps: steps))
    }

    /// The node of JSON value `index` if it holds no other; otherwise its frame is pushed.
    private mutating func start(_ index: Int, plain: Bool) throws(BuildError) -> TapeNode? {
        let json = input.value(index)
        switch json.kind {
        case .null:
            guard !plain else { throw failure(index, "a plain property list has no null") }
            return .null
        case .boolean:
            return TapeNode(.boolean, payload: json.flag ? 1 : 0)
        case .number:
            return try number(index)
        case .string:
            return textNode(.string, text: json.index)
        case .array:
            try push(index, .elements(.array), plain: plain, steps: json.count)
            return nil
        case .object:
            return try object(index, plain: plain)
        }
    }

    /// A JSON number: an integer (within 128 bits) or a real, exactly as written.
    private mutating func number(_ index: Int) throws(BuildError) -> TapeNode {
        if input.value(index).flag, let small = input.withText(of: index, Self.smallInteger) {
            return builder.integer(Int128(small))
        }
        if !input.value(index).flag, let real = input.withText(of: index, ShortDecimal.double) {
            return TapeNode(.real, payload: real.bitPattern)
        }
        let text = input.text(index)
        if input.value(index).flag {
            guard let integer = Int128(text) else { throw failure(index, "\(text) is past the 128-bit integers a property list holds") }
            return builder.integer(integer)
        }
        guard let real = Double(text), real.isFinite else { throw failure(index, "\(text) is past the largest real; write {\"$real\": \"inf\"} for infinity") }
        return TapeNode(.real, payload: real.bitPattern)
    }

    /// An integer of at most 18 digits, read from its text without a string.
    private static func smallInteger(_ text: UnsafeRawBufferPointer) -> Int64? {
        let negative = text.first == UInt8(ascii: "-")
        let digits = text.dropFirst(negative ? 1 : 0)
        guard digits.count <= 18 else { return nil }
        var value: Int64 = 0
        for digit in digits { value = value * 10 + Int64(digit &- UInt8(ascii: "0")) }
        return negative ? -value : value
    }

    /// A member's key as a string node.
    mutating func keyNode(_ member: JSONInput.Member) -> TapeNode {
        textNode(.string, text: member.key)
    }

    private func isClassKey(_ member: JSONInput.Member) -> Bool {
        input.keyFirstByte(member) == UInt8(ascii: "$") && Self.classKeys.contains { input.keyIs(member, $0) }
    }

    /// Whether `member`'s key is one of `earlier`'s: compared byte for byte among a few, hashed
    /// among many (`seen` holds those hashed so far).
    private func isRepeated(_ member: JSONInput.Member, among earlier: ArraySlice<JSONInput.Member>, seen: inout Set<ExactText>) -> Bool {
        guard earlier.count >= 16 else {
            return input.withText(member.key) { key in earlier.contains { other in input.withText(other.key) { $0.hasSameBytes(as: key) } } }
        }
        if seen.isEmpty { earlier.forEach { seen.insert(ExactText(input.key($0))) } }
        return !seen.insert(ExactText(input.key(member))).inserted
    }

    /// A tag of docs/json.md.
    private enum Tag {
        case integer, real, float, date, data, set, orderedSet, dictionary, uuid, url, ref, archive, cycle
        /// An NSValue's structure (`$rect`…), by its `NS.special` code.
        case special(Int)
    }

    /// What a tag stands for, the members it may have beside its own, and whether a plain
    /// property list can hold it; found by the bytes of its name (most objects of a document
    /// are tagged values, so no string is made to look one up).
    private struct TagForm {
        let text: String
        let name: [UInt8]
        let tag: Tag
        let others: [[UInt8]]
        let plain: Bool

        init(_ name: String, _ tag: Tag, others: [String] = [], plain: Bool) {
            text = name
            self.name = Array(name.utf8)
            self.tag = tag
            self.others = others.map { Array($0.utf8) }
            self.plain = plain
        }
    }

    private static let tagForms: [TagForm] = [
        TagForm("$integer", .integer, plain: true), TagForm("$real", .real, plain: true), TagForm("$float", .float, plain: true),
        TagForm("$date", .date, others: ["referenceSeconds"], plain: true), TagForm("$data", .data, others: ["length", "archiveError"], plain: true),
        TagForm("$set", .set, plain: false), TagForm("$orderedSet", .orderedSet, plain: false), TagForm("$dictionary", .dictionary, plain: true),
        TagForm("$uuid", .uuid, plain: false), TagForm("$url", .url, others: ["base"], plain: false), TagForm("$ref", .ref, plain: false),
        TagForm("$archive", .archive, plain: true), TagForm("$cycle", .cycle, plain: false),
    ] + FoundationValues.specialStructures.sorted { $0.key < $1.key }.map { TagForm(String(describing: $0.value.tag), .special($0.key), plain: false) }

    /// Each form's name as `fingerprint` reads one, in the order of `tagForms`.
    private static let tagFingerprints = tagForms.map { form in form.name.withUnsafeBytes(fingerprint) }

    /// A name's first and last eight bytes (the same bytes, padded, when shorter) and its
    /// length: integers compared before the bytes are.
    private static func fingerprint(_ bytes: UnsafeRawBufferPointer) -> (head: UInt64, tail: UInt64, count: Int) {
        bytes.count >= 8 ? (bytes.word(at: 0), bytes.word(at: bytes.count - 8), bytes.count) : (bytes.shortWord(padding: 0), 0, bytes.count)
    }

    /// The form whose name is a member's key.
    private func tagForm(_ member: JSONInput.Member) -> TagForm? {
        input.withText(member.key) { key in
            let print = Self.fingerprint(key)
            return Self.tagFingerprints.withUnsafeBufferPointer { prints in
                prints.indices.first { prints[$0] == print && Self.tagForms[$0].name.withUnsafeBytes { $0.hasSameBytes(as: key) } }.map { Self.tagForms[$0] }
            }
        }
    }

    /// Whether a member's key is one of `names`.
    private func keyIsOne(_ member: JSONInput.Member, of names: [[UInt8]]) -> Bool {
        input.withText(member.key) { key in names.contains { $0.withUnsafeBytes { $0.hasSameBytes(as: key) } } }
    }

    /// A JSON object: a tagged value, an object with its class, or a dictionary.
    private mutating func object(_ index: Int, plain: Bool) throws(BuildError) -> TapeNode? {
        let members = input.members(of: index)
        guard let tagged = members.first(where: { input.keyFirstByte($0) == UInt8(ascii: "$") }) else {
            try checkRepeats(index)
            try push(index, .dictionary, plain: plain, steps: 2 * members.count)
            return nil
        }
        if input.member("$class", of: index) != nil { return try classObject(index, plain: plain) }
        let value = tagged.value
        guard let form = tagForm(tagged) else {
            throw failure(value, "\(input.key(tagged)) is not a tag docs/json.md names (a dictionary whose keys begin with $ is written {\"$dictionary\": [[key, value], …]})")
        }
        let known = form.tag
        let tag = form.text
        if case .special(let code) = known {
            guard members.count == 1 else { throw failure(index, "\(tag) has no other member") }
            guard !plain else { throw failure(index, "a plain property list cannot hold an NSValue") }
            return try special(code, FoundationValues.specialStructures[code]!, value)
        }
        if members.count > 1 {
            for member in members where !keyIsOne(member, of: [form.name]) && !keyIsOne(member, of: form.others) {
                throw failure(member.value, "\(tag) has no member \(input.key(member))")
            }
        }
        if plain, !form.plain {
            throw failure(index, "a plain property list cannot hold \(tag)")
        }
        let json = input.value(value)
        switch known {
        case .integer:
            guard json.kind == .string, let integer = Int128(input.text(value)) else { throw failure(value, "expected the integer's decimal digits in a string") }
            return builder.integer(integer)
        case .real:
            return try real(value)
        case .float:
            // A 4-byte real (`encodeFloat:forKey:`), read at its own precision.
            let float: Float? = switch (json.kind, json.kind == .string || json.kind == .number ? input.text(value) : "") {
            case (.number, let text): Float(text).flatMap { $0.isFinite ? $0 : nil }
            case (.string, "nan"): .nan
            case (.string, "inf"): .infinity
            case (.string, "-inf"): -.infinity
            default: nil
            }
            guard let float else { throw failure(value, "expected a number within a 4-byte real's range, or \"nan\", \"inf\" or \"-inf\"") }
            return TapeNode(.float, payload: UInt64(float.bitPattern))
        case .date:
            if json.kind == .null {
                guard let given = input.member("referenceSeconds", of: index) else { throw failure(index, "a date written {\"$date\": null} has referenceSeconds") }
                return TapeNode(.date, payload: try seconds(given.value).bitPattern)
            }
            guard json.kind == .string, members.count == 1 else { throw failure(value, "expected a date, 2014-07-06T16:05:18Z") }
            return try date(value)
        case .data:
            guard json.kind == .string, case .success(let bytes) = input.withText(of: value, { ByteFormatting.base64Bytes($0, allowingSpace: false) }) else {
                throw failure(value, "expected the bytes in base64")
            }
            if let length = input.member("length", of: index) {
                guard input.value(length.value).kind == .number, Int(input.text(length.value)) == bytes.count else {
                    throw failure(length.value, "length is not the \(bytes.count) bytes the base64 holds")
                }
            }
            return bytes.withUnsafeBytes { builder.appendText(.data, $0) }
        case .set, .orderedSet:
            let isSet = if case .set = known { true } else { false }
            guard json.kind == .array else { throw failure(value, "expected an array of the \(isSet ? "set's" : "ordered set's") elements") }
            try push(value, .elements(isSet ? .set : .orderedSet), plain: false, steps: json.count)
            return nil
        case .dictionary:
            guard json.kind == .array else { throw failure(value, "expected an array of [key, value] pairs") }
            try push(value, .pairs, plain: plain, steps: 2 * json.count)
            return nil
        case .uuid:
            guard json.kind == .string, let bytes = Self.uuidBytes(input.text(value)) else { throw failure(value, "expected a UUID, E621E1F8-C36C-495A-93FC-0C247A3E6E5F") }
            return bytes.withUnsafeBytes { builder.appendText(.uuid, $0) }
        case .url:
            guard json.kind == .string else { throw failure(value, "expected the URL's relative string") }
            guard input.member("base", of: index) != nil else { throw failure(index, "a $url has a base (null when it has none)") }
            builder.stack.append(builder.text(.string, input.text(value)))
            try push(index, .url, plain: false, steps: 1, mark: builder.stack.count - 1)
            return nil
        case .ref:
            guard json.kind == .string else { throw failure(value, "expected the identifier path the reference names") }
            return builder.text(.reference, input.text(value))
        case .archive:
            guard json.kind == .object else { throw failure(value, "expected the nested archive's $top keys in an object") }
            try checkRepeats(value)
            try push(value, .fields(.archive, classIndex: 0), plain: false, steps: 2 * json.count)
            return nil
        case .special:
            preconditionFailure("an NSValue is read above")
        case .cycle:
            // `$cycle`: its number is an index in the original's `$objects`, which the document
            // does not keep; no written archive could point it at the same object.
            throw failure(index, "a $cycle cannot be built: the document does not say which enclosing object it refers to")
        }
    }

    /// A date as `dump` writes it: ISO 8601 text.
    func date(_ index: Int) throws(BuildError) -> TapeNode {
        switch input.withText(of: index, { ReferenceDate.referenceSeconds(iso8601: Array($0)) }) {
        case .seconds(let seconds): return TapeNode(.date, payload: seconds.bitPattern)
        case .malformed: throw failure(index, "expected a date as dump writes it, 2014-07-06T16:05:18Z (a fraction of a second after a point)")
        case .finerThanADate: throw failure(index, "the fraction of a second is finer than a date holds (a double of seconds since 2001)")
        }
    }

    /// The members of an object that give its class, not its fields (as the JSON writer
    /// spells them).
    static let classKeys = JSONTapeValue.classKeys.map(\.description)

    /// `{"$class": …, "$classes": […], fields}`: an object of that class.
    private mutating func classObject(_ index: Int, plain: Bool) throws(BuildError) -> TapeNode? {
        guard !plain else { throw failure(index, "a plain property list cannot hold an archived object") }
        let name = input.member("$class", of: index)!.value
        guard input.value(name).kind == .string else { throw failure(name, "expected the class name") }
        guard let chain = input.member("$classes", of: index).flatMap({ strings($0.value) }) else {
            throw failure(index, "an object has $classes, its class chain as an array of strings")
        }
        var hints: [String]?
        if let hintMember = input.member("$classhints", of: index) {
            guard let given = strings(hintMember.value) else { throw failure(hintMember.value, "expected an array of strings") }
            hints = given
        }
        var fields = 0
        for member in input.members(of: index) {
            guard isClassKey(member) else {
                fields += 1
                continue
            }
            let key = input.key(member)
            guard input.member(key, of: index)?.value == member.value else { throw failure(member.value, "an object has one \(key)") }
        }
        let classIndex = builder.intern(TapeClass(name: input.text(name), chain: chain, hints: hints))
        try push(index, .fields(.object, classIndex: classIndex), plain: false, steps: 2 * fields)
        return nil
    }

    private func strings(_ index: Int) -> [String]? {
        guard input.value(index).kind == .array else { return nil }
        var strings: [String] = []
        for member in input.members(of: index) {
            guard input.value(member.value).kind == .string else { return nil }
            strings.append(input.text(member.value))
        }
        return strings
    }

    /// A real: a number, or `{"$real": "nan"}` and the infinities.
    private func real(_ index: Int) throws(BuildError) -> TapeNode {
        TapeNode(.real, payload: try seconds(index).bitPattern)
    }

    /// A real given as a number or a `$real` tag.
    private func seconds(_ index: Int) throws(BuildError) -> Double {
        let json = input.value(index)
        if json.kind == .number, let real = input.withText(of: index, ShortDecimal.double) ?? Double(input.text(index)), real.isFinite { return real }
        if json.kind == .string {
            switch input.text(index) {
            case "nan": return .nan
            case "inf": return .infinity
            case "-inf": return -.infinity
            default: break
            }
        }
        if json.kind == .object, let tag = input.member("$real", of: index), input.members(of: index).count == 1 { return try seconds(tag.value) }
        throw failure(index, "expected a number, or \"nan\", \"inf\" or \"-inf\" in {\"$real\": …}")
    }

    /// An integer: a number, or a `$integer` tag.
    private func integer(_ index: Int) throws(BuildError) -> Int128 {
        let json = input.value(index)
        if json.kind == .number, json.flag, let integer = Int128(input.text(index)) { return integer }
        if json.kind == .object, let tag = input.member("$integer", of: index), input.members(of: index).count == 1,
           input.value(tag.value).kind == .string, let integer = Int128(input.text(tag.value)) {
            return integer
        }
        throw failure(index, "expected an integer")
    }

    /// An NSValue holding structure `code`, laid out as the decoder lays it out: `NS.special`,
    /// then the structure's fields.
    private mutating func special(_ code: Int, _ structure: FoundationValues.SpecialStructure, _ index: Int) throws(BuildError) -> TapeNode {
        let mark = builder.stack.count
        builder.stack.append(builder.text(.string, "NS.special"))
        builder.stack.append(TapeNode(.integer, payload: UInt64(code)))
        let members = structure.members.map { String(describing: $0) }
        if structure.isGeometry {
            let json = input.value(index)
            let text: String
            if json.kind == .string {
                text = input.text(index)
            } else {
                guard json.kind == .object else { throw failure(index, "expected {\(members.joined(separator: ", "))} or the archived string") }
                var numbers: [Double] = []
                for name in members {
                    guard let member = input.member(name, of: index) else { throw failure(index, "\(structure.tag) has \(members.joined(separator: ", "))") }
                    let value = input.value(member.value)
                    guard value.kind == .number, let number = Double(input.text(member.value)), number.isFinite else { throw failure(member.value, "expected a number") }
                    numbers.append(number)
                }
                for member in input.members(of: index) where !members.contains(input.key(member)) && input.key(member) != "text" {
                    throw failure(member.value, "\(structure.tag) has no member \(input.key(member))")
                }
                // The archived spelling when it spells these numbers; Foundation's otherwise.
                if let given = input.member("text", of: index), input.value(given.value).kind == .string,
                   GeometryText(input.text(given.value)).numbers == numbers {
                    text = input.text(given.value)
                } else {
                    text = GeometryText.text(of: numbers)
                }
            }
            builder.stack.append(builder.text(.string, String(describing: structure.fields[0])))
            builder.stack.append(builder.text(.string, text))
        } else {
            guard input.value(index).kind == .object else { throw failure(index, "expected {\(members.joined(separator: ", "))}") }
            for member in input.members(of: index) where !members.contains(input.key(member)) {
                throw failure(member.value, "\(structure.tag) has no member \(input.key(member))")
            }
            for (name, field) in zip(members, structure.fields) {
                guard let member = input.member(name, of: index) else { throw failure(index, "\(structure.tag) has \(members.joined(separator: ", "))") }
                builder.stack.append(builder.text(.string, String(describing: field)))
                builder.stack.append(structure.fieldKind == .integer ? builder.integer(try integer(member.value)) : try real(member.value))
            }
        }
        let classIndex = builder.intern(TapeClass(name: "NSValue", chain: ["NSValue", "NSObject"], hints: nil))
        let count = (builder.stack.count - mark) / 2
        return TapeNode(.special, count: count, payload: UInt64(classIndex) << 32 | UInt64(builder.popPairs(from: mark)))
    }

    /// Says which keys an object repeats: they are all written, as the document has them.
    private mutating func checkRepeats(_ index: Int) throws(BuildError) {
        let members = input.members(of: index)
        guard members.count > 1 else { return }
        var seen = Set<ExactText>()
        for (position, member) in members.enumerated() where isRepeated(member, among: members.prefix(position), seen: &seen) {
            guard warnings.count < Self.shownWarnings else {
                unshownWarnings += 1
                continue
            }
            warnings.append("\(path(to: member.value)): the key \(String(reflecting: input.key(member))) is repeated; every one is written")
        }
    }

    /// The 16 bytes of a UUID's text.
    static func uuidBytes(_ text: String) -> [UInt8]? {
        let hex = text.utf8.filter { $0 != UInt8(ascii: "-") }
        guard text.utf8.count == 36, hex.count == 32, [8, 13, 18, 23].allSatisfy({ Array(text.utf8)[$0] == UInt8(ascii: "-") }) else { return nil }
        var bytes: [UInt8] = []
        for position in stride(from: 0, to: 32, by: 2) {
            guard let byte = UInt8(String(decoding: hex[position..<(position + 2)], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
