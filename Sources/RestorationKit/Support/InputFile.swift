#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an input file whole, read-only; `-` is standard input.
///
/// Evidence files must stay untouched: the file is opened O_RDONLY and nothing is written next
/// to it. The size is bounded so a huge or endless input (a device node, a pipe) cannot take
/// all memory.
public enum InputFile {
    public static func read(_ path: String, limit: Int = DecodingLimits.default.maxInputBytes) throws(ArchiveError) -> [UInt8] {
        if path == "-" {
            return try readAll(descriptor: 0, limit: limit)
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ArchiveError(.unreadable, "cannot open: " + errorText())
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0 {
            if (status.st_mode & S_IFMT) == S_IFDIR {
                throw ArchiveError(.unreadable, "is a directory, not an archive file")
            }
            if (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) > limit {
                throw ArchiveError(.limitExceeded, "file is \(status.st_size) bytes, larger than the limit of \(limit) bytes")
            }
        }
        return try readAll(descriptor: descriptor, limit: limit)
    }

    private static func readAll(descriptor: Int32, limit: Int) throws(ArchiveError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { readBytes(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ArchiveError(.unreadable, "cannot read: " + errorText())
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else {
                throw ArchiveError(.limitExceeded, "input is larger than the limit of \(limit) bytes")
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}

/// `read(2)`; at file scope so that the name is not taken by `InputFile.read`.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
