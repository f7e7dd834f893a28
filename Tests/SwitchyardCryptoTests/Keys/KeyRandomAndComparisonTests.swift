import Foundation
import SwitchyardCrypto
import Testing

@Suite("SymmetricKey, SecureRandom, ConstantTime, CryptoError")
struct KeyRandomAndComparisonTests {
    @Test("a key's descriptions, reflection and dump never contain its bytes")
    func keyRedaction() throws {
        // At least 16 bytes: the hex of a 1-byte key (say "da") can occur in any text by chance.
        for size in [16, 24, 32, 64] {
            let key = try SymmetricKey.random(byteCount: size)
            let bytes = key.withUnsafeBytes { Data($0) }
            var dumped = ""
            dump(key, to: &dumped)
            let texts = [
                key.description, key.debugDescription, String(reflecting: key), "\(key)", dumped,
                String(describing: [key]),
            ]
            #expect(key.description == "SymmetricKey(\(size) bytes, redacted)")
            #expect(key.debugDescription == key.description)
            for text in texts {
                #expect(!text.localizedCaseInsensitiveContains(Digest.hex(bytes)), "\(text)")
                #expect(!text.contains(bytes.map(String.init).joined(separator: ", ")), "\(text)")
            }
        }
    }

    @Test("key bytes do not appear in error messages")
    func keyNotInErrors() {
        let key = SymmetricKey(Data("0123456789abcdefXYZ".utf8))
        do {
            _ = try AESGCM.seal(Data(), using: key)
            Issue.record("expected invalidKeySize")
        } catch {
            #expect(error.code == .invalidKeySize)
            #expect(!error.description.contains("0123456789abcdefXYZ"))
            #expect(error.description == "[invalidKeySize] \(error.message)")
        }
    }

    @Test("key equality compares bytes and sizes")
    func keyEquality() throws {
        let bytes = try SecureRandom.bytes(count: 32)
        #expect(SymmetricKey(bytes) == SymmetricKey(Array(bytes)))
        var changed = bytes
        changed[31] ^= 1
        #expect(SymmetricKey(bytes) != SymmetricKey(changed))
        #expect(SymmetricKey(bytes) != SymmetricKey(bytes.prefix(16)))
        #expect(SymmetricKey(Data()) == SymmetricKey([UInt8]()))
        #expect(SymmetricKey(bytes).withUnsafeBytes { Data($0) } == bytes)
    }

    @Test("random keys have the requested size and differ")
    func randomKeys() throws {
        let keys = try (0..<32).map { _ throws(CryptoError) in try SymmetricKey.random(byteCount: 32) }
        #expect(keys.allSatisfy { $0.byteCount == 32 })
        #expect(Set(keys.map { $0.withUnsafeBytes { Data($0) } }).count == keys.count)
        for size in [0, -1] {
            expectCryptoError(.invalidKeySize) { () throws(CryptoError) in try SymmetricKey.random(byteCount: size) }
        }
    }

    @Test("SecureRandom returns the requested length", arguments: [0, 1, 12, 16, 32, 1000, 65_537])
    func randomLength(count: Int) throws {
        #expect(try SecureRandom.bytes(count: count).count == count)
    }

    @Test("SecureRandom outputs differ and negative counts are rejected")
    func randomDistinct() throws {
        let outputs = try (0..<100).map { _ throws(CryptoError) in try SecureRandom.bytes(count: 16) }
        #expect(Set(outputs).count == outputs.count)
        // 4096 random bytes use far more than a handful of distinct values.
        #expect(Set(try SecureRandom.bytes(count: 4096)).count > 200)
        expectCryptoError(.invalidInput) { () throws(CryptoError) in try SecureRandom.bytes(count: -1) }
    }

    @Test("ConstantTime.equals: equal, unequal at either end, different lengths, empty")
    func constantTime() {
        let a = Data((0..<64).map { UInt8($0) })
        #expect(ConstantTime.equals(a, a))
        #expect(ConstantTime.equals(a, Array(a)))
        var first = a
        first[0] ^= 1
        var last = a
        last[63] ^= 0x80
        #expect(!ConstantTime.equals(a, first))
        #expect(!ConstantTime.equals(a, last))
        #expect(!ConstantTime.equals(a, a.prefix(63)))
        #expect(!ConstantTime.equals(a.prefix(63), a))
        #expect(!ConstantTime.equals(a, Data()))
        #expect(ConstantTime.equals(Data(), [UInt8]()))
        #expect(ConstantTime.equals(a.dropFirst(8), Array(a[8...])))
    }

    @Test("error codes have stable names and errors compare by code and message")
    func errorCodes() {
        let codes: [CryptoError.Code] = [
            .invalidKeySize, .invalidNonceSize, .invalidIVSize, .authenticationFailed, .badPadding, .truncatedInput,
            .invalidInput, .randomFailure, .openSSLFailure,
        ]
        #expect(
            codes.map(\.rawValue) == [
                "invalidKeySize", "invalidNonceSize", "invalidIVSize", "authenticationFailed", "badPadding",
                "truncatedInput", "invalidInput", "randomFailure", "openSSLFailure",
            ]
        )
        #expect(Set(codes).count == codes.count)
        #expect(CryptoError(code: .badPadding, message: "m") == CryptoError(code: .badPadding, message: "m"))
        #expect(CryptoError(code: .badPadding, message: "m") != CryptoError(code: .truncatedInput, message: "m"))
    }
}
