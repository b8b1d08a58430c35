import Crypto

/// SHA-256 of bytes already in memory, from swift-crypto: `scan` prints the digest of each file
/// it read, so that a row can be matched to a file in an evidence log. The bytes hashed are the
/// ones decoded, read once: no second read that a swapped-in file could race.
enum FileDigest {
    /// The SHA-256 of `bytes` as 64 lowercase hexadecimal digits.
    static func sha256Hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
