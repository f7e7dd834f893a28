import COpenSSL
public import Foundation

/// HKDF-SHA256 key derivation (RFC 5869, extract then expand) through OpenSSL's `EVP_KDF` "HKDF".
///
/// Derive separate keys for separate purposes from one secret, binding each to a context string:
///
/// ```swift
/// let encryptionKey = try HKDF.deriveKey(
///     inputKeyMaterial: masterKey, salt: Data(), info: Data("switchyard/users/enc/v1".utf8),
///     outputByteCount: 32
/// )
/// ```
public enum HKDF {
    /// The largest output HKDF-SHA256 can produce: 255 × 32 = 8160 bytes.
    public static let maximumOutputByteCount = 255 * 32

    /// Derives a key of `outputByteCount` bytes.
    ///
    /// - Parameters:
    ///   - inputKeyMaterial: the secret to derive from.
    ///   - salt: a non-secret random value; empty means RFC 5869's default (32 zero bytes).
    ///   - info: context and application-specific information; may be empty.
    ///   - outputByteCount: 1 through 8160.
    /// - Throws: ``CryptoError/Code/invalidInput`` if `outputByteCount` is out of range,
    ///   ``CryptoError/Code/openSSLFailure`` if OpenSSL fails.
    public static func deriveKey(
        inputKeyMaterial: SymmetricKey,
        salt: some ContiguousBytes,
        info: some ContiguousBytes,
        outputByteCount: Int
    ) throws(CryptoError) -> SymmetricKey {
        guard (1...maximumOutputByteCount).contains(outputByteCount) else {
            throw CryptoError(
                code: .invalidInput,
                message: "HKDF-SHA256 can derive 1 to \(maximumOutputByteCount) bytes, not \(outputByteCount)."
            )
        }
        let storage = try KeyStorage(byteCount: outputByteCount) { output throws(CryptoError) in
            let status = inputKeyMaterial.withUnsafeBytes { key in
                salt.withUnsafeBytes { saltBytes in
                    info.withUnsafeBytes { infoBytes in
                        switchyard_hkdf_sha256(
                            key.bytePointer,
                            key.count,
                            saltBytes.bytePointer,
                            saltBytes.count,
                            infoBytes.bytePointer,
                            infoBytes.count,
                            output.bytePointer,
                            output.count
                        )
                    }
                }
            }
            guard status == 1 else { throw CryptoError.openSSL("HKDF-SHA256") }
        }
        return SymmetricKey(storage: storage)
    }
}
