import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCrypto
import Testing

extension ServiceID {
    fileprivate static let reference: ServiceID = "reference"
}

/// The secret the tests send.
private struct Secret: Encodable, Sendable {
    let secret: String
    let n: Int
}

/// What the reference backend echoes inside its envelope.
private struct Echoed: Decodable, Sendable {
    struct Payload: Decodable, Sendable, Equatable {
        let secret: String
        let n: Int
    }
    let echo: Payload
    let query: String
    let gone: String?
    let fields: [String: String]?
}

@Suite(
    "Encryption framings against a reference backend written in Python from the wire-format doc",
    .enabled("PyCA cryptography is needed: pip install cryptography") { await ReferenceBackend.enabled.value },
    .timeLimit(.minutes(2))
)
struct ReferenceBackendTests {
    private static let ring = try! KeyRing(keyID: "ref-1", key: SymmetricKey(Data(repeating: 0x5A, count: 32)))
    private static let schemes: [(String, EncryptionScheme)] = [
        ("aes-256-gcm", .aes256GCM), ("aes-256-cbc-hmac-sha256", .aes256CBCHMACSHA256),
        ("legacy-aes-ecb-base64", .legacyAESECBBase64), ("legacy-aes-cbc-key-iv-base64", .legacyAESCBCKeyIVBase64),
    ]
    private static let framings: [(String, EncryptionFraming)] = [
        ("headers", .headers),
        ("whole", EncryptionFraming(request: .wholeBody(), response: .wholeBody())),
        ("form", EncryptionFraming(request: .formField("data"), response: .envelopeMember("data"))),
        ("json", EncryptionFraming(request: .jsonMember("data"), response: .wholeBody())),
        ("envelope", EncryptionFraming(request: .jsonMember("payload"), response: .envelopeMember("result.data"))),
    ]
    static let combinations: [String] = framings.flatMap { framing in schemes.map { "\(framing.0)/\($0.0)" } }

    /// A client whose service speaks one framing and scheme, with an envelope stage and null stripping
    /// outside the encryption stage and a common parameter: inside it for the legacy framings (beside
    /// the ciphertext), outside it for Switchyard's headers (whose AAD binds the query as it leaves
    /// the encryption stage).
    private func client(_ combination: String) async throws -> APIClient {
        let base = try await ReferenceBackend.require()
        let names = combination.split(separator: "/").map(String.init)
        let scheme = try #require(Self.schemes.first { $0.0 == names[1] }?.1)
        let framing = try #require(Self.framings.first { $0.0 == names[0] }?.1)
        let envelopeKeys: EnvelopeStage.Keys = names[0] == "envelope" ? .init(data: "result.data") : .init()
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try registry.register(
            Service(
                .reference,
                baseURL: base + "/" + combination,
                stages: names[0] == "headers"
                    ? [
                        EnvelopeStage(keys: envelopeKeys, successCodes: [0]), NullStrippingStage(),
                        CommonParametersStage([.fixed("app_id", "demo")]),
                        EncryptionStage(scheme: scheme, keyRing: Self.ring, framing: framing),
                    ]
                    : [
                        EnvelopeStage(keys: envelopeKeys, successCodes: [0]), NullStrippingStage(),
                        EncryptionStage(scheme: scheme, keyRing: Self.ring, framing: framing),
                        CommonParametersStage([.fixed("app_id", "demo")]),
                    ],
                transport: AsyncHTTPClientTransport()
            )
        )
        return APIClient(registry: registry)
    }

    @Test("every framing × scheme round-trips both ways through real stages", arguments: combinations)
    func roundTrip(combination: String) async throws {
        let client = try await client(combination)
        let result = try await client.send(
            .reference,
            .post,
            "/echo?b=2&a=1",
            body: .json(Secret(secret: "s3cr3t", n: 7)),
            as: Echoed.self
        )
        #expect(result.value.echo == Echoed.Payload(secret: "s3cr3t", n: 7))
        #expect(result.value.query.hasPrefix("b=2&a=1"))
        #expect(result.value.gone == nil)
        if combination.hasPrefix("form/") { #expect(result.value.fields?["app_id"] == "demo") }
    }

    @Test(
        "a tampered answer is refused by every authenticated scheme in every framing",
        arguments: combinations.filter { !$0.contains("legacy") }
    )
    func tamperingRefused(combination: String) async throws {
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client(combination).send(.reference, .post, "/echo?tamper=1", body: .json(Secret(secret: "x", n: 1)))
        }
        #expect(error?.code == .crypto)
    }

    @Test(
        "a tampered answer under a legacy scheme is not detected reliably (documented): it fails or decodes to garbage, never crashes",
        arguments: combinations.filter { $0.contains("legacy") }
    )
    func legacyTampering(combination: String) async throws {
        do {
            _ = try await client(combination).send(
                .reference,
                .post,
                "/echo?tamper=1",
                body: .json(Secret(secret: "x", n: 1)),
                as: Echoed.self
            )
        } catch let error as SwitchyardError {
            let expected: [SwitchyardError.Code] = [.crypto, .decoding, .invalidResponse, .invalidJSON, .business]
            #expect(expected.contains(error.code), "\(error)")
        }
    }
}
