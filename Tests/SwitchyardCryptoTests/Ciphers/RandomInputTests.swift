import Foundation
import SwitchyardCrypto
import Testing

/// Seeded random byte strings fed to every decryption path: each call must end with a result or a
/// typed error of an expected code, never a crash.
@Suite("Random input to decryption")
struct RandomInputTests {
    static let iterations = 10_000

    /// Lengths from 0 to 160, with whole-block lengths over-represented so the padding check runs.
    static func length(_ generator: inout SplitMix64) -> Int {
        Bool.random(using: &generator)
            ? Int.random(in: 0...10, using: &generator) * 16 : Int.random(in: 0...160, using: &generator)
    }

    @Test("AES-GCM: SealedBox(combined:) + open on 10,000 random inputs")
    func gcm() throws {
        var generator = SplitMix64(seed: 0x5EED_0001)
        let key = SymmetricKey(generator.bytes(32))
        var codes: [CryptoError.Code: Int] = [:]
        for _ in 0..<Self.iterations {
            let input = generator.bytes(Self.length(&generator))
            do {
                let box = try AESGCM.SealedBox(combined: input)
                _ = try AESGCM.open(box, using: key, authenticating: generator.bytes(Int.random(in: 0...8, using: &generator)))
                Issue.record("random bytes authenticated")
            } catch {
                codes[error.code, default: 0] += 1
            }
        }
        #expect(Set(codes.keys).isSubset(of: [.truncatedInput, .authenticationFailed]))
        #expect(codes.values.reduce(0, +) == Self.iterations)
        #expect(codes[.authenticationFailed, default: 0] > 0 && codes[.truncatedInput, default: 0] > 0)
    }

    @Test("AES-CBC: decrypt on 10,000 random inputs")
    func cbc() {
        var generator = SplitMix64(seed: 0x5EED_0002)
        let key = SymmetricKey(generator.bytes(32))
        let iv = generator.bytes(16)
        let counts = Self.run(&generator) { input throws(CryptoError) in try AESCBC.decrypt(input, using: key, iv: iv) }
        #expect(Set(counts.keys).isSubset(of: ["ok", CryptoError.Code.truncatedInput.rawValue, CryptoError.Code.badPadding.rawValue]))
        #expect(counts[CryptoError.Code.badPadding.rawValue, default: 0] > 0)
    }

    @Test("AES-ECB: decrypt on 10,000 random inputs")
    func ecb() {
        var generator = SplitMix64(seed: 0x5EED_0003)
        let key = SymmetricKey(generator.bytes(16))
        let counts = Self.run(&generator) { input throws(CryptoError) in try AESECB.decrypt(input, using: key) }
        #expect(Set(counts.keys).isSubset(of: ["ok", CryptoError.Code.truncatedInput.rawValue, CryptoError.Code.badPadding.rawValue]))
        #expect(counts[CryptoError.Code.badPadding.rawValue, default: 0] > 0)
    }

    /// Runs `decrypt` on random inputs and counts outcomes by code (`"ok"` for a result).
    private static func run(
        _ generator: inout SplitMix64,
        _ decrypt: (Data) throws(CryptoError) -> Data
    ) -> [String: Int] {
        var counts: [String: Int] = [:]
        for _ in 0..<iterations {
            let input = generator.bytes(length(&generator))
            do {
                let output = try decrypt(input)
                #expect(output.count < input.count && input.count % 16 == 0)
                counts["ok", default: 0] += 1
            } catch {
                counts[error.code.rawValue, default: 0] += 1
            }
        }
        #expect(counts.values.reduce(0, +) == iterations)
        return counts
    }
}
