/// Exact equality: reals and dates are equal when their bits are, so a NaN equals itself (an
/// archive never differs from itself) and -0.0 differs from 0.0 (a value kept exactly is
/// compared exactly), and strings are equal when their bytes are (see `ExactText`).
/// Everything else compares by value; dictionaries ignore key order.
extension ArchiveValue: Hashable {
    /// Values of the same kind and the same content; strings and references by their bytes,
    /// reals by their bits. Exhaustive over `lhs`, so that a new kind cannot compare unequal to
    /// itself unnoticed.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch lhs {
        case .null: if case .null = rhs { true } else { false }
        case .string(let a): if case .string(let b) = rhs { a.isExactly(b) } else { false }
        case .integer(let a): if case .integer(let b) = rhs { a == b } else { false }
        case .real(let a): if case .real(let b) = rhs { a.bitPattern == b.bitPattern } else { false }
        case .float(let a): if case .float(let b) = rhs { a.bitPattern == b.bitPattern } else { false }
        case .boolean(let a): if case .boolean(let b) = rhs { a == b } else { false }
        case .date(let a): if case .date(let b) = rhs { a.bitPattern == b.bitPattern } else { false }
        case .data(let a): if case .data(let b) = rhs { a == b } else { false }
        case .array(let a): if case .array(let b) = rhs { a == b } else { false }
        case .set(let a): if case .set(let b) = rhs { a == b } else { false }
        case .orderedSet(let a): if case .orderedSet(let b) = rhs { a == b } else { false }
        case .dictionary(let a): if case .dictionary(let b) = rhs { a == b } else { false }
        case .uuid(let a): if case .uuid(let b) = rhs { a == b } else { false }
        case .url(let a): if case .url(let b) = rhs { a == b } else { false }
        case .object(let a): if case .object(let b) = rhs { a == b } else { false }
        case .reference(let a): if case .reference(let b) = rhs { a.isExactly(b) } else { false }
        case .archive(let a): if case .archive(let b) = rhs { a == b } else { false }
        case .cycle(let a): if case .cycle(let b) = rhs { a == b } else { false }
        }
    }

    /// Two levels deep: a container contributes its kind, its size and the shallow hash (see
    /// `shallowHash`) of its members, all of them for unordered ones (sets, dictionaries, an
    /// object's fields, combined so that order does not count) and the first sixteen of ordered
    /// ones. Hashing costs one pass over a container's own members, never its whole subtree:
    /// hashing whole subtrees made comparing nested dictionaries, whose comparison hashes their
    /// entries, cost the square of their size or more when hostile input shares them; hashing
    /// only kind and size made a set of 16 000 dictionaries that differ inside all hash alike,
    /// and comparing two such sets quadratic.
    public func hash(into hasher: inout Hasher) {
        shallowHash(into: &hasher)
        switch self {
        case .array(let values), .orderedSet(let values):
            for value in values.prefix(16) { value.shallowHash(into: &hasher) }
        case .set(let values):
            hasher.combine(values.reduce(0) { sum, value in sum &+ Self.hashed { hasher in value.shallowHash(into: &hasher) } })
        case .dictionary(let dictionary):
            hasher.combine(dictionary.entries.reduce(0) { sum, entry in
                sum &+ Self.hashed { hasher in
                    entry.key.shallowHash(into: &hasher)
                    entry.value.shallowHash(into: &hasher)
                }
            })
        case .object(let object):
            hasher.combine(Self.unorderedHash(of: object.fields))
        case .archive(let archive):
            hasher.combine(Self.unorderedHash(of: archive.top))
        default:
            break
        }
    }

    /// What `body` feeds a hasher of its own: summed over members, it makes an order-independent hash.
    private static func hashed(_ body: (inout Hasher) -> Void) -> Int {
        var hasher = Hasher()
        body(&hasher)
        return hasher.finalize()
    }

    /// String-keyed fields' keys and the shallow hashes of their values, whatever their order.
    private static func unorderedHash(of fields: ArchiveFields) -> Int {
        fields.entries.reduce(0) { sum, field in
            sum &+ hashed { hasher in
                hasher.combine(field.0)
                field.1.shallowHash(into: &hasher)
            }
        }
    }

    /// A scalar's whole value; a container's kind and size alone.
    func shallowHash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .string(let value): hasher.combine(1); hasher.combine(value)
        case .integer(let value): hasher.combine(2); hasher.combine(value)
        case .real(let value): hasher.combine(3); hasher.combine(value.bitPattern)
        case .float(let value): hasher.combine(18); hasher.combine(value.bitPattern)
        case .boolean(let value): hasher.combine(4); hasher.combine(value)
        case .date(let value): hasher.combine(5); hasher.combine(value.bitPattern)
        case .data(let value): hasher.combine(6); hasher.combine(value.bytes.count)
        case .array(let value): hasher.combine(7); hasher.combine(value.count)
        case .set(let value): hasher.combine(8); hasher.combine(value.count)
        case .orderedSet(let value): hasher.combine(9); hasher.combine(value.count)
        case .dictionary(let value): hasher.combine(10); hasher.combine(value.count)
        case .uuid(let value): hasher.combine(11); hasher.combine(value)
        case .url(let value): hasher.combine(12); hasher.combine(value.relative)
        case .object(let value): hasher.combine(13); hasher.combine(value.className); hasher.combine(value.fields.count)
        case .reference(let value): hasher.combine(14); hasher.combine(value)
        case .archive(let value): hasher.combine(15); hasher.combine(value.top.count)
        case .cycle(let value): hasher.combine(16); hasher.combine(value)
        }
    }
}
