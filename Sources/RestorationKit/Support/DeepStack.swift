#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs recursive work on a thread with a stack large enough for the nesting the limits allow.
///
/// Reading, decoding and printing recurse once per nesting level. The main thread's 8 MiB (and
/// a secondary thread's 512 KiB on some systems) runs out at a few hundred levels in a debug
/// build, so depth limits alone cannot keep a raised limit from crashing the process. A thread
/// stack is only reserved address space until used, so a generous one costs nothing.
public enum DeepStack {
    /// Stack bytes reserved per level of `maxDepth`: measured debug builds use about 15 KiB per
    /// level of reading, decoding and printing together, so this leaves a wide margin.
    static let bytesPerLevel = 64 * 1024

    /// The stack a thread needs to decode and print input within `limits`.
    public static func stackSize(for limits: DecodingLimits) -> Int {
        let levels = limits.maxDepth + 8 * limits.maxArchiveDepth
        return 16 * 1024 * 1024 + levels * bytesPerLevel
    }

    /// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it. If no
    /// such thread can be made, `body` runs on the calling thread.
    public static func run<T, E: Error>(stackSize: Int, _ body: () throws(E) -> T) throws(E) -> T {
        var result: Result<T, E>?
        withoutActuallyEscaping(body) { body in
            let job = Job {
                result = Result { () throws(E) -> T in try body() }
            }
            if !job.runOnNewThread(stackSize: stackSize) {
                job.work()
            }
        }
        return try result!.get()
    }
}

private final class Job {
    let work: () -> Void

    init(_ work: @escaping () -> Void) {
        self.work = work
    }

    /// Runs `work` on a thread with the given stack and joins it; false if the thread could not be made.
    func runOnNewThread(stackSize: Int) -> Bool {
        #if canImport(Glibc) || canImport(Musl)
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return false }
        defer { pthread_attr_destroy(&attributes) }
        guard pthread_attr_setstacksize(&attributes, stackSize) == 0 else { return false }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self)
        let created = pthread_create(&thread, &attributes, { raw in
            let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
            job.work()
            return nil
        }, context.toOpaque())
        guard created == 0 else {
            context.release()
            return false
        }
        pthread_join(thread, nil)
        return true
        #else
        return false
        #endif
    }
}
