#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs recursive work on a stack large enough for the nesting the limits allow.
///
/// Reading, decoding and printing recurse once per nesting level. The main thread's 8 MiB (and
/// a secondary thread's 512 KiB on some systems) runs out at a few hundred levels in a debug
/// build, so depth limits alone cannot keep a raised limit from crashing the process. A thread
/// stack is only reserved address space until used, so a generous one costs nothing.
///
/// Work runs in place when the calling thread already has the room (nested calls do), and
/// otherwise on one long-lived worker thread: making a thread per call costs more than decoding
/// a small archive.
package enum DeepStack {
    /// Stack bytes reserved per level of `maxDepth`: measured debug builds use about 15 KiB per
    /// level of reading, decoding and printing together, so this leaves a wide margin.
    static let bytesPerLevel = 64 * 1024

    /// The stack a thread needs to decode and print input within `limits`.
    public static func stackSize(for limits: DecodingLimits) -> Int {
        let levels = limits.maxDepth + 8 * limits.maxArchiveDepth
        return 16 * 1024 * 1024 + levels * bytesPerLevel
    }

    /// Runs `body` where at least `stackSize` bytes of stack are free, and waits for it. If no
    /// thread can be made, `body` runs on the calling thread.
    public static func run<T, E: Error>(stackSize: Int, _ body: () throws(E) -> T) throws(E) -> T {
        if StackBounds.remainingOnCurrentThread() >= stackSize {
            return try body()
        }
        var result: Result<T, E>?
        withoutActuallyEscaping(body) { body in
            let work = { result = Result { () throws(E) -> T in try body() } }
            if !DeepStackWorker.execute(work, stackSize: stackSize) {
                work()
            }
        }
        return try result!.get()
    }
}

extension DeepStack {
    /// How many threads concurrent work may use: the processors online, at most 8. Read once:
    /// `sysconf` reads a file under /sys each time.
    static let availableThreads: Int = {
        #if canImport(Glibc) || canImport(Musl)
        let online = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        #else
        let online = sysconf(_SC_NPROCESSORS_ONLN)
        #endif
        return max(1, min(8, online))
    }()

    /// Calls `body(index)` for every index in `0..<count`, spread over the calling thread and up
    /// to `threads - 1` more threads, each with `stackSize` bytes of stack; returns when all calls
    /// have. Indices are handed out in small batches, in order. If a thread cannot be made, the
    /// others do its share. The calling thread runs `first` (other work) before it joins in.
    static func concurrentPerform(
        count: Int, threads: Int, stackSize: Int, first: () -> Void = {}, _ body: (_ index: Int) -> Void
    ) {
        let queue = WorkQueue(count: count, threads: threads)
        let helpers = max(0, min(threads, count) - 1)
        withoutActuallyEscaping(body) { body in
            let started: [pthread_t] = (0..<helpers).compactMap { _ in
                OneOffThread.spawn(stackSize: stackSize) { queue.drain(body) }
            }
            first()
            queue.drain(body)
            for thread in started { pthread_join(thread, nil) }
        }
    }
}

/// Hands out indices `0..<count` in batches to the threads of `concurrentPerform`.
private final class WorkQueue: @unchecked Sendable {
    private var next = 0
    private let count: Int
    private let lock = ThreadLock()
    /// Indices taken per lock: enough to make locking cheap, few enough to balance the load
    /// (one at a time when there are few per thread).
    private let batch: Int

    init(count: Int, threads: Int) {
        self.count = count
        batch = max(1, min(8, count / (16 * max(1, threads))))
    }

    func drain(_ body: (Int) -> Void) {
        while true {
            let (start, end) = lock.withLock {
                let start = next
                next = min(count, next + batch)
                return (start, next)
            }
            guard start < end else { return }
            for index in start..<end { body(index) }
        }
    }
}

/// How much stack the current thread has left, known for the threads `DeepStack` makes: each
/// records where its stack ends when it starts. Other threads count as having none to spare.
enum StackBounds {
    nonisolated(unsafe) private static var key = pthread_key_t()
    private static let keyCreated: Bool = pthread_key_create(&key, nil) == 0

    /// Called first thing on a new thread whose stack is `size` bytes.
    static func recordCurrentThread(stackSize size: Int) {
        guard keyCreated else { return }
        // The thread's entry frames sit above this point; 64 KiB covers them.
        let low = currentPosition() - UInt(size) + 64 * 1024
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: low))
    }

    static func remainingOnCurrentThread() -> Int {
        guard keyCreated, let low = pthread_getspecific(key) else { return 0 }
        let here = currentPosition()
        let bottom = UInt(bitPattern: low)
        return here > bottom ? Int(here - bottom) : 0
    }

    @inline(never)
    private static func currentPosition() -> UInt {
        var marker = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }
}

