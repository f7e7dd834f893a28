import COpenSSL
public import Foundation

/// HMAC message authentication (RFC 2104) through OpenSSL's `EVP_MAC`.
///
/// HMAC-SHA256 is the default. HMAC-SHA1 and HMAC-MD5 exist only for legacy signature schemes that
/// backends still use.
///
/// ```swift
/// let key = SymmetricKey(Data("merchant-secret".utf8))
/// let signature = try HMAC.authenticationCode(for: Data(canonical.utf8), using: key)
/// let header = Digest.hex(signature, uppercase: true)
/// let valid = try HMAC.isValidAuthenticationCode(signature, for: Data(canonical.utf8), using: key)
/// ```
public enum HMAC {
    /// The hash function under the HMAC.
    public enum Algorithm: Sendable {
        /// HMAC-SHA256 (32-byte codes). The default and the recommended choice.
        case sha256
        /// HMAC-SHA1 (20-byte codes). Legacy: use only for old signature schemes that require it.
        case sha1
        /// HMAC-MD5 (16-byte codes). Legacy: use only for old signature schemes that require it.
        case md5

        /// The length of an authentication code in bytes.
        public var byteCount: Int {
            switch self {
            case .sha256: 32
            case .sha1: 20
            case .md5: 16
            }
        }

        /// OpenSSL's name for the digest.
        var openSSLName: String {
            switch self {
            case .sha256: "SHA256"
            case .sha1: "SHA1"
            case .md5: "MD5"
            }
        }

        /// The kind of keyed context a key keeps for this algorithm.
        var contextKind: KeyedContextPool.Kind {
            switch self {
            case .sha256: .hmacSHA256
            case .sha1: .hmacSHA1
            case .md5: .hmacMD5
            }
        }
    }

    /// Computes the HMAC of `message` under `key`.
    ///
    /// - Parameters:
    ///   - message: the bytes to authenticate; may be empty.
    ///   - key: the secret key; any length (keys longer than the hash's block are hashed first, as
    ///     RFC 2104 specifies).
    ///   - algorithm: the hash function; `.sha256` unless a legacy scheme requires another.
    /// - Returns: the code, ``Algorithm/byteCount`` bytes long.
    /// - Throws: ``CryptoError/Code/openSSLFailure`` if OpenSSL fails (for example when the OpenSSL
    ///   configuration disables MD5).
    public static func authenticationCode(
        for message: some ContiguousBytes,
        using key: SymmetricKey,
        algorithm: Algorithm = .sha256
    ) throws(CryptoError) -> Data {
        var code = Data(count: algorithm.byteCount)
        try code.withMutableCryptoBytes { output throws(CryptoError) in
            try authenticationCode(for: message, using: key, algorithm: algorithm, into: output)
        }
        return code
    }

    /// Computes the HMAC of `message` under `key` into `output`, which holds exactly
    /// ``Algorithm/byteCount`` bytes: ``authenticationCode(for:using:algorithm:)`` without a `Data`
    /// of its own, for a caller that only reads the code once (a signature written as text).
    static func authenticationCode(
        for message: some ContiguousBytes,
        using key: SymmetricKey,
        algorithm: Algorithm,
        into output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        precondition(output.count == algorithm.byteCount, "an HMAC-\(algorithm.openSSLName) code takes \(algorithm.byteCount) bytes")
        // A context this key was keyed into before, or a new one keyed now; either way one
        // `EVP_MAC_init` without a key starts the computation over.
        let kind = algorithm.contextKind
        guard
            let context = key.storage.contexts.take(kind)
                ?? key.withUnsafeBytes({ keyBytes in
                    switchyard_hmac_keyed_new(algorithm.openSSLName, keyBytes.bytePointer, keyBytes.count)
                })
        else { throw CryptoError.openSSL("HMAC-\(algorithm.openSSLName)") }
        var written = 0
        let status = message.withUnsafeBytes { messageBytes in
            switchyard_hmac_keyed(context, messageBytes.bytePointer, messageBytes.count, output.bytePointer, output.count, &written)
        }
        guard status == 1, written == algorithm.byteCount else {
            KeyedContextPool.free(context, kind)
            throw CryptoError.openSSL("HMAC-\(algorithm.openSSLName)" + (status == 1 ? " (unexpected length \(written))" : ""))
        }
        key.storage.contexts.giveBack(context, kind)
    }

    /// Whether `code` is the HMAC of `message` under `key`, compared in constant time.
    ///
    /// A code of the wrong length is simply invalid.
    ///
    /// - Throws: ``CryptoError/Code/openSSLFailure`` if OpenSSL fails to compute the expected code.
    public static func isValidAuthenticationCode(
        _ code: some ContiguousBytes,
        for message: some ContiguousBytes,
        using key: SymmetricKey,
        algorithm: Algorithm = .sha256
    ) throws(CryptoError) -> Bool {
        let expected = try authenticationCode(for: message, using: key, algorithm: algorithm)
        return ConstantTime.equals(code, expected)
    }
}
