import COpenSSL
public import Foundation

/// AES-GCM authenticated encryption (AES-128-GCM or AES-256-GCM, by key size) through OpenSSL EVP.
///
/// The default and recommended scheme: it encrypts and authenticates the plaintext and binds optional
/// associated data (AAD) that travels in the clear. Nonces are 96 bits and tags 128 bits.
///
/// ```swift
/// let key = try SymmetricKey.random(byteCount: 32)
/// let box = try AESGCM.seal(Data("hello".utf8), using: key, authenticating: Data("POST /v1/users".utf8))
/// let wire = box.combined                                   // nonce ‖ ciphertext ‖ tag
/// let opened = try AESGCM.open(AESGCM.SealedBox(combined: wire), using: key,
///                              authenticating: Data("POST /v1/users".utf8))
/// ```
///
/// Never seal two messages with the same key and nonce; the overload without a nonce draws a fresh
/// random one for each message.
public enum AESGCM {
    /// The nonce size: 12 bytes (96 bits).
    public static let nonceByteCount = 12
    /// The authentication tag size: 16 bytes (128 bits).
    public static let tagByteCount = 16
    /// The accepted key sizes: 16 bytes (AES-128-GCM) and 32 bytes (AES-256-GCM).
    public static let keyByteCounts = [16, 32]

    /// Encrypts and authenticates `plaintext` under a fresh random 12-byte nonce.
    ///
    /// - Parameters:
    ///   - plaintext: the bytes to encrypt; may be empty.
    ///   - key: a 16- or 32-byte key.
    ///   - aad: associated data that is authenticated but not encrypted; may be empty.
    /// - Throws: ``CryptoError/Code/invalidKeySize``, ``CryptoError/Code/randomFailure``,
    ///   ``CryptoError/Code/openSSLFailure``.
    public static func seal(
        _ plaintext: some ContiguousBytes,
        using key: SymmetricKey,
        authenticating aad: some ContiguousBytes = Data()
    ) throws(CryptoError) -> SealedBox {
        let cipher = try cipher(for: key)
        let nonce = try NonceSource.bytes(count: nonceByteCount)
        let (ciphertext, tag) = try plaintext.withCryptoBytes { input throws(CryptoError) in
            try aad.withCryptoBytes { aadBytes throws(CryptoError) in
                try nonce.withCryptoBytes { nonceBytes throws(CryptoError) in
                    try sealCore(cipher, key: key, nonce: nonceBytes, plaintext: input, aad: aadBytes)
                }
            }
        }
        return SealedBox(validatedNonce: nonce, ciphertext: ciphertext, tag: tag)
    }

    /// Encrypts and authenticates `plaintext` under a fresh random 12-byte nonce: the same as the
    /// generic form, without generic dispatch, for the `Data` bodies the stages seal.
    ///
    /// - Throws: ``CryptoError/Code/invalidKeySize``, ``CryptoError/Code/randomFailure``,
    ///   ``CryptoError/Code/openSSLFailure``.
    public static func seal(_ plaintext: Data, using key: SymmetricKey, authenticating aad: Data = Data()) throws(CryptoError) -> SealedBox
    {
        let cipher = try cipher(for: key)
        let nonce = try NonceSource.bytes(count: nonceByteCount)
        let sealed: Result<(ciphertext: Data, tag: Data), CryptoError> = plaintext.withUnsafeBytes { input in
            aad.withUnsafeBytes { aadBytes in
                nonce.withUnsafeBytes { nonceBytes in
                    Result { () throws(CryptoError) in try sealCore(cipher, key: key, nonce: nonceBytes, plaintext: input, aad: aadBytes) }
                }
            }
        }
        let (ciphertext, tag) = try sealed.get()
        return SealedBox(validatedNonce: nonce, ciphertext: ciphertext, tag: tag)
    }

    /// Encrypts and authenticates `plaintext` under the given nonce.
    ///
    /// Use this only when a protocol dictates the nonce (or for known-answer tests); a nonce must never
    /// repeat under the same key.
    ///
    /// - Parameters:
    ///   - plaintext: the bytes to encrypt; may be empty.
    ///   - key: a 16- or 32-byte key.
    ///   - nonce: exactly 12 bytes.
    ///   - aad: associated data that is authenticated but not encrypted; may be empty.
    /// - Throws: ``CryptoError/Code/invalidKeySize``, ``CryptoError/Code/invalidNonceSize``,
    ///   ``CryptoError/Code/openSSLFailure``.
    public static func seal(
        _ plaintext: some ContiguousBytes,
        using key: SymmetricKey,
        nonce: some ContiguousBytes,
        authenticating aad: some ContiguousBytes = Data()
    ) throws(CryptoError) -> SealedBox {
        let cipher = try cipher(for: key)
        let nonce = try SealedBox.checkedNonce(nonce)
        let (ciphertext, tag) = try plaintext.withCryptoBytes { input throws(CryptoError) in
            try aad.withCryptoBytes { aadBytes throws(CryptoError) in
                try nonce.withCryptoBytes { nonceBytes throws(CryptoError) in
                    try sealCore(cipher, key: key, nonce: nonceBytes, plaintext: input, aad: aadBytes)
                }
            }
        }
        return SealedBox(validatedNonce: nonce, ciphertext: ciphertext, tag: tag)
    }

    /// Checks the tag and decrypts a sealed box.
    ///
    /// No plaintext is returned unless the tag matches; a mismatch wipes what was decrypted.
    ///
    /// - Parameters:
    ///   - box: the nonce, ciphertext and tag.
    ///   - key: the key the box was sealed with.
    ///   - aad: the same associated data that was passed to `seal`.
    /// - Throws: ``CryptoError/Code/authenticationFailed`` if anything was changed or the key or AAD
    ///   differ; ``CryptoError/Code/invalidKeySize``; ``CryptoError/Code/openSSLFailure``.
    public static func open(
        _ box: SealedBox,
        using key: SymmetricKey,
        authenticating aad: some ContiguousBytes = Data()
    ) throws(CryptoError) -> Data {
        let cipher = try cipher(for: key)
        return try aad.withCryptoBytes { aadBytes throws(CryptoError) in
            try openCore(cipher, key: key, box: box, aad: aadBytes)
        }
    }

    /// The EVP cipher for the key's size.
    static func cipher(for key: SymmetricKey) throws(CryptoError) -> OpaquePointer {
        let cipher: OpaquePointer? =
            switch key.byteCount {
            case 16: switchyard_cipher(SWITCHYARD_AES_128_GCM)
            case 32: switchyard_cipher(SWITCHYARD_AES_256_GCM)
            default: throw CryptoError.invalidKeySize(key.byteCount, allowed: keyByteCounts, algorithm: "AES-GCM")
            }
        guard let cipher else { throw CryptoError.openSSL("EVP_aes_*_gcm") }
        return cipher
    }
}
