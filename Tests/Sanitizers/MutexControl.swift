// A correct program: two threads count under one Synchronization.Mutex. Tests/Sanitizers/thread
// runs it under ThreadSanitizer to learn whether the sanitizer sees this toolchain's Mutex (on
// Linux a contended lock is handed over by a futex in the standard library, which is not
// instrumented); see tsan-suppressions.txt.
import Foundation
import Synchronization

final class Counter: Sendable {
    let state = Mutex<(count: Int, seen: [Bool])>((0, [Bool](repeating: false, count: 64)))
}

let counter = Counter()
let rounds = 20_000
let threads = (0..<2).map { _ in
    Thread {
        for round in 0..<rounds {
            counter.state.withLock { state in
                state.count += 1
                state.seen[round % 64] = true
            }
        }
    }
}
threads.forEach { $0.start() }
while counter.state.withLock({ $0.count }) < 2 * rounds {
    usleep(1_000)
}
print(counter.state.withLock { $0.count })
