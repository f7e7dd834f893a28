import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto
import SwitchyardTesting
import Synchronization
import Testing

/// A server that seals each answer for the request it is given (wire format 2), and an attacker on
/// the path who keeps the first answer and plays it back for every later request.
private final class TransplantingPath: Sendable {
    let kept = Mutex<Response?>(nil)

    var transport: MockTransport {
        MockTransport { request, _ in
            if let old = self.kept.withLock({ $0 }) { return old }
            let target = request.head.path ?? "/"
            let aad = EncryptionWireFormat.associatedData(
                direction: .response,
                scheme: .aes256GCM,
                keyID: "k1",
                method: request.method.rawValue,
                target: target,
                requestNonce: request.headerFields[EncryptionWireFormat.requestNonceHeader]
            )
            let plaintext = Data(#"{"user":"\#(target.split(separator: "/").last ?? "")"}"#.utf8)
            let response = Response(
                status: .ok,
                headerFields: [
                    EncryptionWireFormat.encryptionHeader: "aes-256-gcm; kid=k1",
                    EncryptionWireFormat.contentTypeHeader: "application/json",
                ],
                body: try EncryptionScheme.aes256GCM.seal(plaintext, key: LegacyAnswers.ring.currentKey, aad: aad)
            )
            self.kept.withLock { $0 = $0 ?? response }
            return response
        }
    }
}

@Suite("What a legacy framing does not protect, and what the default does")
struct LegacyFramingLimitsTests {
    @Test(
        "documented limit: with empty associated data, a whole sealed answer for another user and endpoint opens fine",
        arguments: [EncryptionScheme.aes256GCM, .legacyAESECBBase64],
        [EncryptionFraming.ResponseFraming.wholeBody(), .envelopeMember("data")]
    )
    func legacyFramingOpensATransplant(scheme: EncryptionScheme, framing: EncryptionFraming.ResponseFraming) async throws {
        // What the server sealed for alice's `GET /accounts/alice` …
        let alice = Data(#"{"user":"alice","balance":100}"#.utf8)
        let sealed = try LegacyAnswers.sealedText(alice, scheme: scheme)
        let body: Data
        switch framing {
        case .envelopeMember: body = LegacyAnswers.envelope(sealed)
        default: body = scheme.isBinary ? try #require(Data(base64Encoded: sealed)) : Data(sealed.utf8)
        }
        // … played back, later, as the answer to bob's call to another endpoint.
        let bob = try Request.fixture(.get, "https://pay.test/cards/bob", headerFields: [.authorization: "Bearer bob"])
        let run = await StageHarness(LegacyAnswers.stage(scheme: scheme, response: framing)).run(bob, respond: LegacyAnswers.answer(body))
        let answer = try #require(run.response?.bytes, "\(run.error?.message ?? "")")
        #expect(String(decoding: answer, as: UTF8.self).contains(#""user":"alice""#))
    }

    @Test("documented limit: a sealed request reflected back as the answer opens as the answer")
    func legacyFramingOpensAReflection() async throws {
        // The path sends the call's own sealed `{"payload":"<sealed>"}` straight back as a whole body.
        let reflect = MockResponse { request, _ in
            let object = try JSONSerialization.jsonObject(with: request.body?.bytes ?? Data()) as? [String: String]
            return Response(status: .ok, body: Data(base64Encoded: object?["payload"] ?? "") ?? Data())
        }
        let run = await StageHarness(LegacyAnswers.stage(response: .wholeBody())).run(try LegacyAnswers.payRequest(), respond: reflect)
        #expect(run.response?.bytes == Data(#"{"amount":1}"#.utf8), "\(run.error?.message ?? "")")
    }

    @Test(
        "the default (headers, wire format 2) refuses the same transplant: to another user's endpoint, and to a later call of the same one"
    )
    func defaultRefusesATransplant() async throws {
        let path = TransplantingPath()
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        try registry.register(
            Service(
                ServiceID("pay"),
                baseURL: "https://pay.test",
                stages: [EncryptionStage(keyRing: LegacyAnswers.ring)],
                transport: path.transport
            )
        )
        let client = APIClient(registry: registry)
        let first = try await client.send(ServiceID("pay"), .get, "/accounts/alice")
        #expect(first.value.bytes == Data(#"{"user":"alice"}"#.utf8))
        for target in ["/cards/bob", "/accounts/alice"] {
            let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(ServiceID("pay"), .get, target) }
            #expect(error?.code == .crypto, "\(target)")
            #expect((error?.underlyingError as? CryptoError)?.code == .authenticationFailed, "\(target)")
        }
    }
}
