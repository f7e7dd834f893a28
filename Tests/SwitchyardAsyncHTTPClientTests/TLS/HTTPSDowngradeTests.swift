import AsyncHTTPClient
import Foundation
import NIOSSL
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardSampleBackend
import SwitchyardTestSupport
import Testing

/// A provider with one fixed token.
private struct FixedToken: TokenProvider {
    func currentToken() async throws -> String? { "s3cret-token" }
    func refreshToken(replacing expired: String) async throws -> String { expired }
}

@Suite("https never redirects to http, over the wire", .timeLimit(.minutes(2)))
struct HTTPSDowngradeTests {
    @Test(
        "an https server's redirect to http is refused even where cross-origin redirects are followed, and nothing reaches the http origin"
    )
    func downgradeRefused() async throws {
        let certificate = try await TestCertificate.make()
        defer { certificate.remove() }
        let server = try await TLSTestServer.start(certificate: certificate)
        let plain = try await SampleBackend.start()
        var configuration = HTTPClient.Configuration()
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(certificate.certificatePath)
        configuration.tlsConfiguration = tls
        do {
            try await AsyncHTTPClientTransport.withTransport(configuration: configuration) { transport in
                let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
                try registry.register(
                    Service(
                        .utility,
                        baseURL: server.baseURL,
                        defaults: ServiceDefaults(redirects: RedirectPolicy(crossOrigin: .followWithoutCredentials)),
                        stages: [AuthorizationStage(provider: FixedToken())],
                        transport: transport
                    )
                )
                let client = APIClient(registry: registry)
                let target = (plain.baseURL + "/echo").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let error = await #expect(throws: SwitchyardError.self) {
                    _ = try await client.send(.utility, .get, "/redirect?to=" + target)
                }
                #expect(error?.code == .redirect)
                #expect(error?.response?.status.code == 302)
                #expect(server.requestCount == 1)
                #expect(plain.requestCount == 0)
            }
        } catch {
            await server.shutdown()
            try? await plain.shutdown()
            throw error
        }
        await server.shutdown()
        try await plain.shutdown()
    }
}
