import COpenSSL
import Foundation

/// The shared EVP cipher plumbing behind ``AESGCM``, ``AESCBC`` and ``AESECB``.
enum EVPCipher {
    /// The largest piece handed to one `EVP_CipherUpdate` call, whose length is an `int`.
    static let maximumChunk = 1 << 30
    /// The AES block size.
    static let blockSize = 16

    /// Feeds `input` to `context` in pieces that fit OpenSSL's `int` lengths, writing the output at
    /// `output` (pass `nil` to feed AES-GCM associated data). Returns the number of bytes written.
    static func update(
        _ context: OpaquePointer,
        input: UnsafeRawBufferPointer,
        output: UnsafeMutablePointer<UInt8>?
    ) throws(CryptoError) -> Int {
        guard let base = input.bytePointer, input.count > 0 else { return 0 }
        var consumed = 0
        var produced = 0
        while consumed < input.count {
            let chunk = min(maximumChunk, input.count - consumed)
            var written: Int32 = 0
            let destination = output.map { $0 + produced }
            guard EVP_CipherUpdate(context, destination, &written, base + consumed, Int32(chunk)) == 1 else {
                throw CryptoError.openSSL("EVP_CipherUpdate")
            }
            consumed += chunk
            produced += Int(written)
        }
        return produced
    }

    /// ``CryptoError/Code/truncatedInput`` unless `input` is one or more whole AES blocks.
    static func checkWholeBlocks(_ input: UnsafeRawBufferPointer, algorithm: String) throws(CryptoError) {
        guard !input.isEmpty, input.count % blockSize == 0 else {
            throw CryptoError(
                code: .truncatedInput,
                message: "\(algorithm) ciphertext must be a non-empty multiple of \(blockSize) bytes; got \(input.count)."
            )
        }
    }

    /// Runs a padded block mode (CBC or ECB with PKCS#7) over `input` in one go.
    ///
    /// - Parameters:
    ///   - cipher: the `EVP_CIPHER`, e.g. `EVP_aes_256_cbc()`.
    ///   - encrypt: `true` to encrypt, `false` to decrypt.
    ///   - key: the key, already checked against the cipher's key size.
    ///   - iv: the IV (already checked), or an empty buffer for ECB.
    ///   - input: the plaintext, or the ciphertext (already checked to be whole blocks).
    ///   - algorithm: the name used in error messages.
    static func runPadded(
        _ cipher: OpaquePointer,
        encrypt: Bool,
        key: SymmetricKey,
        iv: UnsafeRawBufferPointer,
        input: UnsafeRawBufferPointer,
        algorithm: String
    ) throws(CryptoError) -> Data {
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError.openSSL("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(context) }
        let initialized = key.withUnsafeBytes { keyBytes in
            EVP_CipherInit_ex(context, cipher, nil, keyBytes.bytePointer, iv.bytePointer, encrypt ? 1 : 0)
        }
        guard initialized == 1 else { throw CryptoError.openSSL("EVP_CipherInit_ex") }
        guard EVP_CIPHER_CTX_set_padding(context, 1) == 1 else {
            throw CryptoError.openSSL("EVP_CIPHER_CTX_set_padding")
        }
        // Room for the input plus one block of padding, as EVP_CipherUpdate/Final require.
        var output = Data(count: input.count + blockSize)
        let length = try output.withMutableCryptoBytes { buffer throws(CryptoError) -> Int in
            guard let base = buffer.bytePointer else { throw CryptoError.openSSL("output allocation") }
            let produced = try update(context, input: input, output: base)
            var finalLength: Int32 = 0
            guard EVP_CipherFinal_ex(context, base + produced, &finalLength) == 1 else {
                buffer.cleanse()
                if encrypt { throw CryptoError.openSSL("EVP_CipherFinal_ex") }
                throw CryptoError.expected(
                    .badPadding,
                    "\(algorithm) decryption did not end in valid PKCS#7 padding (wrong key or IV, or tampered data)."
                )
            }
            return produced + Int(finalLength)
        }
        output.count = length
        return output
    }
}
