import Foundation
import XCTest
@testable import RestorationKit

/// The pool behind `DeepStack.run`: work needing a deep stack gets one, callers beyond the
/// workers wait for one, and nested calls never wait for themselves.
final class DeepStackTests: XCTestCase {
    /// More callers than workers, each needing a deep stack, each making nested calls that split
    /// work over the pool: every call runs once, with the stack it asked for, no more at a time
    /// than there are workers (no thread is made for a caller), and none hangs.
    func testCallersBeyondTheWorkersWaitForOne() {
        let callers = 4 * DeepStack.availableThreads + 3
        let stackSize = DeepStack.stackSize(for: .default)
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var running = 0
            var mostRunning = 0
            var roomy = 0
            var sums: [Int] = []
            let done = DispatchGroup()
        }
        let results = Results()
        for caller in 0..<callers {
            results.done.enter()
            Thread {
                DeepStack.run(stackSize: stackSize) {
                    results.lock.lock()
                    results.running += 1
                    results.mostRunning = max(results.mostRunning, results.running)
                    results.lock.unlock()
                    let roomy = StackBounds.remainingOnCurrentThread() >= stackSize - (1 << 20)
                    // Nested: in place (the worker has the room), and split over any free workers.
                    let sum = DeepStack.run(stackSize: stackSize) {
                        DeepStack.mapParts(of: 10_000, stackSize: 1 << 20) { range in range.reduce(0, +) }.reduce(0, +)
                    }
                    usleep(20_000)
                    results.lock.lock()
                    results.running -= 1
                    if roomy { results.roomy += 1 }
                    results.sums.append(sum + caller)
                    results.lock.unlock()
                }
                results.done.leave()
            }.start()
        }
        XCTAssertEqual(results.done.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(results.roomy, callers)
        XCTAssertEqual(results.sums.sorted(), (0..<callers).map { 49_995_000 + $0 })
        XCTAssertLessThanOrEqual(results.mostRunning, DeepStack.availableThreads)
    }

    /// More stack than a worker has (limits past the command line's): a thread of its own.
    func testMoreStackThanAWorkerHasGetsAThreadOfItsOwn() {
        let stackSize = DeepStack.stackSize(for: DecodingLimits(maxDepth: 4096, maxArchiveDepth: 1001))
        XCTAssertGreaterThan(stackSize, 512 << 20, "more than a worker's stack")
        let caller = Thread.current
        var (elsewhere, roomy) = (false, false)
        DeepStack.run(stackSize: stackSize) {
            elsewhere = Thread.current != caller
            roomy = StackBounds.remainingOnCurrentThread() >= stackSize - (1 << 20)
        }
        XCTAssertTrue(elsewhere)
        XCTAssertTrue(roomy)
    }

    /// Limits that no stack could hold ask for the most there is, without overflowing.
    func testUnboundedLimitsAskForTheLargestStack() {
        XCTAssertEqual(DeepStack.stackSize(for: DecodingLimits(maxDepth: .max)), .max)
        XCTAssertEqual(DeepStack.stackSize(for: DecodingLimits(maxArchiveDepth: .max)), .max)
        XCTAssertEqual(DeepStack.stackSize(for: DecodingLimits(maxDepth: 0, maxArchiveDepth: 0)), 16 << 20)
        XCTAssertEqual(DeepStack.stackSize(for: .default), (16 << 20) + (512 + 8 * 16) * (64 << 10))
        // No thread has that much: the work runs in place.
        XCTAssertEqual(DeepStack.run(stackSize: .max) { 42 }, 42)
    }
}
