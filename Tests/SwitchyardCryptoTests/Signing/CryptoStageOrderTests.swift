import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto
import SwitchyardTesting
import Testing

@Suite("Order rules of the signing and encryption stages")
struct CryptoStageOrderTests {
    private static let ring = try! KeyRing(keyID: "k1", key: SymmetricKey(Data(repeating: 0x42, count: 32)))

    /// The violations of `stages`, as `Stage [n] ... Other [m]` pairs with their strength.
    private static func breaches(_ stages: [any Stage]) -> [String] {
        StageOrderRule.violations(in: stages).map { "\($0.stage)>\($0.other):\($0.rule.strength.rawValue)" }
    }

    /// Whether registering `stages` is refused for their order.
    private static func refused(_ stages: [any Stage]) -> Bool {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        do {
            try registry.register(
                Service(ServiceID("vault"), baseURL: "https://api.example.com", stages: stages, transport: MockTransport(.status(.ok)))
            )
            return false
        } catch {
            return error.code == .stageOrder
        }
    }

    @Test("signing outside the common parameters is refused: the signature would not cover them")
    func signingOutsideCommonParameters() {
        let stages: [any Stage] = [SigningStage(keyRing: Self.ring), CommonParametersStage([.fixed("app", "demo")])]
        #expect(Self.breaches(stages) == ["Signing>CommonParameters:required"])
        #expect(Self.refused(stages))
        #expect(!Self.refused([CommonParametersStage([.fixed("app", "demo")]), SigningStage(keyRing: Self.ring)]))
    }

    @Test("signing outside a retry is refused: a retried attempt would carry the first attempt's nonce")
    func signingOutsideRetry() {
        #expect(Self.refused([SigningStage(keyRing: Self.ring), RetryStage(RetryPolicy(maxAttempts: 2))]))
    }

    @Test("a canonical-request signature outside encryption is refused; a sorted-parameter one is not held to it")
    func canonicalSigningOutsideEncryption() {
        #expect(Self.refused([SigningStage(keyRing: Self.ring), EncryptionStage(keyRing: Self.ring)]))
        #expect(!Self.refused([EncryptionStage(keyRing: Self.ring), SigningStage(keyRing: Self.ring)]))
        #expect(
            Self.breaches([
                SigningStage(scheme: SortedParameterSigning(algorithm: .hmacSHA256), keyRing: Self.ring),
                EncryptionStage(keyRing: Self.ring),
            ]).isEmpty
        )
    }

    @Test("header stages inside signing are advice: registered")
    func headersInsideSigning() {
        let stages: [any Stage] = [SigningStage(keyRing: Self.ring), HeadersStage([.fixed(HTTPField.Name("X-App")!, "1")])]
        #expect(Self.breaches(stages) == ["Signing>Headers:advice"])
        #expect(!Self.refused(stages))
    }

    @Test("envelope checks, null stripping, validation and a cache inside encryption are refused: they would see ciphertext")
    func plaintextStagesInsideEncryption() throws {
        let plaintextStages: [any Stage] = [
            EnvelopeStage(successCodes: [0]), NullStrippingStage(), ValidationStage(), CacheStage(cache: try ResponseCache()),
        ]
        for stage in plaintextStages {
            #expect(Self.refused([EncryptionStage(keyRing: Self.ring), stage]), "\(stage.id)")
            #expect(!Self.refused([stage, EncryptionStage(keyRing: Self.ring)]), "\(stage.id)")
        }
    }

    @Test("encryption outside a retry is refused: a retried attempt would reuse the nonce")
    func encryptionOutsideRetry() {
        #expect(Self.refused([EncryptionStage(keyRing: Self.ring), RetryStage(RetryPolicy(maxAttempts: 2))]))
    }

    @Test("logging inside encryption is advice")
    func loggingInsideEncryption() {
        let stages: [any Stage] = [EncryptionStage(keyRing: Self.ring), LoggingStage()]
        #expect(Self.breaches(stages) == ["Encryption>Logging:advice"])
        #expect(!Self.refused(stages))
    }

    @Test("common parameters go outside header-framed encryption, beside a legacy framing's sealed field")
    func commonParametersAndFraming() {
        let parameters = CommonParametersStage([.fixed("app", "demo")])
        #expect(Self.refused([EncryptionStage(keyRing: Self.ring), parameters]))
        let legacy = EncryptionStage(
            scheme: .legacyAESECBBase64,
            keyRing: Self.ring,
            framing: EncryptionFraming(request: .formField("data"), response: .envelopeMember("data"))
        )
        #expect(Self.breaches([parameters, legacy]) == ["Encryption>CommonParameters:advice"])
        #expect(Self.breaches([legacy, parameters]).isEmpty)
    }
}
