import Foundation
import SwitchyardCrypto
import Testing

/// An RFC HMAC test case.
struct HMACVector: Sendable, CustomTestStringConvertible {
    let source: String
    let algorithm: HMAC.Algorithm
    let key: String, message: String, mac: String
    var testDescription: String { source }
}

/// RFC 4231 test cases 1–4, 6 and 7 and RFC 2202 test cases 1, 2 and 6 are copied verbatim from PyPI
/// `cryptography-vectors` 50.0.2 (`cryptography_vectors/HMAC/rfc-4231-sha256.txt`,
/// `rfc-2202-md5.txt`, `rfc-2202-sha1.txt`). That file leaves out RFC 4231 test case 5 (truncation),
/// which is taken from the RFC text in its own test below.
enum HMACVectors {
    static let key131 = String(repeating: "aa", count: 131)
    static let key80 = String(repeating: "aa", count: 80)

    static let all: [HMACVector] = [
        .init(
            source: "rfc-4231-sha256.txt test case 1",
            algorithm: .sha256,
            key: "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
            message: "4869205468657265",
            mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        .init(
            source: "rfc-4231-sha256.txt test case 2",
            algorithm: .sha256,
            key: "4a656665",
            message: "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
            mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        .init(
            source: "rfc-4231-sha256.txt test case 3",
            algorithm: .sha256,
            key: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            message: "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd",
            mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        .init(
            source: "rfc-4231-sha256.txt test case 4",
            algorithm: .sha256,
            key: "0102030405060708090a0b0c0d0e0f10111213141516171819",
            message: "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",
            mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        .init(
            source: "rfc-4231-sha256.txt test case 6 (131-byte key of 0xaa)",
            algorithm: .sha256,
            key: key131,
            message: "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374",
            mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        .init(
            source: "rfc-4231-sha256.txt test case 7 (131-byte key of 0xaa)",
            algorithm: .sha256,
            key: key131,
            message: """
                5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d414320616c676f726974686d2e
                """,
            mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
        .init(
            source: "rfc-2202-md5.txt test case 1",
            algorithm: .md5,
            key: "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
            message: "4869205468657265",
            mac: "9294727a3638bb1c13f48ef8158bfc9d"
        ),
        .init(
            source: "rfc-2202-md5.txt test case 2",
            algorithm: .md5,
            key: "4a656665",
            message: "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
            mac: "750c783e6ab0b503eaa86e310a5db738"
        ),
        .init(
            source: "rfc-2202-md5.txt test case 6 (80-byte key of 0xaa)",
            algorithm: .md5,
            key: key80,
            message: "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374",
            mac: "6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd"
        ),
        .init(
            source: "rfc-2202-sha1.txt test case 1",
            algorithm: .sha1,
            key: "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
            message: "4869205468657265",
            mac: "b617318655057264e28bc0b6fb378c8ef146be00"
        ),
        .init(
            source: "rfc-2202-sha1.txt test case 2",
            algorithm: .sha1,
            key: "4a656665",
            message: "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
            mac: "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"
        ),
        .init(
            source: "rfc-2202-sha1.txt test case 6 (80-byte key of 0xaa)",
            algorithm: .sha1,
            key: key80,
            message: "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374",
            mac: "aa4ae5e15272d00e95705637ce8a3b55ed402112"
        ),
    ]
}

@Suite("HMAC")
struct HMACTests {
    @Test("RFC 4231 and RFC 2202 known answers", arguments: HMACVectors.all)
    func knownAnswer(_ vector: HMACVector) throws {
        let key = SymmetricKey(hex(vector.key))
        let mac = try HMAC.authenticationCode(for: hex(vector.message), using: key, algorithm: vector.algorithm)
        #expect(hexString(mac) == vector.mac)
        #expect(mac.count == vector.algorithm.byteCount)
        #expect(
            try HMAC.isValidAuthenticationCode(
                hex(vector.mac),
                for: hex(vector.message),
                using: key,
                algorithm: vector.algorithm
            )
        )
    }

    @Test(
        "one key used again and again — with every algorithm, from many tasks at once — gives the published code, and agrees with a fresh copy of the key on any message",
        arguments: HMACVectors.all
    )
    func reusedKey(_ vector: HMACVector) async throws {
        // A key keeps the contexts it was keyed into; each use must start the computation over.
        let key = SymmetricKey(hex(vector.key))
        let rounds = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var matches = 0
                    for _ in 0..<25 {
                        let published = try HMAC.authenticationCode(for: hex(vector.message), using: key, algorithm: vector.algorithm)
                        // Another algorithm under the same key in between: each kind keeps its own contexts.
                        let between = ([.md5, .sha1, .sha256] as [HMAC.Algorithm]).randomElement()!
                        let message = Data((0..<Int.random(in: 0...200)).map { _ in UInt8.random(in: 0...255) })
                        let reused = try HMAC.authenticationCode(for: message, using: key, algorithm: between)
                        let fresh = try HMAC.authenticationCode(for: message, using: SymmetricKey(hex(vector.key)), algorithm: between)
                        if hexString(published) == vector.mac, reused == fresh { matches += 1 }
                    }
                    return matches
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(rounds == 8 * 25)
    }

    /// RFC 4231 §4.6 publishes only the first 128 bits of this HMAC-SHA256.
    @Test("RFC 4231 test case 5 (from the RFC text; truncated to 128 bits)")
    func truncatedCase() throws {
        let mac = try HMAC.authenticationCode(
            for: Data("Test With Truncation".utf8),
            using: SymmetricKey(hex("0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c"))
        )
        #expect(hexString(Data(mac.prefix(16))) == "a3b6167473100ee06e0c796c2955552b")
    }

    /// The WeChat Pay v2 signature example: HMAC-SHA256 keyed with the merchant key (its ASCII bytes)
    /// over stringSignTemp, which already ends in `&key=…`; upper-case hex.
    @Test("WeChat Pay v2 HMAC-SHA256 signature example")
    func weChatPayHMAC() throws {
        let stringSignTemp =
            "appid=wxd930ea5d5a258f4f&body=test&device_info=1000&mch_id=10000100"
            + "&nonce_str=ibuaiVcKdpRxkhJA&key=192006250b4c09247ec02edce69f6a2d"
        let key = SymmetricKey(Data("192006250b4c09247ec02edce69f6a2d".utf8))
        let mac = try HMAC.authenticationCode(for: Data(stringSignTemp.utf8), using: key)
        #expect(Digest.hex(mac, uppercase: true) == "6A9AE1657590FD6257D693A078E1C3E4BB6BA4DC30B23E0EE2496E54170DACD6")
    }

    @Test("an empty key and an empty message are allowed")
    func empty() throws {
        let mac = try HMAC.authenticationCode(for: Data(), using: SymmetricKey(Data()))
        #expect(hexString(mac) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test("validation rejects a changed code, a changed message, a wrong key and a wrong length")
    func validation() throws {
        let key = SymmetricKey(Data("secret".utf8))
        let message = Data("GET\n/v1/users\n1700000000".utf8)
        let mac = try HMAC.authenticationCode(for: message, using: key)
        #expect(try HMAC.isValidAuthenticationCode(mac, for: message, using: key))
        var changed = mac
        changed[changed.startIndex + 31] ^= 1
        #expect(try !HMAC.isValidAuthenticationCode(changed, for: message, using: key))
        #expect(try !HMAC.isValidAuthenticationCode(mac, for: message + Data([0]), using: key))
        #expect(try !HMAC.isValidAuthenticationCode(mac, for: message, using: SymmetricKey(Data("Secret".utf8))))
        #expect(try !HMAC.isValidAuthenticationCode(mac.prefix(16), for: message, using: key))
        #expect(try !HMAC.isValidAuthenticationCode(Data(), for: message, using: key))
        #expect(try !HMAC.isValidAuthenticationCode(mac, for: message, using: key, algorithm: .md5))
    }
}
