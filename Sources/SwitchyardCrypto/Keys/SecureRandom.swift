import COpenSSL
public import Foundation

/// Cryptographically secure random bytes from OpenSSL's `RAND_bytes`.
///
/// Use it for keys, nonces and IVs:
///
/// ```swift
/// let iv = try SecureRandom.bytes(count: 16)
/// ```
public enum SecureRandom {
    /// Returns `count` random bytes.
    ///
    /// - Parameter count: how many bytes; zero gives empty data.
    /// - Throws: ``CryptoError/Code/invalidInput`` for a negative count,
    ///   ``CryptoError/Code/randomFailure`` if the generator fails.
    public static func bytes(count: Int) throws(CryptoError) -> Data {
        guard count >= 0 else {
            throw CryptoError(code: .invalidInput, message: "Cannot generate \(count) random bytes.")
        }
        var data = Data(count: count)
        try data.withMutableCryptoBytes { buffer throws(CryptoError) in try fill(buffer) }
        return data
    }

    /// Fills `buffer` with random bytes, in pieces small enough for `RAND_bytes`' `int` length.
    static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        guard let base = buffer.bytePointer else { return }
        var offset = 0
        while offset < buffer.count {
            let chunk = min(buffer.count - offset, Int(Int32.max))
            guard RAND_bytes(base + offset, Int32(chunk)) == 1 else {
                let detail = CryptoError.openSSL("RAND_bytes").message
                throw CryptoError(code: .randomFailure, message: "The secure random generator failed: \(detail)")
            }
            offset += chunk
        }
    }
}