/// One thread with a large stack that runs submitted work, one piece at a time; callers on other
/// threads wait their turn. Work that needs more stack than it has gets a thread of its own.
private final class DeepStackWorker: @unchecked Sendable {
    nonisolated(unsafe) private static var shared: DeepStackWorker?
    nonisolated(unsafe) private static var sharedLock = pthread_mutex_t()
    private static let setUp: Void = { pthread_mutex_init(&sharedLock, nil) }()
    /// The worker's stack: room for the largest limits the command line accepts.
    static let workerStackSize = 512 * 1024 * 1024

    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var job: (() -> Void)?
    private var finished = false
    private var submit = pthread_mutex_t()

    static func execute(_ work: () -> Void, stackSize: Int) -> Bool {
        withoutActuallyEscaping(work) { work in
            if stackSize <= workerStackSize, let worker = sharedWorker() {
                worker.run(work)
                return true
            }
            return OneOffThread.run(work, stackSize: stackSize)
        }
    }

    private static func sharedWorker() -> DeepStackWorker? {
        _ = setUp
        pthread_mutex_lock(&sharedLock)
        defer { pthread_mutex_unlock(&sharedLock) }
        if shared == nil {
            let worker = DeepStackWorker()
            if worker.start() { shared = worker }
        }
        return shared
    }

    private init() {
        pthread_mutex_init(&mutex, nil)
        pthread_mutex_init(&submit, nil)
        pthread_cond_init(&condition, nil)
    }

    private func start() -> Bool {
        OneOffThread.spawnDetached(stackSize: Self.workerStackSize) { [self] in loop() }
    }

    private func run(_ work: @escaping () -> Void) {
        pthread_mutex_lock(&submit)
        defer { pthread_mutex_unlock(&submit) }
        pthread_mutex_lock(&mutex)
        job = work
        finished = false
        pthread_cond_broadcast(&condition)
        while !finished { pthread_cond_wait(&condition, &mutex) }
        pthread_mutex_unlock(&mutex)
    }

    private func loop() {
        pthread_mutex_lock(&mutex)
        while true {
            while job == nil { pthread_cond_wait(&condition, &mutex) }
            let work = job!
            job = nil
            pthread_mutex_unlock(&mutex)
            work()
            pthread_mutex_lock(&mutex)
            finished = true
            pthread_cond_broadcast(&condition)
        }
    }
}

/// Threads made with an explicit stack size.
private enum OneOffThread {
    /// Runs `work` on a new thread and joins it; false if the thread could not be made.
    static func run(_ work: @escaping () -> Void, stackSize: Int) -> Bool {
        guard let thread = spawn(stackSize: stackSize, detached: false, work) else { return false }
        pthread_join(thread, nil)
        return true
    }

    static func spawnDetached(stackSize: Int, _ work: @escaping () -> Void) -> Bool {
        spawn(stackSize: stackSize, detached: true, work) != nil
    }

    /// A joinable thread running `work`, or nil if none could be made.
    static func spawn(stackSize: Int, _ work: @escaping () -> Void) -> pthread_t? {
        spawn(stackSize: stackSize, detached: false, work)
    }

    private final class Box {
        let work: () -> Void
        let stackSize: Int
        init(_ work: @escaping () -> Void, stackSize: Int) {
            self.work = work
            self.stackSize = stackSize
        }
    }

    /// The same on every system; only how `pthread_t` is spelled differs (an integer on Linux,
    /// a pointer on Darwin, whose `pthread_create` fills an optional).
    private static func spawn(stackSize: Int, detached: Bool, _ work: @escaping () -> Void) -> pthread_t? {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        guard pthread_attr_setstacksize(&attributes, stackSize) == 0 else { return nil }
        if detached { pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) }
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let context = Unmanaged.passRetained(Box(work, stackSize: stackSize))
        let created = pthread_create(&thread, &attributes, { raw in
            // Optional on Linux, not on Darwin: the same code reads both.
            let argument: UnsafeMutableRawPointer? = raw
            let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
            StackBounds.recordCurrentThread(stackSize: box.stackSize)
            box.work()
            return nil
        }, context.toOpaque())
        guard created == 0 else {
            context.release()
            return nil
        }
        return thread
    }
}
