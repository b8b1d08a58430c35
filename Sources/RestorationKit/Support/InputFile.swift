#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an input file whole, read-only; `-` is standard input. The one way every command
/// opens what it reads.
///
/// Evidence files must stay untouched: the file is opened O_RDONLY and nothing is written next
/// to it. Only a regular file is read, its size checked before reading: a device node or a FIFO
/// (named, or reached through a symbolic link) is refused, so that no name makes the tool read
/// an endless input. Standard input is read up to the size limit; the open never waits, and a
/// pipe whose writer sends nothing for `idleSeconds` is an error. What is opened is checked on
/// the descriptor (`fstat`), not by a `stat` before opening, which a swapped-in file could race.
/// With a run's budget, the bytes read are granted to it (see `RunBudget`).
package enum InputFile {
    /// How long a pipe or device may send nothing before reading it gives up.
    public static let idleSeconds: Int32 = 30

    /// Reads `path`. With `followingLinks` false (files found while walking a directory), a
    /// symbolic link is refused rather than followed.
    public static func read(_ path: String, limit: Int = DecodingLimits.default.maxInputBytes, followingLinks: Bool = true, run: RunBudget? = nil) throws(ArchiveError) -> [UInt8] {
        try contents(of: path, limit: limit, followingLinks: followingLinks, run: run).bytes
    }

    /// A file's bytes and its modification time, both from the one open descriptor.
    public struct Contents: Sendable {
        public var bytes: [UInt8]
        /// Nil for standard input.
        public var modificationTime: FileTime?
    }

    /// Reads `path` as `read` does, and says when the file was last modified.
    public static func contents(of path: String, limit: Int = DecodingLimits.default.maxInputBytes, followingLinks: Bool = true, run: RunBudget? = nil) throws(ArchiveError) -> Contents {
        let contents = try contents(of: path, limit: limit, followingLinks: followingLinks)
        run?.grant(inputBytes: contents.bytes.count)
        return contents
    }

    private static func contents(of path: String, limit: Int, followingLinks: Bool) throws(ArchiveError) -> Contents {
        if path == "-" {
            return Contents(bytes: try readAll(descriptor: 0, limit: limit))
        }
        let descriptor = PathOpening.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (followingLinks ? 0 : O_NOFOLLOW), followingLinks: followingLinks)
        guard descriptor >= 0 else {
            if errno == ELOOP, !followingLinks {
                throw ArchiveError(.unreadable, "is a symbolic link, which is not followed")
            }
            throw ArchiveError(.unreadable, "cannot open: " + errorText())
        }
        defer { close(descriptor) }
        var status = stat()
        var expectedSize = 0
        guard fstat(descriptor, &status) == 0 else {
            throw ArchiveError(.unreadable, "cannot open: " + errorText())
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            throw ArchiveError(.unreadable, "is a directory, not an archive file")
        case S_IFREG:
            if Int(status.st_size) > limit {
                throw ArchiveError(.limitExceeded, DecodingLimit.inputSize.exceeded(limit) + " (the file is \(status.st_size) bytes)")
            }
            expectedSize = Int(status.st_size)
        case S_IFIFO, S_IFCHR, S_IFBLK, S_IFSOCK:
            throw ArchiveError(.unreadable, "is a \(kindName(status.st_mode)), not a regular file" + (followingLinks ? " (- reads standard input)" : ""))
        default:
            throw ArchiveError(.unreadable, "is a \(kindName(status.st_mode)), not an archive file")
        }
        return Contents(bytes: try readAll(descriptor: descriptor, limit: limit, expectedSize: expectedSize), modificationTime: modificationTime(status))
    }

    private static func modificationTime(_ status: stat) -> FileTime {
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        return FileTime(seconds: Int64(time.tv_sec), nanoseconds: Int(time.tv_nsec))
    }

    private static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "FIFO"
        case S_IFCHR: "character device"
        case S_IFBLK: "block device"
        case S_IFSOCK: "socket"
        case S_IFLNK: "symbolic link"
        default: "special file"
        }
    }

    /// Reads to the end. A regular file's size is known, so its bytes are read straight into a
    /// buffer of that size (one pass, no copies); a file that grows meanwhile, a pipe or a device
    /// continues in pieces, up to `limit`.
    private static func readAll(descriptor: Int32, limit: Int, expectedSize: Int = 0) throws(ArchiveError) -> [UInt8] {
        // One byte more than expected, so that reaching the end is seen without another buffer.
        var capacity = max(expectedSize + 1, 1 << 16)
        var count = 0
        var readError: Int32 = 0
        var reachedEnd = false
        // The first buffer is read into uninitialized: zeroing a large file's worth first would
        // touch every page twice.
        var bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            if expectedSize >= parallelReadSize {
                LargePages.advise(buffer.baseAddress!, count: buffer.count)
            }
            if expectedSize >= parallelReadSize, readInParallel(descriptor, into: buffer.baseAddress!, count: expectedSize) {
                count = expectedSize
            }
            while count < buffer.count {
                let got = readBytes(descriptor, buffer.baseAddress! + count, buffer.count - count)
                if got < 0 {
                    if errno == EINTR { continue }
                    readError = errno
                    break
                }
                if got == 0 {
                    reachedEnd = true
                    break
                }
                count += got
            }
            initialized = count
        }
        if readError != 0 {
            errno = readError
            throw ArchiveError(.unreadable, "cannot read: " + errorText())
        }
        guard !reachedEnd else {
            guard count <= limit else {
                throw ArchiveError(.limitExceeded, DecodingLimit.inputSize.exceeded(limit))
            }
            return bytes
        }
        while true {
            if count == capacity {
                guard count <= limit else {
                    throw ArchiveError(.limitExceeded, DecodingLimit.inputSize.exceeded(limit))
                }
                capacity = min(2 * capacity, limit + 1)
                bytes.append(contentsOf: repeatElement(0, count: capacity - count))
            }
            let got = bytes.withUnsafeMutableBytes { readBytes(descriptor, $0.baseAddress! + count, capacity - count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw ArchiveError(.unreadable, "cannot read: " + errorText())
            }
            if got == 0 { break }
            count += got
            guard count <= limit else {
                throw ArchiveError(.limitExceeded, DecodingLimit.inputSize.exceeded(limit))
            }
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// From this size on, a regular file is read by two threads, half each: most of a large
    /// read's time goes to the kernel's giving the fresh buffer its pages, which runs in parallel.
    private static var parallelReadSize: Int { 4 << 20 }

    /// Reads bytes `0..<count` of the file into `buffer` with `pread`, on two threads; false,
    /// with the file offset unchanged, if that did not read them all (the caller then reads
    /// from the start as usual). On success the file offset is `count`.
    private static func readInParallel(_ descriptor: Int32, into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        guard Parallel.processors > 1 else { return false }
        let half = count / 2 & ~4095
        let ranges = [0..<half, half..<count]
        var complete = [false, false]
        complete.withUnsafeMutableBufferPointer { complete in
            Parallel.forEach(2) { part in
                var position = ranges[part].lowerBound
                while position < ranges[part].upperBound {
                    let got = pread(descriptor, buffer + position, ranges[part].upperBound - position, off_t(position))
                    if got < 0, errno == EINTR { continue }
                    guard got > 0 else { return }
                    position += got
                }
                // Each thread writes its own element; the join orders it before the read below.
                complete[part] = true
            }
        }
        return complete == [true, true] && lseek(descriptor, off_t(count), SEEK_SET) == off_t(count)
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}

/// `read(2)`; at file scope so that the name is not taken by `InputFile.read`. A descriptor
/// opened non-blocking that has nothing yet (a pipe whose writer is slow) is waited on with
/// `poll`, for `InputFile.idleSeconds` at most: then it fails with ETIMEDOUT.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    while true {
        let got = read(descriptor, buffer, count)
        guard got < 0, errno == EAGAIN || errno == EWOULDBLOCK else { return got }
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&waiting, 1, InputFile.idleSeconds * 1000)
        if ready == 0 {
            errno = ETIMEDOUT
            return -1
        }
        if ready < 0, errno != EINTR { return -1 }
    }
}
