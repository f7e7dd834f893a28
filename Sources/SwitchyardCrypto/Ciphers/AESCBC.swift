import COpenSSL
public import Foundation

/// AES-CBC with PKCS#7 padding (AES-128/192/256 by key size) through OpenSSL EVP.
///
/// CBC on its own is not authenticated: a changed ciphertext decrypts to changed plaintext or to a
/// padding error, and padding errors can leak plaintext to an attacker who can retry. Pair it with
/// HMAC-SHA256 over IV and ciphertext (encrypt-then-MAC) and check the MAC first, or prefer ``AESGCM``.
/// Use a fresh random IV per message (`SecureRandom.bytes(count: 16)`).
///
/// ```swift
/// let iv = try SecureRandom.bytes(count: AESCBC.ivByteCount)
/// let ciphertext = try AESCBC.encrypt(Data("hello".utf8), using: key, iv: iv)
/// let plaintext = try AESCBC.decrypt(ciphertext, using: key, iv: iv)
/// ```
public enum AESCBC {
    /// The IV size: 16 bytes (one AES block).
    public static let ivByteCount = 16
    /// The accepted key sizes: 16, 24 and 32 bytes (AES-128, AES-192, AES-256).
    public static let keyByteCounts = [16, 24, 32]

    /// Pads `plaintext` with PKCS#7 and encrypts it.
    ///
    /// The result is 1 to 16 bytes longer than the plaintext (always a multiple of 16; an empty
    /// plaintext gives one block).
    ///
    /// - Throws: ``CryptoError/Code/invalidKeySize``, ``CryptoError/Code/invalidIVSize``,
    ///   ``CryptoError/Code/openSSLFailure``.
    public static func encrypt(
        _ plaintext: some ContiguousBytes,
        using key: SymmetricKey,
        iv: some ContiguousBytes
    ) throws(CryptoError) -> Data {
        let cipher = try cipher(for: key)
        return try iv.withCryptoBytes { ivBytes throws(CryptoError) in
            try checkIV(ivBytes)
            return try plaintext.withCryptoBytes { input throws(CryptoError) in
                try EVPCipher.runPadded(cipher, encrypt: true, key: key, iv: ivBytes, input: input, algorithm: "AES-CBC")
            }
        }
    }

    /// Decrypts `ciphertext` and removes its PKCS#7 padding.
    ///
    /// - Throws: ``CryptoError/Code/truncatedInput`` if the ciphertext is empty or not a multiple of
    ///   16 bytes; ``CryptoError/Code/badPadding`` if the padding is wrong (wrong key or IV, or
    ///   tampered data); ``CryptoError/Code/invalidKeySize``; ``CryptoError/Code/invalidIVSize``;
    ///   ``CryptoError/Code/openSSLFailure``.
    public static func decrypt(
        _ ciphertext: some ContiguousBytes,
        using key: SymmetricKey,
        iv: some ContiguousBytes
    ) throws(CryptoError) -> Data {
        let cipher = try cipher(for: key)
        return try iv.withCryptoBytes { ivBytes throws(CryptoError) in
            try checkIV(ivBytes)
            return try ciphertext.withCryptoBytes { input throws(CryptoError) in
                try EVPCipher.checkWholeBlocks(input, algorithm: "AES-CBC")
                return try EVPCipher.runPadded(
                    cipher,
                    encrypt: false,
                    key: key,
                    iv: ivBytes,
                    input: input,
                    algorithm: "AES-CBC"
                )
            }
        }
    }

    /// The EVP cipher for the key's size.
    private static func cipher(for key: SymmetricKey) throws(CryptoError) -> OpaquePointer {
        let cipher: OpaquePointer? =
            switch key.byteCount {
            case 16: switchyard_cipher(SWITCHYARD_AES_128_CBC)
            case 24: switchyard_cipher(SWITCHYARD_AES_192_CBC)
            case 32: switchyard_cipher(SWITCHYARD_AES_256_CBC)
            default: throw CryptoError.invalidKeySize(key.byteCount, allowed: keyByteCounts, algorithm: "AES-CBC")
            }
        guard let cipher else { throw CryptoError.openSSL("EVP_aes_*_cbc") }
        return cipher
    }

    /// ``CryptoError/Code/invalidIVSize`` unless the IV has 16 bytes.
    private static func checkIV(_ iv: UnsafeRawBufferPointer) throws(CryptoError) {
        guard iv.count == ivByteCount else {
            throw CryptoError(
                code: .invalidIVSize,
                message: "An AES-CBC IV must be \(ivByteCount) bytes; got \(iv.count)."
            )
        }
    }
}
