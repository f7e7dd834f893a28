import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto
import SwitchyardTesting
import Synchronization
import Testing

extension ServiceID {
    fileprivate static let vault: ServiceID = "vault"
}

/// A server that seals its answer for the request it is given, or replays one it sealed earlier.
private final class ReplayingServer: Sendable {
    let ring: KeyRing
    let recorded = Mutex<Response?>(nil)
    let replay = Mutex(false)

    init(ring: KeyRing) { self.ring = ring }

    var transport: MockTransport {
        MockTransport { request, _ in
            if self.replay.withLock({ $0 }), let old = self.recorded.withLock({ $0 }) { return old }
            let aad = EncryptionWireFormat.associatedData(
                direction: .response,
                scheme: .aes256GCM,
                keyID: "k1",
                method: request.method.rawValue,
                target: request.head.path ?? "/",
                requestNonce: request.headerFields[EncryptionWireFormat.requestNonceHeader]
            )
            let response = Response(
                status: .ok,
                headerFields: [
                    EncryptionWireFormat.encryptionHeader: "aes-256-gcm; kid=k1",
                    EncryptionWireFormat.contentTypeHeader: "application/json",
                ],
                body: try EncryptionScheme.aes256GCM.seal(Data(#"{"balance":100}"#.utf8), key: self.ring.currentKey, aad: aad)
            )
            self.recorded.withLock { $0 = response }
            return response
        }
    }
}

@Suite("Wire format 2: the response's AAD binds the query and the request's nonce")
struct WireFormatV2Tests {
    private static let ring = try! KeyRing(keyID: "k1", key: SymmetricKey(Data(repeating: 0x11, count: 32)))

    private func client(_ transport: MockTransport, version: EncryptionWireFormat.Version = .v2) throws -> APIClient {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        let stage = EncryptionStage(keyRing: Self.ring, wireFormat: version)
        try registry.register(Service(.vault, baseURL: "https://vault.test", stages: [stage], transport: transport))
        return APIClient(registry: registry)
    }

    @Test("the v2 AAD is exactly as documented: version, direction, scheme, key id, method, path, canonical query, nonce")
    func knownAnswer() {
        let aad = EncryptionWireFormat.associatedData(
            direction: .response,
            scheme: .aes256GCM,
            keyID: "k1",
            method: "GET",
            target: "/v1/accounts?b=2&a=x%20y",
            requestNonce: "00112233445566778899aabbccddeeff"
        )
        #expect(
            String(decoding: aad, as: UTF8.self) == """
                switchyard/2
                response
                aes-256-gcm
                k1
                GET
                /v1/accounts
                a=x%20y&b=2
                00112233445566778899aabbccddeeff
                """
        )
    }

    @Test(
        "the AAD's bytes are its lines' UTF-8 joined by newlines, whatever the lines hold: non-ASCII, percent escapes, empty parts",
        arguments: [("GET", "/ä/%C3%A9", "k1", "n0"), ("POST", "/", "key-2", ""), ("DELETE", "/x y/ü", "k", "é")]
    )
    func aadBytes(method: String, path: String, keyID: String, nonce: String) {
        let aad = EncryptionWireFormat.associatedData(
            direction: .request,
            scheme: .aes256GCM,
            keyID: keyID,
            method: method,
            target: path,
            requestNonce: nonce
        )
        let lines = ["switchyard/2", "request", EncryptionScheme.aes256GCM.name, keyID, method, path, "", nonce]
        #expect(aad == Data(lines.joined(separator: "\n").utf8))
        let v1 = EncryptionWireFormat.associatedData(direction: .response, scheme: .aes256GCM, keyID: keyID, method: method, path: path)
        #expect(
            v1 == Data(["switchyard/1", "response", EncryptionScheme.aes256GCM.name, keyID, method, path].joined(separator: "\n").utf8)
        )
    }

