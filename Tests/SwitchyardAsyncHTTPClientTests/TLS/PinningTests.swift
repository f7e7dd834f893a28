import AsyncHTTPClient
import Foundation
import NIOSSL
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardSampleBackend
import Testing

extension ServiceID {
    fileprivate static let payments = ServiceID("payments")!
}

/// A provider with one fixed token, so a leak would show as an `Authorization` field at the server.
private struct FixedToken: TokenProvider {
    func currentToken() async throws -> String? { "s3cret-token" }
    func refreshToken(replacing expired: String) async throws -> String { expired }
}

/// What the TLS test server reports.
private struct Described: Decodable, Sendable {
    let host: String
    let path: String
    let authorization: String
}

/// A pin of 32 random bytes: a key no server has.
private func strangerPin() -> String {
    "sha256/" + Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
}

@Suite(
    "Public-key pinning on the AsyncHTTPClient transport, against a TLS server with a certificate made by openssl",
    .timeLimit(.minutes(2))
)
struct PinningTests {
    /// Runs `body` with a TLS server, its certificate, and a client whose `payments` service uses a
    /// transport pinned to `pins` (the server's own pin when `nil`) that trusts the test certificate.
    private func withPinnedService(
        pins: ((TestCertificate) -> [String])? = nil,
        trustTestCertificate: Bool = true,
        baseURL: ((TLSTestServer) -> String)? = nil,
        _ body: (TLSTestServer, TestCertificate, APIClient) async throws -> Void
    ) async throws {
        let certificate = try TestCertificate.make()
        defer { certificate.remove() }
        let server = try await TLSTestServer.start(certificate: certificate)
        var tls = TLSConfiguration.makeClientConfiguration()
        if trustTestCertificate { tls.trustRoots = .file(certificate.certificatePath) }
        let pinning = AsyncHTTPClientTransport.Pinning(
            pins: try PublicKeyPins(pins?(certificate) ?? [certificate.pin]),
            tlsConfiguration: tls
        )
        do {
            try await AsyncHTTPClientTransport.withTransport(pinning: pinning) { transport in
                let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
                try registry.register(
                    Service(
                        .payments,
                        baseURL: baseURL?(server) ?? server.baseURL,
                        stages: [AuthorizationStage(provider: FixedToken())],
                        transport: transport
                    )
                )
                try await body(server, certificate, APIClient(registry: registry))
            }
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    @Test("a server presenting the pinned key is reached, addressed by its own host name")
    func pinnedKeyAccepted() async throws {
        try await withPinnedService { server, _, client in
            let result = try await client.send(.payments, .get, "/balance?currency=EUR", as: Described.self)
            #expect(result.value.host == "localhost:\(server.port)")
            #expect(result.value.path == "/balance?currency=EUR")
            #expect(result.value.authorization == "Bearer s3cret-token")
            #expect(server.requestCount == 1)
        }
    }

    @Test("several pins let keys rotate: any one of them is accepted")
    func rotation() async throws {
        try await withPinnedService(pins: { [strangerPin(), $0.pin, strangerPin()] }) { server, _, client in
            _ = try await client.send(.payments, .get, "/balance", as: Described.self)
            _ = try await client.send(.payments, .get, "/balance", as: Described.self)
            #expect(server.requestCount == 2)
        }
    }

    @Test("a key that matches no pin fails with .pinning naming the service, and nothing of the request is sent")
    func mismatchRefused() async throws {
        try await withPinnedService(pins: { _ in [strangerPin(), strangerPin()] }) { server, certificate, client in
            let error = await #expect(throws: SwitchyardError.self) {
                _ = try await client.send(.payments, .get, "/balance")
            }
            #expect(error?.code == .pinning)
            #expect(error?.message.contains("payments") == true)
            #expect(error?.message.contains(certificate.pin) == true)
            #expect(error?.message.contains("s3cret-token") == false)
            #expect(server.requestCount == 0)
        }
    }

    @Test("every call through a mismatched pin is refused, not only the first connection's")
    func mismatchRefusedRepeatedly() async throws {
        try await withPinnedService(pins: { _ in [strangerPin()] }) { server, _, client in
            for _ in 0..<3 {
                let error = await #expect(throws: SwitchyardError.self) {
                    _ = try await client.send(.payments, .get, "/balance")
                }
                #expect(error?.code == .pinning)
            }
            #expect(server.requestCount == 0)
        }
    }

    @Test("a pinned key on an untrusted chain is still refused: pins add to chain verification, never replace it")
    func untrustedChainRefused() async throws {
        try await withPinnedService(trustTestCertificate: false) { server, _, client in
            let error = await #expect(throws: SwitchyardError.self) {
                _ = try await client.send(.payments, .get, "/balance")
            }
            #expect(error?.code == .transport)
            #expect(error?.message.contains("payments") == true)
            #expect(server.requestCount == 0)
        }
    }

    @Test("a host name the certificate does not name is refused even with the right pin")
    func wrongHostNameRefused() async throws {
        // 127.0.0.2 reaches the same loopback server but is not in the certificate's names.
        try await withPinnedService(baseURL: { "https://127.0.0.2:\($0.port)" }) { server, _, client in
            let error = await #expect(throws: SwitchyardError.self) {
                _ = try await client.send(.payments, .get, "/balance")
            }
            #expect(error?.code == .transport)
            #expect(server.requestCount == 0)
        }
    }

    @Test("a pinned transport refuses plain http")
    func plainHTTPRefused() async throws {
        let backend = try await SampleBackend.start()
        defer { Task { try? await backend.shutdown() } }
        try await withPinnedService(baseURL: { _ in backend.baseURL }) { _, _, client in
            let error = await #expect(throws: SwitchyardError.self) {
                _ = try await client.send(.payments, .get, "/echo")
            }
            #expect(error?.code == .invalidRequest)
            #expect(backend.requestCount == 0)
        }
    }

    @Test("the library's pin of a certificate's key equals the one OpenSSL's command line computes")
    func pinMatchesOpenSSL() throws {
        let certificate = try TestCertificate.make()
        defer { certificate.remove() }
        let key = try NIOSSLCertificate.fromPEMFile(certificate.certificatePath)[0].extractPublicKey().toSPKIBytes()
        #expect(PublicKeyPins.pin(ofSubjectPublicKeyInfo: key) == certificate.pin)
        #expect(try PublicKeyPins([certificate.pin]).matches(subjectPublicKeyInfo: key))
        #expect(try !PublicKeyPins([strangerPin()]).matches(subjectPublicKeyInfo: key))
    }

    @Test(
        "pins that are not Base64 of 32 bytes, or no pins at all, are refused with .invalidRequest",
        arguments: [
            ["sha256/not base64!"], ["sha256/" + Data(count: 20).base64EncodedString()], [],
        ]
    )
    func invalidPins(pins: [String]) {
        let error = #expect(throws: SwitchyardError.self) { try PublicKeyPins(pins) }
        #expect(error?.code == .invalidRequest)
    }

    @Test("a pinned connection never accepts less than TLS 1.2")
    func minimumVersion() throws {
        var old = TLSConfiguration.makeClientConfiguration()
        old.minimumTLSVersion = .tlsv1
        let pinning = AsyncHTTPClientTransport.Pinning(pins: try PublicKeyPins([strangerPin()]), tlsConfiguration: old)
        #expect(pinning.tlsConfiguration.minimumTLSVersion == .tlsv12)
    }
}
