/// ANSI styling for text output, or none: the commands decide (a terminal, `--color`, NO_COLOR).
package struct TextStyle: Sendable {
    public enum Tone: String, Sendable {
        case red = "31", green = "32", yellow = "33", cyan = "36", bold = "1", dim = "2"
    }

    public var enabled: Bool

    public init(enabled: Bool) {
        self.enabled = enabled
    }

    public static let plain = TextStyle(enabled: false)

    public func paint(_ text: String, _ tone: Tone) -> String {
        enabled ? "\u{1B}[\(tone.rawValue)m" + text + "\u{1B}[0m" : text
    }
}
