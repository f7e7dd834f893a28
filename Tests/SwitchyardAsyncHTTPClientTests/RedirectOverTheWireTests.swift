import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardSampleBackend
import SwitchyardTestSupport
import SwitchyardURLSession
import Testing

/// A provider with one fixed token.
private struct FixedToken: TokenProvider {
    func currentToken() async throws -> String? { "t0k3n" }
    func refreshToken(replacing expired: String) async throws -> String { expired }
}

/// The two transports, by name, for parameterised tests.
private func transport(_ name: String) -> any Transport {
    name == "URLSession" ? URLSessionTransport() : AsyncHTTPClientTransport()
}

@Suite("Redirects over the wire: both transports leave redirects to the service's policy")
struct RedirectOverTheWireTests {
    private static let apiKey = HTTPField.Name("X-Api-Key")!

    /// Runs `body` with two sample backends and a client whose `utility` service is the first one,
    /// with a token and an API key on every call.
    private func withTwoBackends(
        transport name: String,
        policy: RedirectPolicy = .default,
        _ body: (SampleBackend, SampleBackend, APIClient) async throws -> Void
    ) async throws {
        let first = try await SampleBackend.start()
        let second = try await SampleBackend.start()
        do {
            let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
            try registry.register(
                Service(
                    .utility,
                    baseURL: first.baseURL,
                    defaults: ServiceDefaults(redirects: policy),
                    stages: [HeadersStage([.fixed(Self.apiKey, "k3y")]), AuthorizationStage(provider: FixedToken())],
                    transport: transport(name)
                )
            )
            try await body(first, second, APIClient(registry: registry))
        } catch {
            try? await first.shutdown()
            try? await second.shutdown()
            throw error
        }
        try await first.shutdown()
        try await second.shutdown()
    }

    private func redirect(to location: String) -> String {
        "/redirect/302?to=" + (location.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? location)
    }

    @Test("a same-origin redirect is followed with the call's credentials", arguments: ["AsyncHTTPClient", "URLSession"])
    func sameOrigin(transport: String) async throws {
        try await withTwoBackends(transport: transport) { first, _, client in
            let result = try await client.send(.utility, .get, redirect(to: "/echo?landed=1"), as: EchoReport.self)
            #expect(result.value.query == "landed=1")
            #expect(result.value.headers["authorization"] == "Bearer t0k3n")
            #expect(result.redirectCount == 1)
            #expect(first.requestCount == 2)
        }
    }

    @Test("a redirect to another port is refused by default and nothing reaches it", arguments: ["AsyncHTTPClient", "URLSession"])
    func anotherPort(transport: String) async throws {
        try await withTwoBackends(transport: transport) { _, second, client in
            let error = await #expect(throws: SwitchyardError.self) {
                _ = try await client.send(.utility, .get, redirect(to: second.baseURL + "/echo"))
            }
            #expect(error?.code == .redirect)
            #expect(second.requestCount == 0)
        }
    }

    @Test("a redirect to another host name for the same server is refused by default", arguments: ["AsyncHTTPClient", "URLSession"])
    func anotherHostName(transport: String) async throws {
        try await withTwoBackends(transport: transport) { first, _, client in
            let other = first.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            let error = await #expect(throws: SwitchyardError.self) {
                _ = try await client.send(.utility, .get, redirect(to: other + "/echo"))
            }
            #expect(error?.code == .redirect)
            #expect(first.requestCount == 1)
        }
    }

    @Test(
        "an allowed cross-origin redirect reaches the other origin without the token or the API key",
        arguments: ["AsyncHTTPClient", "URLSession"]
    )
    func allowedWithoutCredentials(transport: String) async throws {
        try await withTwoBackends(transport: transport, policy: RedirectPolicy(crossOrigin: .followWithoutCredentials)) {
            _,
            second,
            client in
            let result = try await client.send(
                .utility,
                .get,
                redirect(to: second.baseURL + "/echo"),
                headerFields: [.accept: "application/json"],
                as: EchoReport.self
            )
            #expect(second.requestCount == 1)
            #expect(result.value.headers["authorization"] == nil)
            #expect(result.value.headers["x-api-key"] == nil)
            #expect(result.value.headers["accept"] == "application/json")
            #expect(result.finalURL?.port == URL(string: second.baseURL)?.port)
        }
    }
}
