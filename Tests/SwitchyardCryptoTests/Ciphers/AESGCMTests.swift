import Foundation
import SwitchyardCrypto
import Testing

@Suite("AES-GCM behaviour and failure paths")
struct AESGCMTests {
    static let sizes = [0, 1, 15, 16, 17, 1000]

    @Test("round trip for AES-128 and AES-256 with and without AAD", arguments: sizes, [16, 32])
    func roundTrip(size: Int, keySize: Int) throws {
        var generator = SplitMix64(seed: UInt64(size * 100 + keySize))
        let key = try SymmetricKey.random(byteCount: keySize)
        let plaintext = generator.bytes(size)
        for aad in [Data(), generator.bytes(size + 3)] {
            let box = try AESGCM.seal(plaintext, using: key, authenticating: aad)
            #expect(box.nonce.count == 12)
            #expect(box.tag.count == 16)
            #expect(box.ciphertext.count == size)
            #expect(box.combined.count == 28 + size)
            #expect(try AESGCM.open(AESGCM.SealedBox(combined: box.combined), using: key, authenticating: aad) == plaintext)
        }
        let withoutAAD = try AESGCM.seal(Array(plaintext), using: key)
        #expect(try AESGCM.open(withoutAAD, using: key) == plaintext)
    }

    @Test("each seal draws a fresh nonce")
    func freshNonces() throws {
        let key = try SymmetricKey.random(byteCount: 32)
        let nonces = try (0..<64).map { _ throws(CryptoError) in try AESGCM.seal(Data("same".utf8), using: key).nonce }
        #expect(Set(nonces).count == nonces.count)
    }

    @Test("the combined form is nonce ‖ ciphertext ‖ tag and parses back to the same box")
    func combinedLayout() throws {
        let key = try SymmetricKey.random(byteCount: 16)
        let box = try AESGCM.seal(Data("layout".utf8), using: key, nonce: Data(repeating: 7, count: 12))
        #expect(box.combined == box.nonce + box.ciphertext + box.tag)
        #expect(try AESGCM.SealedBox(combined: box.combined) == box)
        // A slice with a non-zero start index parses the same way.
        let framed = Data([0xFF]) + box.combined
        #expect(try AESGCM.SealedBox(combined: framed.dropFirst()) == box)
    }

    @Test("keys other than 16 or 32 bytes throw invalidKeySize", arguments: [0, 1, 15, 17, 24, 31, 33, 64])
    func wrongKeySize(size: Int) throws {
        let key = SymmetricKey(Data(repeating: 1, count: size))
        expectCryptoError(.invalidKeySize) { () throws(CryptoError) in try AESGCM.seal(Data("x".utf8), using: key) }
        let box = try AESGCM.seal(Data("x".utf8), using: SymmetricKey.random(byteCount: 32))
        expectCryptoError(.invalidKeySize) { () throws(CryptoError) in try AESGCM.open(box, using: key) }
    }

    @Test("nonces other than 12 bytes throw invalidNonceSize", arguments: [0, 1, 8, 11, 13, 16])
    func wrongNonceSize(size: Int) throws {
        let key = try SymmetricKey.random(byteCount: 32)
        let nonce = Data(repeating: 0, count: size)
        expectCryptoError(.invalidNonceSize) { () throws(CryptoError) in
            try AESGCM.seal(Data("x".utf8), using: key, nonce: nonce)
        }
        expectCryptoError(.invalidNonceSize) { () throws(CryptoError) in
            try AESGCM.SealedBox(nonce: nonce, ciphertext: Data(), tag: Data(count: 16))
        }
    }

    @Test("a tag other than 16 bytes is rejected when assembling a box", arguments: [0, 12, 15, 17])
    func wrongTagSize(size: Int) {
        expectCryptoError(.invalidInput) { () throws(CryptoError) in
            try AESGCM.SealedBox(nonce: Data(count: 12), ciphertext: Data(), tag: Data(count: size))
        }
    }

    @Test("a combined box shorter than 28 bytes throws truncatedInput")
    func truncatedCombined() throws {
        let box = try AESGCM.seal(Data(), using: SymmetricKey.random(byteCount: 32))
        #expect(box.combined.count == 28)
        for length in 0..<28 {
            expectCryptoError(.truncatedInput) { () throws(CryptoError) in
                try AESGCM.SealedBox(combined: box.combined.prefix(length))
            }
        }
    }

    @Test("dropping or adding bytes, a wrong key or wrong AAD throw authenticationFailed")
    func wrongContext() throws {
        let key = try SymmetricKey.random(byteCount: 32)
        let aad = Data("POST /v1/orders key=1".utf8)
        let box = try AESGCM.seal(Data("attack at dawn".utf8), using: key, authenticating: aad)
        let candidates: [(SymmetricKey, Data, Data)] = [
            (try SymmetricKey.random(byteCount: 32), box.combined, aad),
            (key, box.combined, Data()),
            (key, box.combined, aad + Data([0])),
            (key, box.combined.dropLast(), aad),
            (key, box.combined + Data([0]), aad),
            (key, box.combined.prefix(12) + box.combined.suffix(16), aad),
        ]
        for (candidateKey, combined, candidateAAD) in candidates {
            expectCryptoError(.authenticationFailed) { () throws(CryptoError) in
                try AESGCM.open(AESGCM.SealedBox(combined: combined), using: candidateKey, authenticating: candidateAAD)
            }
        }
    }

    @Test("concurrent seals and opens from many tasks all succeed")
    func concurrentUse() async throws {
        let key = try SymmetricKey.random(byteCount: 32)
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let message = Data("message \(index)".utf8)
                    guard let box = try? AESGCM.seal(message, using: key, authenticating: Data([UInt8(index)])) else {
                        return false
                    }
                    return (try? AESGCM.open(box, using: key, authenticating: Data([UInt8(index)]))) == message
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 64 && results.allSatisfy { $0 })
    }
}
