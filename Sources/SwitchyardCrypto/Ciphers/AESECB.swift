import COpenSSL
public import Foundation

/// AES-ECB with PKCS#7 padding (AES-128/192/256 by key size) through OpenSSL EVP.
///
/// - Warning: LEGACY and weaker. ECB encrypts every 16-byte block independently, so identical
///   plaintext blocks give identical ciphertext blocks and patterns in the data leak; it has no IV and
///   no authentication. Use it only to talk to a backend that requires it; prefer ``AESGCM``.
///
/// ```swift
/// let ciphertext = try AESECB.encrypt(Data(#"{"uid":7}"#.utf8), using: key)   // legacy backend only
/// let plaintext = try AESECB.decrypt(ciphertext, using: key)
/// ```
public enum AESECB {
    /// The accepted key sizes: 16, 24 and 32 bytes (AES-128, AES-192, AES-256).
    public static let keyByteCounts = [16, 24, 32]

    /// Pads `plaintext` with PKCS#7 and encrypts it block by block (legacy; see the type's warning).
    ///
    /// The result is 1 to 16 bytes longer than the plaintext (always a multiple of 16).
    ///
    /// - Throws: ``CryptoError/Code/invalidKeySize``, ``CryptoError/Code/openSSLFailure``.
    public static func encrypt(_ plaintext: some ContiguousBytes, using key: SymmetricKey) throws(CryptoError) -> Data {
        let cipher = try cipher(for: key)
        return try plaintext.withCryptoBytes { input throws(CryptoError) in
            try EVPCipher.runPadded(
                cipher,
                encrypt: true,
                key: key,
                iv: UnsafeRawBufferPointer(start: nil, count: 0),
                input: input,
                algorithm: "AES-ECB"
            )
        }
    }

    /// Decrypts `ciphertext` block by block and removes its PKCS#7 padding (legacy; see the type's
    /// warning).
    ///
    /// - Throws: ``CryptoError/Code/truncatedInput`` if the ciphertext is empty or not a multiple of
    ///   16 bytes; ``CryptoError/Code/badPadding`` if the padding is wrong;
    ///   ``CryptoError/Code/invalidKeySize``; ``CryptoError/Code/openSSLFailure``.
    public static func decrypt(_ ciphertext: some ContiguousBytes, using key: SymmetricKey) throws(CryptoError) -> Data {
        let cipher = try cipher(for: key)
        return try ciphertext.withCryptoBytes { input throws(CryptoError) in
            try EVPCipher.checkWholeBlocks(input, algorithm: "AES-ECB")
            return try EVPCipher.runPadded(
                cipher,
                encrypt: false,
                key: key,
                iv: UnsafeRawBufferPointer(start: nil, count: 0),
                input: input,
                algorithm: "AES-ECB"
            )
        }
    }

    /// The EVP cipher for the key's size.
    private static func cipher(for key: SymmetricKey) throws(CryptoError) -> OpaquePointer {
        let cipher: OpaquePointer? =
            switch key.byteCount {
            case 16: switchyard_cipher(SWITCHYARD_AES_128_ECB)
            case 24: switchyard_cipher(SWITCHYARD_AES_192_ECB)
            case 32: switchyard_cipher(SWITCHYARD_AES_256_ECB)
            default: throw CryptoError.invalidKeySize(key.byteCount, allowed: keyByteCounts, algorithm: "AES-ECB")
            }
        guard let cipher else { throw CryptoError.openSSL("EVP_aes_*_ecb") }
        return cipher
    }
}
