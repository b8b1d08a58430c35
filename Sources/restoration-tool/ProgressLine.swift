#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One line on standard error that says how far a long run has come, rewritten in place and
/// erased at the end: only on a terminal, only once the run has taken a second (a quick run
/// shows nothing), at most ten times a second. It holds counts alone, never a byte of the input.
struct ProgressLine {
    private let enabled: Bool
    private let start = ProgressLine.now()
    private var lastShown = 0.0
    private var shown = false

    /// A line that shows, unless `quiet`, when standard error is a terminal.
    init(quiet: Bool) {
        enabled = !quiet && isatty(2) == 1
    }

    /// Shows `text`, if the run has taken a second and the last line is a tenth of one old.
    mutating func show(_ text: @autoclosure () -> String) {
        guard enabled else { return }
        let now = Self.now()
        guard now - start >= 1, now - lastShown >= 0.1 else { return }
        lastShown = now
        shown = true
        Self.write("\r" + text() + "\u{1B}[K")
    }

    /// Erases the line, if one was shown, so that what follows starts on a clean line.
    mutating func erase() {
        guard shown else { return }
        shown = false
        Self.write("\r\u{1B}[K")
    }

    private static func write(_ text: String) {
        var text = text
        text.withUTF8 { _ = writeProgress(2, $0.baseAddress!, $0.count) }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// `write(2)`, at file scope so that the name is not taken by `ProgressLine.write`.
private func writeProgress(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
