import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCrypto
import SwitchyardSampleBackend
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

@Suite("Encrypted module against the sample backend")
struct EncryptedModuleTests {
    struct Note: Decodable, Sendable {
        let id: Int
        let text: String
        let pinned: Bool?
    }

    /// Unwraps `{"code":0,"data":…}` so that decoding sees the payload.
    struct Unwrap: ResponseStage {
        func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
            let envelope = try JSONDecoder().decode(Envelope<Note>.self, from: response.bytes)
            guard envelope.code == 0, let data = envelope.data else {
                throw SwitchyardError(code: .invalidResponse, message: "business code \(envelope.code): \(envelope.msg)")
            }
            struct Plain: Encodable {
                let id: Int
                let text: String
                let pinned: Bool?
            }
            response.bytes = try JSONEncoder().encode(Plain(id: data.id, text: data.text, pinned: data.pinned))
        }
    }

    @Test("bodies are ciphertext on the wire and entities in the app, both ways")
    func encryptedRoundTrip() async throws {
        let backend = try await SampleBackend.start()
        let ring = try KeyRing(keyID: SampleBackend.vaultKeyID, key: SymmetricKey(SampleBackend.vaultKey))
        let wire = EventRecorder()
        let tap = ClosureStage(id: "tap") { request, context, next in
            wire.record("request " + String(decoding: request.body?.bytes ?? Data(), as: UTF8.self))
            let response = try await next(request, context)
            wire.record("response " + String(decoding: response.bytes, as: UTF8.self))
            return response
        }
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        try registry.register(
            Service(
                ServiceID("vault"),
                baseURL: backend.baseURL + "/vault-api",
                stages: [Unwrap(), EncryptionStage(keyRing: ring), tap],
                transport: AsyncHTTPClientTransport()
            )
        )
        let client = APIClient(registry: registry)
        let created = try await client.send(ServiceID("vault"), .post, "/notes", parameters: ["text": "秘密 secret"], as: Note.self)
        #expect(created.status == .created)
        #expect(created.value.text == "秘密 secret")
        #expect(created.value.pinned == nil)
        let fetched = try await client.send(ServiceID("vault"), .get, "/notes/{id}", pathParameters: ["id": "3"], as: Note.self)
        #expect(fetched.value.id == 3)
        #expect(wire.events.count == 4)
        #expect(wire.events.allSatisfy { !$0.contains("secret") && !$0.contains("Note 3") })
        try await backend.shutdown()
    }

    @Test("a wrong key fails the call with a crypto error instead of garbage")
    func wrongKey() async throws {
        let backend = try await SampleBackend.start()
        let ring = try KeyRing(keyID: SampleBackend.vaultKeyID, key: SymmetricKey.random(byteCount: 32))
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        try registry.register(
            Service(
                ServiceID("vault"),
                baseURL: backend.baseURL + "/vault-api",
                stages: [EncryptionStage(keyRing: ring, responsePolicy: .acceptPlaintext)],
                transport: AsyncHTTPClientTransport()
            )
        )
        let client = APIClient(registry: registry)
        let refused = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(ServiceID("vault"), .post, "/notes", parameters: ["text": "x"])
        }
        #expect(refused?.code == .httpStatus)
        #expect(refused?.status == .badRequest)
        let unreadable = await #expect(throws: SwitchyardError.self) { _ = try await client.send(ServiceID("vault"), .get, "/notes/1") }
        #expect(unreadable?.code == .crypto)
        #expect((unreadable?.underlyingError as? CryptoError)?.code == .authenticationFailed)
        try await backend.shutdown()
    }
}
