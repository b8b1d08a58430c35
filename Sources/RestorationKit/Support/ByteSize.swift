/// Sizes as the command line spells them: a count of bytes with an optional binary suffix,
/// `k` (KiB), `M` (MiB), `G` (GiB) or `T` (TiB), upper or lower case (`64k`, `10M`, `1G`).
package enum ByteSize {
    private static let units: [(suffix: Character, shift: Int)] = [("T", 40), ("G", 30), ("M", 20), ("k", 10)]

    /// The byte count `text` gives, or nil when it is no size (or one past `Int.max`).
    package static func parse(_ text: String) -> Int? {
        var digits = Substring(text)
        var shift = 0
        if let last = digits.last, !last.isNumber {
            guard let unit = units.first(where: { $0.suffix.lowercased() == last.lowercased() }) else { return nil }
            shift = unit.shift
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(digits) else { return nil }
        let (value, overflow) = count.multipliedReportingOverflow(by: 1 << shift)
        return overflow ? nil : value
    }

    /// `count` in the largest unit that holds it exactly (`64k`, `1G`), or "N bytes".
    package static func text(_ count: Int) -> String {
        for unit in units where count > 0 && count % (1 << unit.shift) == 0 {
            return "\(count >> unit.shift)\(unit.suffix)"
        }
        return count == 1 ? "1 byte" : "\(count) bytes"
    }
}
