import Foundation
import SwitchyardCrypto
import Testing

/// An RFC 5869 test case.
struct HKDFVector: Sendable, CustomTestStringConvertible {
    let source: String
    let ikm: String, salt: String, info: String, length: Int, okm: String
    var testDescription: String { source }
}

/// RFC 5869 appendix A test cases 1–3, copied verbatim from PyPI `cryptography-vectors` 50.0.2
/// (`cryptography_vectors/KDF/rfc-5869-HKDF-SHA256.txt`).
@Suite("HKDF-SHA256")
struct HKDFTests {
    static let vectors: [HKDFVector] = [
        .init(
            source: "rfc-5869-HKDF-SHA256.txt COUNT = 1",
            ikm: "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
            salt: "000102030405060708090a0b0c",
            info: "f0f1f2f3f4f5f6f7f8f9",
            length: 42,
            okm: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
        ),
        .init(
            source: "rfc-5869-HKDF-SHA256.txt COUNT = 2",
            ikm: """
                000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f
                """,
            salt: """
                606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeaf
                """,
            info: """
                b0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
                """,
            length: 82,
            okm: """
                b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87
                """
        ),
        .init(
            source: "rfc-5869-HKDF-SHA256.txt COUNT = 3 (empty salt and info)",
            ikm: "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
            salt: "",
            info: "",
            length: 42,
            okm: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
        ),
    ]

    @Test("RFC 5869 known answers", arguments: vectors)
    func knownAnswer(_ vector: HKDFVector) throws {
        let key = try HKDF.deriveKey(
            inputKeyMaterial: SymmetricKey(hex(vector.ikm)),
            salt: hex(vector.salt),
            info: hex(vector.info),
            outputByteCount: vector.length
        )
        #expect(key.byteCount == vector.length)
        #expect(key == SymmetricKey(hex(vector.okm)))
        #expect(hexString(key.withUnsafeBytes { Data($0) }) == vector.okm)
    }

    /// Expected value computed with Python's hmac module: HMAC(HMAC(32 zero bytes, ""), "x" ‖ 0x01).
    @Test("empty input key material is allowed")
    func emptyInputKeyMaterial() throws {
        let key = try HKDF.deriveKey(
            inputKeyMaterial: SymmetricKey(Data()),
            salt: Data(),
            info: Data("x".utf8),
            outputByteCount: 32
        )
        #expect(key == SymmetricKey(hex("0dfd7b633e54fd3c77e68749c2c9a8899dd4a0e86dec0043242e714f6cc75913")))
    }

    @Test("output sizes at the limits work", arguments: [1, 32, 8160])
    func limits(size: Int) throws {
        let key = try HKDF.deriveKey(
            inputKeyMaterial: SymmetricKey(Data(repeating: 9, count: 32)),
            salt: [UInt8](),
            info: [UInt8](),
            outputByteCount: size
        )
        #expect(key.byteCount == size)
    }

    @Test("output sizes outside 1...8160 throw invalidInput", arguments: [Int.min, -1, 0, 8161, 1 << 20])
    func outOfRange(size: Int) {
        expectCryptoError(.invalidInput) { () throws(CryptoError) in
            try HKDF.deriveKey(
                inputKeyMaterial: SymmetricKey(Data(count: 32)),
                salt: Data(),
                info: Data(),
                outputByteCount: size
            )
        }
    }
}