    @Test("every request carries a fresh nonce and names scheme and key id, even without a body")
    func nonceOnEveryRequest() async throws {
        let server = ReplayingServer(ring: Self.ring)
        let transport = server.transport
        let client = try client(transport)
        _ = try await client.send(.vault, .get, "/balance")
        _ = try await client.send(.vault, .get, "/balance")
        let nonces = transport.requests.compactMap { $0.headerFields[EncryptionWireFormat.requestNonceHeader] }
        #expect(nonces.count == 2 && Set(nonces).count == 2 && nonces.allSatisfy { $0.count == 32 })
        #expect(transport.requests.allSatisfy { $0.headerFields[EncryptionWireFormat.encryptionHeader] == "aes-256-gcm; kid=k1" })
    }

    @Test("a sealed answer replayed to another request of the same query is refused")
    func replayToAnotherRequestRefused() async throws {
        let server = ReplayingServer(ring: Self.ring)
        let client = try client(server.transport)
        _ = try await client.send(.vault, .get, "/balance?account=1")
        server.replay.withLock { $0 = true }
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.vault, .get, "/balance?account=1") }
        #expect(error?.code == .crypto)
    }

    @Test("a sealed answer replayed to another query is refused")
    func replayToAnotherQueryRefused() async throws {
        let server = ReplayingServer(ring: Self.ring)
        let client = try client(server.transport)
        _ = try await client.send(.vault, .get, "/balance?account=1")
        server.replay.withLock { $0 = true }
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.vault, .get, "/balance?account=2") }
        #expect(error?.code == .crypto)
    }

    @Test("an empty 2xx where encryption is required is refused; 204 is not")
    func emptyPlaintextRefused() async throws {
        let empty = try client(MockTransport(.status(.ok)))
        let error = await #expect(throws: SwitchyardError.self) { _ = try await empty.send(.vault, .get, "/balance") }
        #expect(error?.code == .crypto)
        _ = try await client(MockTransport(.status(.noContent))).send(.vault, .delete, "/sessions/1")
    }

    @Test("v1 stays available for servers that speak only it: no nonce, the v1 AAD")
    func version1() async throws {
        let transport = MockTransport { request, _ in
            #expect(request.headerFields[EncryptionWireFormat.requestNonceHeader] == nil)
            let aad = EncryptionWireFormat.associatedData(
                direction: .response,
                scheme: .aes256GCM,
                keyID: "k1",
                method: "GET",
                path: request.pathWithoutQuery.description
            )
            return Response(
                status: .ok,
                headerFields: [EncryptionWireFormat.encryptionHeader: "aes-256-gcm; kid=k1"],
                body: try EncryptionScheme.aes256GCM.seal(Data("{}".utf8), key: Self.ring.currentKey, aad: aad)
            )
        }
        #expect(try await client(transport, version: .v1).send(.vault, .get, "/balance?x=1").value.bytes == Data("{}".utf8))
    }

    @Test("an empty key is refused when the ring is made")
    func emptyKeyRefused() {
        #expect(throws: CryptoError.self) { try KeyRing(keyID: "k1", key: SymmetricKey(Data())) }
    }
}

@Suite("The wire-format doc's legacy HMAC-SHA256 example, as the stage signs it")
struct LegacyHMACExampleTests {
    @Test("the stage adds sign_type=HMAC-SHA256 and signs it with the rest: the documented value")
    func documentedValue() async throws {
        let secret = try KeyRing(keyID: "mch", key: SymmetricKey(Data("192006250b4c09247ec02edce69f6a2d".utf8)))
        let stage = SigningStage(scheme: SortedParameterSigning(algorithm: .hmacSHA256), keyRing: secret)
        let run = await StageHarness(stage).run(
            try .fixture(
                .get,
                "https://pay.test/order?appid=wxd930ea5d5a258f4f&mch_id=10000100&device_info=1000&body=test&nonce_str=ibuaiVcKdpRxkhJA"
            )
        )
        let query = String(try #require(run.forwardedRequest?.query))
        #expect(query.contains("sign_type=HMAC-SHA256"))
        #expect(query.contains("sign=2C9DF1156522C0B2B03B4DBF3BCA5CACB602CBD5CA0F9E112458CF3E9855303B"), "\(query)")
    }
}
