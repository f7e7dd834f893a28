import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto
import SwitchyardTesting
import Testing

extension ServiceID {
    fileprivate static let pay: ServiceID = "pay"
}

@Suite("Errors stay visible under signing and encryption: unsigned, unsealed error statuses are HTTP statuses")
struct UnverifiedErrorsTests {
    private static let ring = try! KeyRing(keyID: "k1", key: SymmetricKey(Data(repeating: 0x42, count: 32)))
    private static let gatewayPage = Data("<html><body>503 Service Temporarily Unavailable</body></html>".utf8)

    private func client(_ stages: [any Stage], transport: MockTransport) throws -> APIClient {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try registry.register(Service(.pay, baseURL: "https://pay.test", stages: stages, transport: transport))
        return APIClient(registry: registry)
    }

    private var retry: RetryStage { RetryStage(RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1), jitter: 0), sleep: { _ in }) }

    @Test("an unsigned 503 from a gateway is retried, then surfaces as httpStatus with its body, marked unverified")
    func unsigned503() async throws {
        let transport = MockTransport(.status(.serviceUnavailable, body: String(decoding: Self.gatewayPage, as: UTF8.self)))
        let client = try client([retry, SigningStage(keyRing: Self.ring, responseVerification: .required)], transport: transport)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.pay, .get, "/orders/1") }
        #expect(error?.code == .httpStatus)
        #expect(error?.status == .serviceUnavailable)
        #expect(error?.response?.bytes == Self.gatewayPage)
        #expect(error?.response?.isUnverified == true)
        #expect(transport.requests.count == 3)
    }

    @Test("an unsealed 401 from an auth proxy surfaces as httpStatus, not as a crypto error")
    func unsealed401() async throws {
        let transport = MockTransport(.status(.unauthorized, body: "token expired", headerFields: [.wwwAuthenticate: "Bearer"]))
        let client = try client([EncryptionStage(keyRing: Self.ring)], transport: transport)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.pay, .post, "/orders", body: .text("x")) }
        #expect(error?.code == .httpStatus)
        #expect(error?.status == .unauthorized)
        #expect(error?.response?.bodyText == "token expired")
        #expect(error?.response?.isUnverified == true)
    }

    @Test("an unsigned or unsealed 2xx is still refused as a crypto error", arguments: ["signing", "encryption"])
    func unverified2xxRefused(stage: String) async throws {
        let transport = MockTransport(.json(#"{"paid":true}"#))
        let stages: [any Stage] =
            stage == "signing" ? [SigningStage(keyRing: Self.ring, responseVerification: .required)] : [EncryptionStage(keyRing: Self.ring)]
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client(stages, transport: transport).send(.pay, .get, "/orders/1")
        }
        #expect(error?.code == .crypto)
    }

    @Test("an error status that is signed is verified: a bad signature on a 500 is refused")
    func signedErrorVerified() async throws {
        let transport = MockTransport(
            .status(
                .internalServerError,
                body: "boom",
                headerFields: [
                    SigningWireFormat.keyIDHeader: "k1", SigningWireFormat.timestampHeader: String(Int(Date().timeIntervalSince1970)),
                    SigningWireFormat.signatureHeader: String(repeating: "0", count: 64),
                ]
            )
        )
        let client = try client([SigningStage(keyRing: Self.ring, responseVerification: .required)], transport: transport)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.pay, .get, "/orders/1") }
        #expect(error?.code == .crypto)
    }
}

@Suite("Per-endpoint encryption: one opt-in stage, sealed only where an endpoint enables it")
struct PerEndpointEncryptionTests {
    private static let ring = try! KeyRing(keyID: "k1", key: SymmetricKey(Data(repeating: 0x24, count: 32)))

    private struct Transfer: Endpoint {
        typealias Output = Response
        var service: ServiceID { .pay }
        var method: HTTPRequest.Method { .post }
        var path: String { "/transfers" }
        var body: RequestBody? { .text("amount=10") }
        var options: CallOptions { CallOptions(enabledStages: [.encryption]) }
    }

    private struct Note: Endpoint {
        typealias Output = Response
        var service: ServiceID { .pay }
        var method: HTTPRequest.Method { .post }
        var path: String { "/notes" }
        var body: RequestBody? { .text("hello") }
    }

    @Test("the encrypted endpoint's body is sealed; the plain endpoint's goes as it is")
    func onlyWhereEnabled() async throws {
        let transport = MockTransport(.status(.noContent))
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        let stage = EncryptionStage(keyRing: Self.ring, responsePolicy: .acceptPlaintext).optIn()
        try registry.register(Service(.pay, baseURL: "https://pay.test", stages: [stage], transport: transport))
        let client = APIClient(registry: registry)
        _ = try await client.send(Transfer())
        _ = try await client.send(Note())
        let sealed = transport.requests[0]
        let plain = transport.requests[1]
        #expect(sealed.headerFields[EncryptionWireFormat.encryptionHeader] == "aes-256-gcm; kid=k1")
        #expect(sealed.bodyText != "amount=10")
        #expect(plain.headerFields[EncryptionWireFormat.encryptionHeader] == nil)
        #expect(plain.bodyText == "hello")
    }
}
