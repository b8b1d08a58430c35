#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Runs recursive work on a stack large enough for the nesting the limits allow.
///
/// Freeing a property-list tree recurses once per nesting level (with its synthesized `==`
/// and `hash`), decoding once per nested archive; every other walk keeps a stack of its own. A
/// secondary thread's 512 KiB on some systems holds about a dozen nested archives in a debug
/// build, so depth limits alone cannot keep a raised limit from crashing the process. A thread
/// stack is only reserved address space until used, so a generous one costs nothing.
///
/// Work runs in place when the calling thread already has the room (nested calls do), and
/// otherwise on a thread of the `WorkerPool`: making a thread per call costs more than decoding
/// a small archive.
package enum DeepStack {
    /// Stack bytes reserved per level of `maxDepth`, and eight times as much per nested archive:
    /// a wide margin over what a debug build was measured to use (about 210 bytes a level to
    /// free a tree, 43 KiB to read and decode a nested archive).
    static let bytesPerLevel = 64 * 1024

    /// The stack a thread needs to decode and print input within `limits`.
    /// Limits too large for any stack (`Int.max` for "no limit") ask for `Int.max`.
    public static func stackSize(for limits: DecodingLimits) -> Int {
        let levels = max(0, limits.maxDepth).addingReportingOverflow(8.multipliedReportingOverflow(by: max(0, limits.maxArchiveDepth)).partialValue)
        let bytes = levels.partialValue.multipliedReportingOverflow(by: bytesPerLevel)
        guard limits.maxArchiveDepth <= Int.max / 8, !levels.overflow, !bytes.overflow else { return .max }
        return bytes.partialValue.addingReportingOverflow(16 * 1024 * 1024).overflow ? .max : bytes.partialValue + 16 * 1024 * 1024
    }

    /// Runs `body` where at least `stackSize` bytes of stack are free, and waits for it: in
    /// place, or on a worker of the pool (waiting for one to be free when every worker is busy).
    /// Only where no worker can ever take it does `body` get a thread of its own: more stack
    /// than a worker has (limits past any the command line accepts), or a worker short of stack
    /// (which must not wait for the queue). If no thread can be made, `body` runs in place.
    public static func run<T, E: Error>(stackSize: Int, _ body: () throws(E) -> T) throws(E) -> T {
        if StackBounds.remainingOnCurrentThread() >= stackSize {
            return try body()
        }
        var result: Result<T, E>?
        withoutActuallyEscaping(body) { body in
            let work = { result = Result { () throws(E) -> T in try body() } }
            if !WorkerPool.shared.runAndWait(work, stackSize: stackSize), !WorkerPool.runOnThreadOfItsOwn(work, stackSize: stackSize) {
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

    /// `transform` applied to every element, on all processors (workers with `stackSize` bytes of
    /// stack) when there are many: an archive may hold tens of thousands of saved objects. The
    /// calling thread runs `first` (other work) before it joins in.
    static func map<Element, Result>(
        _ elements: [Element], concurrently: Bool, stackSize: Int, first: () -> Void = {}, _ transform: (Element) -> Result
    ) -> [Result] {
        guard concurrently, elements.count >= 256, availableThreads > 1 else {
            first()
            return elements.map(transform)
        }
        return [Result](unsafeUninitializedCapacity: elements.count) { buffer, initialized in
            concurrentPerform(count: elements.count, threads: availableThreads, stackSize: stackSize, first: first) { index in
                (buffer.baseAddress! + index).initialize(to: transform(elements[index]))
            }
            initialized = elements.count
        }
    }

    /// `0..<count` cut into parts to be handled apart, on several processors: one part for fewer
    /// than 256 items, otherwise up to 32 of at least 32 items. The same on every machine, so
    /// that what is made of the parts does not depend on how many threads made it.
    static func parts(of count: Int) -> [Range<Int>] {
        let parts = count >= 256 ? min(count / 32, 32) : 1
        return (0..<parts).map { ($0 * count / parts)..<(($0 + 1) * count / parts) }
    }

    /// `transform` of each part of `0..<count` (see `parts(of:)`), in order, on all processors;
    /// the calling thread runs `first` before it joins in.
    static func mapParts<Result>(
        of count: Int, stackSize: Int, first: () -> Void = {}, _ transform: (Range<Int>) -> Result
    ) -> [Result] {
        let parts = parts(of: count)
        return [Result](unsafeUninitializedCapacity: parts.count) { buffer, initialized in
            concurrentPerform(count: parts.count, threads: parts.count > 1 ? availableThreads : 1, stackSize: stackSize, first: first) { index in
                (buffer.baseAddress! + index).initialize(to: transform(parts[index]))
            }
            initialized = parts.count
        }
    }

    /// Calls `body(index)` for every index in `0..<count`, spread over the calling thread and up
    /// to `threads - 1` workers of the pool with at least `stackSize` bytes of stack; returns when
    /// all calls have. Indices are handed out in small batches, in order. Workers that are busy
    /// (a nested call, say) do no share: the others, and the calling thread, do it. The calling
    /// thread runs `first` (other work) before it joins in.
    static func concurrentPerform(
        count: Int, threads: Int, stackSize: Int, first: () -> Void = {}, _ body: (_ index: Int) -> Void
    ) {
        let queue = WorkQueue(count: count, threads: threads)
        let helpers = max(0, min(threads, count) - 1)
        withoutActuallyEscaping(body) { body in
            var jobs: [WorkerPool.Job] = []
            for _ in 0..<helpers {
                guard let job = WorkerPool.shared.submit(stackSize: stackSize, { queue.drain(body) }) else { break }
                jobs.append(job)
            }
            first()
            queue.drain(body)
            // Helpers that never started are taken back; the others finish their batch.
            for job in jobs { WorkerPool.shared.finish(job, takingBack: true) }
        }
    }
}

/// Hands out indices `0..<count` in batches to the threads of `concurrentPerform`.
private final class WorkQueue: Sendable {
    private let next = Atomic<Int>(0)
    private let count: Int
    /// Indices taken at a time: enough to make taking cheap, few enough to balance the load
    /// (one at a time when there are few per thread).
    private let batch: Int

    init(count: Int, threads: Int) {
        self.count = count
        batch = max(1, min(8, count / (16 * max(1, threads))))
    }

    func drain(_ body: (Int) -> Void) {
        while true {
            // Past `count` it grows by at most a batch per thread before every thread stops.
            let start = next.wrappingAdd(batch, ordering: .relaxed).oldValue
            guard start < count else { return }
            for index in start..<min(count, start + batch) { body(index) }
        }
    }
}

/// How much stack the current thread has left, known for the threads the library makes: each
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

    /// Whether the current thread is one of the library's (a worker of the pool, or a thread of
    /// its own that may queue helpers): those record their stack.
    static var isWorker: Bool { keyCreated && pthread_getspecific(key) != nil }

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

/// The worker threads: as many as `DeepStack.availableThreads`, each with a stack large enough
/// for the largest limits the command line accepts, made when first needed and kept. Work is
/// queued and taken in order; a caller waits for its own work only. A worker never waits for
/// queued work that no worker has started (helpers are taken back, and a worker's own call to
/// `runAndWait` is refused), so no worker can wait for itself.
private final class WorkerPool: @unchecked Sendable {
    static let shared = WorkerPool(maximumThreads: DeepStack.availableThreads)
    /// Each worker's stack: reserved address space, touched only as deep as the work goes.
    static let stackSize = 512 * 1024 * 1024

    /// One piece of queued work. `work` is dropped as soon as it has run (or was taken back), so
    /// that a caller's non-escaping closure is not kept past its call.
    final class Job {
        fileprivate var work: (() -> Void)?
        fileprivate var started = false
        fileprivate var finished = false

        init(_ work: @escaping () -> Void) {
            self.work = work
        }
    }

    private let maximumThreads: Int
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var queue: [Job] = []
    private var threads = 0
    /// Workers waiting for work.
    private var idle = 0

    private init(maximumThreads: Int) {
        self.maximumThreads = maximumThreads
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    /// Queues `work` for a worker; nil, with nothing queued, when it needs more stack than a
    /// worker has, or every worker is busy and no more can be made (unless `waiting`: then it
    /// waits in the queue for the first worker free).
    func submit(stackSize: Int, waiting: Bool = false, _ work: @escaping () -> Void) -> Job? {
        guard stackSize <= Self.stackSize else { return nil }
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        if idle <= queue.count, !(threads < maximumThreads && startWorker()), !(waiting && threads > 0) {
            return nil
        }
        let job = Job(work)
        queue.append(job)
        pthread_cond_broadcast(&condition)
        return job
    }

    /// Runs `work` on a worker and waits for it, for a worker to be free first if need be; false
    /// if no worker could take it, or the caller is a worker (which must not wait for the queue).
    func runAndWait(_ work: () -> Void, stackSize: Int) -> Bool {
        guard !StackBounds.isWorker else { return false }
        return withoutActuallyEscaping(work) { work in
            guard let job = submit(stackSize: stackSize, waiting: true, work) else { return false }
            finish(job, takingBack: false)
            return true
        }
    }

    /// Waits until `job` is done; with `takingBack`, a job no worker has started yet is taken
    /// off the queue instead (a helper whose share others have done).
    func finish(_ job: Job, takingBack: Bool) {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        if takingBack, !job.started, let position = queue.firstIndex(where: { $0 === job }) {
            queue.remove(at: position)
            job.work = nil
            return
        }
        while !job.finished { pthread_cond_wait(&condition, &mutex) }
    }

    /// Starts one more worker (the mutex held); false if no thread could be made.
    private func startWorker() -> Bool {
        guard Self.startThread(stackSize: Self.stackSize, detached: true, { [self] in serve() }) != nil else { return false }
        threads += 1
        return true
    }

    /// Runs `work` on a thread made for it, with `stackSize` bytes of stack, and joins it; false
    /// if the thread could not be made.
    static func runOnThreadOfItsOwn(_ work: @escaping () -> Void, stackSize: Int) -> Bool {
        guard let thread = startThread(stackSize: stackSize, detached: false, work) else { return false }
        pthread_join(thread, nil)
        return true
    }

    /// A new thread with `stackSize` bytes of stack that records its bounds, then runs `work`;
    /// nil if it could not be made.
    private static func startThread(stackSize: Int, detached: Bool, _ work: @escaping () -> Void) -> pthread_t? {
        final class Start {
            let work: () -> Void
            let stackSize: Int
            init(_ work: @escaping () -> Void, stackSize: Int) {
                (self.work, self.stackSize) = (work, stackSize)
            }
        }
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        guard pthread_attr_setstacksize(&attributes, stackSize) == 0 else { return nil }
        if detached { pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) }
        // `pthread_t` is an integer on Linux, a pointer on Darwin, whose `pthread_create` fills
        // an optional.
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let start = Unmanaged.passRetained(Start(work, stackSize: stackSize))
        let created = pthread_create(&thread, &attributes, { raw in
            // Optional on Linux, not on Darwin: the same code reads both.
            let argument: UnsafeMutableRawPointer? = raw
            let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
            StackBounds.recordCurrentThread(stackSize: start.stackSize)
            start.work()
            return nil
        }, start.toOpaque())
        guard created == 0 else {
            start.release()
            return nil
        }
        return thread
    }

    /// A worker's life: take the oldest job, run it, say it is done.
    private func serve() {
        pthread_mutex_lock(&mutex)
        while true {
            while queue.isEmpty {
                idle += 1
                pthread_cond_wait(&condition, &mutex)
                idle -= 1
            }
            let job = queue.removeFirst()
            job.started = true
            var work = job.work
            job.work = nil
            pthread_mutex_unlock(&mutex)
            work?()
            // Released before the caller hears the job is done: its closure must not outlive
            // the call that made it.
            work = nil
            pthread_mutex_lock(&mutex)
            job.finished = true
            pthread_cond_broadcast(&condition)
        }
    }
}
