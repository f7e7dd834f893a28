import AsyncHTTPClient
import Foundation
import NIOSSL
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardSampleBackend
import SwitchyardTestSupport
import Testing

extension ServiceID {
    fileprivate static let payments: ServiceID = "payments"
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
        names: String = "DNS:localhost,IP:127.0.0.1",
        trustTestCertificate: Bool = true,
        baseURL: ((TLSTestServer) -> String)? = nil,
        _ body: (TLSTestServer, TestCertificate, APIClient) async throws -> Void
    ) async throws {
        let certificate = try await TestCertificate.make(names: names)
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
            #expect(error?.code == .pinning, "\(error?.message ?? "")")
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
                #expect(error?.code == .pinning, "\(error?.message ?? "")")
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
            #expect(error?.message.contains("CERTIFICATE_VERIFY_FAILED") == true, "\(error?.message ?? "")")
            #expect(server.requestCount == 0)
        }
    }

    @Test("a host the certificate does not name is refused even with the right pin")
    func wrongHostRefused() async throws {
        // The certificate names only localhost; the service addresses the same server as 127.0.0.1.
        try await withPinnedService(names: "DNS:localhost", baseURL: { "https://127.0.0.1:\($0.port)" }) { server, _, client in
            let error = await #expect(throws: SwitchyardError.self) {
                _ = try await client.send(.payments, .get, "/balance")
            }
            #expect(error?.code == .transport)
            #expect(error?.message.contains("failedToValidateHostname") == true, "\(error?.message ?? "")")
            #expect(server.requestCount == 0)
        }
    }

    @Test("a body that ends when the server closes the connection arrives whole through the relay")
    func closeDelimitedBodyArrivesWhole() async throws {
        try await withPinnedService { _, _, client in
            let result = try await client.send(.payments, .get, "/big?bytes=16000000")
            #expect(result.value.bytes.count == 16_000_000)
            #expect(result.value.bytes.prefix(3) == Data([0, 1, 2]))
            #expect(result.value.bytes.last == UInt8(15_999_999 % 251))
        }
    }

    @Test("a redirect the service follows to another origin is held to the same pins")
    func redirectHeldToPins() async throws {
        let other = try await TestCertificate.make()
        defer { other.remove() }
        let elsewhere = try await TLSTestServer.start(certificate: other)
        defer { Task { await elsewhere.shutdown() } }
        let certificate = try await TestCertificate.make()
        defer { certificate.remove() }
        let server = try await TLSTestServer.start(certificate: certificate)
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(
            try NIOSSLCertificate.fromPEMFile(certificate.certificatePath) + NIOSSLCertificate.fromPEMFile(other.certificatePath)
        )
        let pinning = AsyncHTTPClientTransport.Pinning(pins: try PublicKeyPins([certificate.pin]), tlsConfiguration: tls)
        try await AsyncHTTPClientTransport.withTransport(pinning: pinning) { transport in
            let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
            let policy = RedirectPolicy(crossOrigin: .followWithoutCredentials)
            try registry.register(
                Service(.payments, baseURL: server.baseURL, defaults: ServiceDefaults(redirects: policy), transport: transport)
            )
            let target = (elsewhere.baseURL + "/landing").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let error = await #expect(throws: SwitchyardError.self) {
                _ = try await APIClient(registry: registry).send(.payments, .get, "/redirect?to=" + target)
            }
            #expect(error?.code == .pinning, "\(error?.message ?? "")")
            #expect(elsewhere.requestCount == 0)
        }
        await server.shutdown()
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
    func pinMatchesOpenSSL() async throws {
        let certificate = try await TestCertificate.make()
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
