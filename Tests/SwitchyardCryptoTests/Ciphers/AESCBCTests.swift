import Foundation
import SwitchyardCrypto
import Testing

/// NIST's CBC vectors are unpadded whole blocks while ``AESCBC`` always applies PKCS#7. So the
/// known-answer tests check that the padded output *starts with* the published ciphertext, and that
/// the published ciphertext followed by the one PKCS#7 block (E_K(C_last ⊕ 0x10…10), computed with
/// the AES block function) decrypts to the published plaintext.
@Suite("AES-CBC with PKCS#7")
struct AESCBCTests {
    static let key = SymmetricKey(hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"))
    static let iv = hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")

    @Test("NIST vectors: padded output = published ciphertext ‖ PKCS#7 block", arguments: BlockCipherVectors.cbc)
    func encryptMatchesNIST(_ vector: BlockVector) throws {
        let key = SymmetricKey(hex(vector.key))
        let ciphertext = hex(vector.ciphertext)
        let output = try AESCBC.encrypt(hex(vector.plaintext), using: key, iv: hex(vector.iv))
        #expect(output.count == ciphertext.count + 16)
        #expect(hexString(Data(output.prefix(ciphertext.count))) == vector.ciphertext)
        let paddingBlock = try aesBlock(xor(ciphertext.suffix(16), Data(repeating: 16, count: 16)), key: key)
        #expect(Data(output.suffix(16)) == paddingBlock)
    }

    @Test(
        "NIST vectors: published ciphertext ‖ PKCS#7 block decrypts to the published plaintext",
        arguments: BlockCipherVectors.cbc
    )
    func decryptMatchesNIST(_ vector: BlockVector) throws {
        let key = SymmetricKey(hex(vector.key))
        let ciphertext = hex(vector.ciphertext)
        let paddingBlock = try aesBlock(xor(ciphertext.suffix(16), Data(repeating: 16, count: 16)), key: key)
        let plaintext = try AESCBC.decrypt(ciphertext + paddingBlock, using: key, iv: hex(vector.iv))
        #expect(hexString(plaintext) == vector.plaintext)
    }

    @Test(
        "partial blocks are padded per RFC 5652 §6.3 (reference CBC built from the AES block function)",
        arguments: [0, 1, 15, 16, 17, 33]
    )
    func pkcs7Reference(size: Int) throws {
        var generator = SplitMix64(seed: UInt64(size))
        let plaintext = generator.bytes(size)
        let padded = pkcs7Padded(plaintext)
        var expected = Data()
        var previous = Self.iv
        for offset in stride(from: 0, to: padded.count, by: 16) {
            let block = try aesBlock(xor(Data(padded.dropFirst(offset).prefix(16)), previous), key: Self.key)
            expected += block
            previous = block
        }
        #expect(try AESCBC.encrypt(plaintext, using: Self.key, iv: Self.iv) == expected)
        #expect(try AESCBC.decrypt(expected, using: Self.key, iv: Self.iv) == plaintext)
    }

    @Test("round trip with 16-, 24- and 32-byte keys", arguments: [0, 1, 15, 16, 17, 1000], [16, 24, 32])
    func roundTrip(size: Int, keySize: Int) throws {
        var generator = SplitMix64(seed: UInt64(size &* 31 &+ keySize))
        let key = try SymmetricKey.random(byteCount: keySize)
        let iv = try SecureRandom.bytes(count: 16)
        let plaintext = generator.bytes(size)
        let ciphertext = try AESCBC.encrypt(plaintext, using: key, iv: iv)
        #expect(ciphertext.count == (size / 16 + 1) * 16)
        #expect(try AESCBC.decrypt(ciphertext, using: key, iv: Array(iv)) == plaintext)
    }

    @Test("ciphertext that is empty or not a multiple of 16 throws truncatedInput", arguments: [0, 1, 15, 17, 31, 33])
    func truncated(length: Int) {
        expectCryptoError(.truncatedInput) { () throws(CryptoError) in
            try AESCBC.decrypt(Data(repeating: 0xAB, count: length), using: Self.key, iv: Self.iv)
        }
    }

    @Test("keys other than 16, 24 or 32 bytes throw invalidKeySize", arguments: [0, 1, 8, 15, 20, 31, 33, 64])
    func wrongKeySize(size: Int) {
        let key = SymmetricKey(Data(repeating: 2, count: size))
        expectCryptoError(.invalidKeySize) { () throws(CryptoError) in try AESCBC.encrypt(Data(), using: key, iv: Self.iv) }
        expectCryptoError(.invalidKeySize) { () throws(CryptoError) in
            try AESCBC.decrypt(Data(count: 16), using: key, iv: Self.iv)
        }
    }

    @Test("IVs other than 16 bytes throw invalidIVSize", arguments: [0, 1, 12, 15, 17, 32])
    func wrongIVSize(size: Int) {
        let iv = Data(repeating: 3, count: size)
        expectCryptoError(.invalidIVSize) { () throws(CryptoError) in try AESCBC.encrypt(Data(), using: Self.key, iv: iv) }
        expectCryptoError(.invalidIVSize) { () throws(CryptoError) in
            try AESCBC.decrypt(Data(count: 16), using: Self.key, iv: iv)
        }
    }

    /// The one-block ciphertext of an empty plaintext decrypts to sixteen 0x10 bytes; changing the IV
    /// changes that block byte for byte, which gives padding that is wrong in known ways.
    @Test(
        "wrong PKCS#7 padding throws badPadding",
        arguments: [
            (15, 0x10),  // last byte 0x00
            (15, 0x10 ^ 0x11),  // last byte 17, longer than a block
            (15, 0x10 ^ 0x02),  // claims 2 bytes, but the byte before is 0x10
            (0, 0x01),  // claims 16 bytes of 0x10, but the first is 0x11
        ] as [(Int, UInt8)]
    )
    func badPadding(position: Int, mask: UInt8) throws {
        let ciphertext = try AESCBC.encrypt(Data(), using: Self.key, iv: Self.iv)
        var iv = Self.iv
        iv[position] ^= mask
        expectCryptoError(.badPadding) { () throws(CryptoError) in try AESCBC.decrypt(ciphertext, using: Self.key, iv: iv) }
    }
}
