import Foundation
import SwitchyardCrypto
import Testing

/// NIST's ECB vectors are unpadded whole blocks while ``AESECB`` always applies PKCS#7, so the
/// known-answer tests compare the first blocks of the padded output with the published ciphertext,
/// and decrypt the published ciphertext followed by the PKCS#7 block E_K(0x10…10).
@Suite("AES-ECB with PKCS#7 (legacy)")
struct AESECBTests {
    static let key = SymmetricKey(hex("2b7e151628aed2a6abf7158809cf4f3c"))

    @Test("NIST vectors: padded output = published ciphertext ‖ E_K(0x10…10)", arguments: BlockCipherVectors.ecb)
    func encryptMatchesNIST(_ vector: BlockVector) throws {
        let key = SymmetricKey(hex(vector.key))
        let ciphertext = hex(vector.ciphertext)
        let output = try AESECB.encrypt(hex(vector.plaintext), using: key)
        #expect(output.count == ciphertext.count + 16)
        #expect(hexString(Data(output.prefix(ciphertext.count))) == vector.ciphertext)
        #expect(Data(output.suffix(16)) == (try AESECB.encrypt(Data(), using: key)))
    }

    @Test(
        "NIST vectors: published ciphertext ‖ PKCS#7 block decrypts to the published plaintext",
        arguments: BlockCipherVectors.ecb
    )
    func decryptMatchesNIST(_ vector: BlockVector) throws {
        let key = SymmetricKey(hex(vector.key))
        let paddingBlock = try AESECB.encrypt(Data(), using: key)
        let plaintext = try AESECB.decrypt(hex(vector.ciphertext) + paddingBlock, using: key)
        #expect(hexString(plaintext) == vector.plaintext)
    }

    @Test("partial blocks are padded per RFC 5652 §6.3", arguments: [0, 1, 15, 16, 17, 33])
    func pkcs7Reference(size: Int) throws {
        var generator = SplitMix64(seed: UInt64(size) &+ 99)
        let plaintext = generator.bytes(size)
        let padded = pkcs7Padded(plaintext)
        var expected = Data()
        for offset in stride(from: 0, to: padded.count, by: 16) {
            expected += try aesBlock(Data(padded.dropFirst(offset).prefix(16)), key: Self.key)
        }
        #expect(try AESECB.encrypt(plaintext, using: Self.key) == expected)
        #expect(try AESECB.decrypt(expected, using: Self.key) == plaintext)
    }

    @Test("round trip with 16-, 24- and 32-byte keys", arguments: [0, 1, 15, 16, 17, 1000], [16, 24, 32])
    func roundTrip(size: Int, keySize: Int) throws {
        var generator = SplitMix64(seed: UInt64(size &* 17 &+ keySize))
        let key = try SymmetricKey.random(byteCount: keySize)
        let plaintext = generator.bytes(size)
        let ciphertext = try AESECB.encrypt(plaintext, using: key)
        #expect(ciphertext.count == (size / 16 + 1) * 16)
        #expect(try AESECB.decrypt(ciphertext, using: key) == plaintext)
    }

    @Test("identical plaintext blocks give identical ciphertext blocks — why ECB is legacy only")
    func identicalBlocksLeak() throws {
        let block = Data("sixteen byte blk".utf8)
        let ciphertext = try AESECB.encrypt(block + block, using: Self.key)
        #expect(ciphertext.prefix(16) == ciphertext.dropFirst(16).prefix(16))
    }

    @Test("ciphertext that is empty or not a multiple of 16 throws truncatedInput", arguments: [0, 1, 15, 17, 47])
    func truncated(length: Int) {
        expectCryptoError(.truncatedInput) { () throws(CryptoError) in
            try AESECB.decrypt(Data(repeating: 1, count: length), using: Self.key)
        }
    }

    @Test("keys other than 16, 24 or 32 bytes throw invalidKeySize", arguments: [0, 5, 15, 17, 33])
    func wrongKeySize(size: Int) {
        let key = SymmetricKey(Data(repeating: 4, count: size))
        expectCryptoError(.invalidKeySize) { () throws(CryptoError) in try AESECB.encrypt(Data("x".utf8), using: key) }
        expectCryptoError(.invalidKeySize) { () throws(CryptoError) in try AESECB.decrypt(Data(count: 16), using: key) }
    }

    /// A single block E_K(P) decrypts to P, which is then read as the padding block.
    @Test(
        "wrong PKCS#7 padding throws badPadding",
        arguments: [
            "000102030405060708090a0b0c0d0e00",  // padding length 0
            "000102030405060708090a0b0c0d0e11",  // padding length 17
            "00010203040506070809101112131405",  // claims 5 bytes, the others differ
            "10101010101010101010101010101011",  // claims 17
        ]
    )
    func badPadding(block: String) throws {
        let ciphertext = try aesBlock(hex(block), key: Self.key)
        expectCryptoError(.badPadding) { () throws(CryptoError) in try AESECB.decrypt(ciphertext, using: Self.key) }
    }

    @Test("a block of sixteen 0x10 bytes is valid padding and decrypts to nothing")
    func fullPaddingBlock() throws {
        let ciphertext = try aesBlock(Data(repeating: 0x10, count: 16), key: Self.key)
        #expect(try AESECB.decrypt(ciphertext, using: Self.key) == Data())
    }
}
