#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// The library's one way to spread work over the processors: Dispatch's `concurrentPerform`,
/// in which the calling thread takes part.
///
/// Work may run on any thread with any stack (512 KiB on Apple systems' secondary threads):
/// every walk of input-controlled nesting keeps a stack of its own, and nested archives are
/// levels of the decoder's (see `DecodingState.drive`), so nothing here sizes a stack.
package enum Parallel {
    /// The processors online, read once: `sysconf` reads a file under /sys each time.
    static let processors: Int = {
        #if canImport(Glibc) || canImport(Musl)
        let online = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        #else
        let online = sysconf(_SC_NPROCESSORS_ONLN)
        #endif
        return max(1, online)
    }()

    /// Calls `body(index)` for every index in `0..<count`, at the same time on several
    /// processors when there are several of both (and `concurrently`), and returns when all
    /// calls have.
    static func forEach(_ count: Int, concurrently: Bool = true, _ body: (_ index: Int) -> Void) {
        if count <= 1 || processors == 1 || !concurrently {
            for index in 0..<count { body(index) }
        } else {
            withoutActuallyEscaping(body) { body in
                let shared = SharedBody(body: body)
                DispatchQueue.concurrentPerform(iterations: count) { shared.body($0) }
            }
        }
    }

    /// The one unchecked claim of the library: what a body of `forEach` captures is shared by
    /// the threads that call it. Its callers give each index its own element to write, and
    /// `concurrentPerform` returns after every call has, so nothing is read while written.
    private struct SharedBody: @unchecked Sendable {
        let body: (Int) -> Void
    }

    /// `0..<count` cut into parts to be handled apart, on several processors: one part for fewer
    /// than 256 items, otherwise up to 32 of at least 32 items. The same on every machine, so
    /// that what is made of the parts does not depend on how many threads made it.
    static func parts(of count: Int) -> [Range<Int>] {
        let parts = count >= 256 ? min(count / 32, 32) : 1
        return (0..<parts).map { ($0 * count / parts)..<(($0 + 1) * count / parts) }
    }

    /// `transform` of each part of `0..<count` (see `parts(of:)`), in order, on all processors;
    /// `first` (other work) runs once, beside the parts.
    static func mapParts<Result>(of count: Int, first: () -> Void = {}, _ transform: (Range<Int>) -> Result) -> [Result] {
        let parts = parts(of: count)
        guard parts.count > 1 else {
            first()
            return parts.map(transform)
        }
        return [Result](unsafeUninitializedCapacity: parts.count) { buffer, initialized in
            // The last index is `first`'s.
            forEach(parts.count + 1) { index in
                guard index < parts.count else { return first() }
                (buffer.baseAddress! + index).initialize(to: transform(parts[index]))
            }
            initialized = parts.count
        }
    }

    /// `transform` of every element, in order, on all processors when there are many (see
    /// `parts(of:)`) and `concurrently`.
    static func map<Element, Result>(_ elements: [Element], concurrently: Bool, _ transform: (Element) -> Result) -> [Result] {
        guard concurrently, elements.count >= 256, processors > 1 else { return elements.map(transform) }
        let parts = parts(of: elements.count)
        return [Result](unsafeUninitializedCapacity: elements.count) { buffer, initialized in
            forEach(parts.count) { part in
                for index in parts[part] { (buffer.baseAddress! + index).initialize(to: transform(elements[index])) }
            }
            initialized = elements.count
        }
    }
}
