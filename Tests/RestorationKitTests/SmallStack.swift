import Foundation

/// Runs `body` on a thread of its own with a 256 KiB stack (or `stackSize` bytes), the least a
/// secondary thread gets on some systems, and returns what it returns: walks of
/// input-controlled nesting must fit there. What it returns is handed over whole, so that it is
/// freed on the caller's thread.
func onSmallStack<Value>(timeout seconds: Double = 120, stackSize: Int = 256 << 10, _ body: @escaping () throws -> Value) throws -> Value {
    let work = SmallStackWork(body)
    let thread = Thread { work.run() }
    thread.stackSize = stackSize
    thread.start()
    guard work.done.wait(timeout: .now() + seconds) == .success else { throw SmallStackTimeout(seconds: seconds) }
    return try work.takeResult().get()
}

struct SmallStackTimeout: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "no answer from the small-stack thread in \(seconds) s" }
}

private final class SmallStackWork<Value>: @unchecked Sendable {
    private var body: (() throws -> Value)?
    private var result: Result<Value, Error>?
    let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping () throws -> Value) {
        self.body = body
    }

    func run() {
        result = Result { try body!() }
        done.signal()
    }

    /// The result, no longer held here, and the body let go of: the thread may release this
    /// object last, and what the body holds (a deep tree, say) must be freed on the caller's
    /// thread, not on the small stack after the test has gone on.
    func takeResult() -> Result<Value, Error> {
        defer { result = nil; body = nil }
        return result!
    }
}
