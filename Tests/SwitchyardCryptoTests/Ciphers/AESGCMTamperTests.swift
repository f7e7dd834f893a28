import Foundation
import SwitchyardCrypto
import Testing

@Suite("AES-GCM tampering: every byte of nonce, ciphertext, tag and AAD")
struct AESGCMTamperTests {
    @Test(
        "flipping any bit pattern in any byte of nonce ‖ ciphertext ‖ tag fails authentication",
        arguments: [UInt8(0x01), 0x80, 0xFF]
    )
    func tamperCombined(mask: UInt8) throws {
        let key = try SymmetricKey.random(byteCount: 32)
        let aad = Data("GET /v1/users/7 kid=2025-01".utf8)
        let box = try AESGCM.seal(Data("a body of forty bytes, more or less.....".utf8), using: key, authenticating: aad)
        let combined = box.combined
        var failures = 0
        for index in combined.indices {
            var tampered = combined
            tampered[index] ^= mask
            expectCryptoError(.authenticationFailed) { () throws(CryptoError) in
                try AESGCM.open(AESGCM.SealedBox(combined: tampered), using: key, authenticating: aad)
            }
            failures += 1
        }
        #expect(failures == 12 + box.ciphertext.count + 16)
    }

    @Test("flipping any byte of the AAD fails authentication", arguments: [UInt8(0x01), 0x80])
    func tamperAAD(mask: UInt8) throws {
        let key = try SymmetricKey.random(byteCount: 16)
        let aad = Data("POST /v1/payments kid=k1 ts=1700000000".utf8)
        let box = try AESGCM.seal(Data("{\"amount\":100}".utf8), using: key, authenticating: aad)
        for index in aad.indices {
            var tampered = aad
            tampered[index] ^= mask
            expectCryptoError(.authenticationFailed) { () throws(CryptoError) in
                try AESGCM.open(box, using: key, authenticating: tampered)
            }
        }
        #expect(try AESGCM.open(box, using: key, authenticating: aad) == Data("{\"amount\":100}".utf8))
    }

    @Test("tampering with an empty-plaintext box (tag only) fails authentication")
    func tamperEmpty() throws {
        let key = try SymmetricKey.random(byteCount: 32)
        let box = try AESGCM.seal(Data(), using: key)
        for index in box.combined.indices {
            var tampered = box.combined
            tampered[index] ^= 0x01
            expectCryptoError(.authenticationFailed) { () throws(CryptoError) in
                try AESGCM.open(AESGCM.SealedBox(combined: tampered), using: key)
            }
        }
    }
}
