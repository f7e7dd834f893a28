import Foundation
import SwitchyardCrypto
import Testing

@Suite("AES-GCM known answers (NIST CAVP via cryptography-vectors)")
struct AESGCMKnownAnswerTests {
    @Test("seal with the vector's key, IV and AAD gives the published ciphertext and tag", arguments: AESGCMVectors.encrypt)
    func seal(_ vector: GCMEncryptVector) throws {
        let key = SymmetricKey(hex(vector.key))
        let box = try AESGCM.seal(hex(vector.plaintext), using: key, nonce: hex(vector.iv), authenticating: hex(vector.aad))
        #expect(hexString(box.nonce) == vector.iv)
        #expect(hexString(box.ciphertext) == vector.ciphertext)
        #expect(hexString(box.tag) == vector.tag)
        #expect(box.combined == hex(vector.iv + vector.ciphertext + vector.tag))
    }

    @Test("open of the published ciphertext and tag gives the plaintext", arguments: AESGCMVectors.encrypt)
    func openEncryptVector(_ vector: GCMEncryptVector) throws {
        let box = try AESGCM.SealedBox(nonce: hex(vector.iv), ciphertext: hex(vector.ciphertext), tag: hex(vector.tag))
        let plaintext = try AESGCM.open(box, using: SymmetricKey(hex(vector.key)), authenticating: hex(vector.aad))
        #expect(hexString(plaintext) == vector.plaintext)
    }

    @Test("decrypt vectors open or, where marked FAIL, throw authenticationFailed", arguments: AESGCMVectors.decrypt)
    func open(_ vector: GCMDecryptVector) throws {
        let combined = hex(vector.iv + vector.ciphertext + vector.tag)
        let box = try AESGCM.SealedBox(combined: combined)
        let key = SymmetricKey(hex(vector.key))
        if let expected = vector.plaintext {
            let plaintext = try AESGCM.open(box, using: key, authenticating: hex(vector.aad))
            #expect(hexString(plaintext) == expected)
        } else {
            expectCryptoError(.authenticationFailed) { () throws(CryptoError) in
                try AESGCM.open(box, using: key, authenticating: hex(vector.aad))
            }
        }
    }

    @Test("the vectors cover empty and non-empty plaintext and AAD, both key sizes, and FAIL cases")
    func coverage() {
        let encrypt = AESGCMVectors.encrypt
        #expect(encrypt.contains { $0.plaintext.isEmpty && $0.aad.isEmpty })
        #expect(encrypt.contains { $0.plaintext.isEmpty && !$0.aad.isEmpty })
        #expect(encrypt.contains { !$0.plaintext.isEmpty && $0.aad.isEmpty })
        #expect(encrypt.contains { $0.key.count == 32 } && encrypt.contains { $0.key.count == 64 })
        #expect(AESGCMVectors.decrypt.filter { $0.plaintext == nil }.count >= 2)
        #expect((encrypt.map(\.iv) + AESGCMVectors.decrypt.map(\.iv)).allSatisfy { $0.count == 24 })
        #expect((encrypt.map(\.tag) + AESGCMVectors.decrypt.map(\.tag)).allSatisfy { $0.count == 32 })
    }
}
