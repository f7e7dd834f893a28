import COpenSSL
import Foundation

extension AESGCM {
    /// Encrypts with a context keyed for `key` (see ``keyedContext(_:key:nonce:encrypt:)``) and
    /// returns the ciphertext and the 16-byte tag.
    static func sealCore(
        _ cipher: OpaquePointer,
        key: SymmetricKey,
        nonce: UnsafeRawBufferPointer,
        plaintext: UnsafeRawBufferPointer,
        aad: UnsafeRawBufferPointer
    ) throws(CryptoError) -> (ciphertext: Data, tag: Data) {
        let context = try keyedContext(cipher, key: key, nonce: nonce, encrypt: true)
        var finished = false
        defer { release(context, key: key, reusable: finished) }
        _ = try EVPCipher.update(context, input: aad, output: nil)
        var ciphertext = Data.uninitialized(count: plaintext.count)
        var produced = 0
        var failure: CryptoError?
        ciphertext.withUnsafeMutableBytes { output in
            do throws(CryptoError) {
                produced = try EVPCipher.update(context, input: plaintext, output: output.bytePointer)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        guard produced == plaintext.count else { throw CryptoError.openSSL("EVP_CipherUpdate (short output)") }
        try finish(context, encrypt: true)
        var tagBytes: (UInt64, UInt64) = (0, 0)
        let gotTag = withUnsafeMutableBytes(of: &tagBytes) { buffer in
            switchyard_gcm_get_tag(context, buffer.bytePointer, Int32(tagByteCount))
        }
        guard gotTag == 1 else { throw CryptoError.openSSL("EVP_CTRL_GCM_GET_TAG") }
        let tag = withUnsafeBytes(of: &tagBytes) { Data($0) }
        finished = true
        return (ciphertext, tag)
    }

    /// Decrypts with a context keyed for `key`; throws ``CryptoError/Code/authenticationFailed`` (and
    /// wipes the decrypted bytes) unless the tag matches.
    static func openCore(
        _ cipher: OpaquePointer,
        key: SymmetricKey,
        box: SealedBox,
        aad: UnsafeRawBufferPointer
    ) throws(CryptoError) -> Data {
        let context = try box.nonce.withCryptoBytes { nonce throws(CryptoError) in
            try keyedContext(cipher, key: key, nonce: nonce, encrypt: false)
        }
        var finished = false
        defer { release(context, key: key, reusable: finished) }
        _ = try EVPCipher.update(context, input: aad, output: nil)
        var plaintext = Data.uninitialized(count: box.ciphertext.count)
        try plaintext.withMutableCryptoBytes { output throws(CryptoError) in
            do throws(CryptoError) {
                let produced = try box.ciphertext.withCryptoBytes { input throws(CryptoError) in
                    try EVPCipher.update(context, input: input, output: output.bytePointer)
                }
                guard produced == box.ciphertext.count else {
                    throw CryptoError.openSSL("EVP_CipherUpdate (short output)")
                }
                let tagSet = box.tag.withUnsafeBytes { tag in
                    switchyard_gcm_set_tag(context, tag.bytePointer, Int32(tag.count))
                }
                guard tagSet == 1 else { throw CryptoError.openSSL("EVP_CTRL_GCM_SET_TAG") }
                try finish(context, encrypt: false)
                finished = true
            } catch {
                output.cleanse()
                throw error
            }
        }
        return plaintext
    }

    /// A context for one seal or open under `key` with `nonce`: one the key has used before and
    /// gave back, given only the new nonce and direction, or a new one keyed now.
    ///
    /// Either way one `EVP_CipherInit_ex` call sets what it needs: every nonce here is 12 bytes,
    /// GCM's default length, so no length needs setting first. A reused context keeps its cipher and
    /// key schedule; the new nonce restarts its GCM state (the hash, the AAD and message lengths) at
    /// the first update. It keeps the previous tag, which is harmless: a seal reads the tag only
    /// after its own final step, and an open always sets the expected tag before its final step.
    private static func keyedContext(
        _ cipher: OpaquePointer,
        key: SymmetricKey,
        nonce: UnsafeRawBufferPointer,
        encrypt: Bool
    ) throws(CryptoError) -> OpaquePointer {
        guard nonce.count == nonceByteCount else {
            throw CryptoError(code: .invalidNonceSize, message: "An AES-GCM nonce must be \(nonceByteCount) bytes; got \(nonce.count).")
        }
        if let context = key.storage.contexts.take(.aesGCM) {
            // The cipher and key stay; the nonce and direction are new, and the GCM state starts over.
            guard EVP_CipherInit_ex(context, nil, nil, nil, nonce.bytePointer, encrypt ? 1 : 0) == 1 else {
                EVP_CIPHER_CTX_free(context)
                throw CryptoError.openSSL("EVP_CipherInit_ex")
            }
            return context
        }
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError.openSSL("EVP_CIPHER_CTX_new") }
        let keyed = key.withUnsafeBytes { keyBytes in
            EVP_CipherInit_ex(context, cipher, nil, keyBytes.bytePointer, nonce.bytePointer, encrypt ? 1 : 0)
        }
        guard keyed == 1 else {
            EVP_CIPHER_CTX_free(context)
            throw CryptoError.openSSL("EVP_CipherInit_ex")
        }
        return context
    }

    /// Gives a context back to its key's pool after a seal or open that finished; frees one that
    /// failed part-way (an authentication failure included), whose state is not worth trusting.
    private static func release(_ context: OpaquePointer, key: SymmetricKey, reusable: Bool) {
        if reusable {
            key.storage.contexts.giveBack(context, .aesGCM)
        } else {
            KeyedContextPool.free(context, .aesGCM)
        }
    }

    /// `EVP_CipherFinal_ex`: computes the tag when sealing, checks it when opening. GCM writes no bytes
    /// here; the scratch block only gives OpenSSL a valid pointer.
    private static func finish(_ context: OpaquePointer, encrypt: Bool) throws(CryptoError) {
        var written: Int32 = 0
        let finished = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: EVPCipher.blockSize) { scratch in
            EVP_CipherFinal_ex(context, scratch.baseAddress, &written)
        }
        guard finished == 1 else {
            if encrypt { throw CryptoError.openSSL("EVP_CipherFinal_ex") }
            throw CryptoError.expected(
                .authenticationFailed,
                "AES-GCM authentication failed: the data, nonce, tag or associated data was changed, or the key is wrong."
            )
        }
        guard written == 0 else { throw CryptoError.openSSL("EVP_CipherFinal_ex (unexpected output)") }
    }
}
