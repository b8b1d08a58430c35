import Crypto
import CryptoExtras

/// AppKit's window-state cipher: AES-128-CBC with a zero IV, no padding removed (the envelope
/// gives its own lengths; see docs/formats/macos-saved-state.md). swift-crypto does the work.
enum WindowRecordCipher {
    /// The plaintext of `ciphertext` (a whole number of 16-byte blocks) under `key` (16 bytes),
    /// appended to `plaintext`; false if the cipher refused the input.
    static func decrypt(_ ciphertext: ArraySlice<UInt8>, key: [UInt8], appendingTo plaintext: inout [UInt8]) -> Bool {
        guard key.count == 16, !ciphertext.isEmpty, ciphertext.count % 16 == 0,
              let iv = try? AES._CBC.IV(ivBytes: zeroIV),
              let decrypted = try? AES._CBC.decrypt(ciphertext, using: SymmetricKey(data: key), iv: iv, noPadding: true)
        else { return false }
        plaintext.append(contentsOf: decrypted)
        return true
    }

    private static let zeroIV = [UInt8](repeating: 0, count: 16)
}
