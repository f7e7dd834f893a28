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

    @Test(
        "one key used again and again — both directions, after a failed open, from many tasks at once — gives the published answers every time",
        arguments: AESGCMVectors.encrypt
    )
    func reusedKey(_ vector: GCMEncryptVector) async throws {
        // A key keeps the contexts it was keyed into; each use must start from a clean state.
        let key = SymmetricKey(hex(vector.key))
        let sealed = hex(vector.iv + vector.ciphertext + vector.tag)
        var flipped = sealed
        flipped[flipped.count - 1] ^= 0x01
        let tampered = flipped
        let rounds = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var matches = 0
                    for round in 0..<25 {
                        let box = try AESGCM.seal(hex(vector.plaintext), using: key, nonce: hex(vector.iv), authenticating: hex(vector.aad))
                        let opened = try AESGCM.open(AESGCM.SealedBox(combined: sealed), using: key, authenticating: hex(vector.aad))
                        if round % 5 == 0 {
                            expectCryptoError(.authenticationFailed) { () throws(CryptoError) in
                                try AESGCM.open(AESGCM.SealedBox(combined: tampered), using: key, authenticating: hex(vector.aad))
                            }
                        }
                        // Another nonce, message and AAD each round: the reused key answers as a fresh copy of it does.
                        let nonce = Data((0..<12).map { _ in UInt8.random(in: 0...255) })
                        let message = Data((0..<Int.random(in: 0...64)).map { _ in UInt8.random(in: 0...255) })
                        let aad = Data((0..<Int.random(in: 0...16)).map { _ in UInt8.random(in: 0...255) })
                        let reused = try AESGCM.seal(message, using: key, nonce: nonce, authenticating: aad)
                        let fresh = try AESGCM.seal(message, using: SymmetricKey(hex(vector.key)), nonce: nonce, authenticating: aad)
                        let back = try AESGCM.open(reused, using: key, authenticating: aad)
                        if box.combined == sealed, hexString(opened) == vector.plaintext, reused.combined == fresh.combined, back == message
                        {
                            matches += 1
                        }
                    }
                    return matches
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(rounds == 8 * 25)
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
