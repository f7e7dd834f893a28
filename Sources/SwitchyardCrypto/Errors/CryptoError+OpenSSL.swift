import COpenSSL

extension CryptoError {
    /// An ``Code/openSSLFailure`` naming the OpenSSL function that failed and OpenSSL's first queued
    /// error; the rest of this thread's OpenSSL error queue is cleared.
    static func openSSL(_ function: String) -> CryptoError {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else {
            return CryptoError(code: .openSSLFailure, message: "\(function) failed (OpenSSL queued no error).")
        }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return CryptoError(code: .openSSLFailure, message: "\(function) failed: \(text)")
    }

    /// An expected failure (bad padding, tag mismatch): OpenSSL's error queue is cleared so that it
    /// does not leak into a later ``Code/openSSLFailure`` message.
    static func expected(_ code: Code, _ message: String) -> CryptoError {
        ERR_clear_error()
        return CryptoError(code: code, message: message)
    }

    /// ``Code/invalidKeySize`` for a key of `actual` bytes where `allowed` sizes are accepted.
    static func invalidKeySize(_ actual: Int, allowed: [Int], algorithm: String) -> CryptoError {
        let sizes = allowed.map(String.init).joined(separator: ", ")
        return CryptoError(
            code: .invalidKeySize,
            message: "\(algorithm) needs a key of \(sizes) bytes; this key has \(actual) bytes."
        )
    }
}
