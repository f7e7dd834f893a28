import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// A transport with two origins: the service's (`https://api.test`) redirects by the path, and
/// everything else answers 200 with the request it saw.
private func twoOrigins() -> MockTransport {
    MockTransport { request, _ in
        if request.head.authority == "api.test" {
            switch request.pathWithoutQuery {
            case "/same": return Response(status: .found, headerFields: [.location: "/landed?x=1"])
            case "/other-port": return Response(status: .found, headerFields: [.location: "https://api.test:8443/landed"])
            case "/other-host": return Response(status: .found, headerFields: [.location: "https://cdn.test/landed"])
            case "/downgrade": return Response(status: .movedPermanently, headerFields: [.location: "http://api.test/landed"])
            case "/see-other": return Response(status: .seeOther, headerFields: [.location: "/landed"])
            case "/temporary": return Response(status: .temporaryRedirect, headerFields: [.location: "/landed"])
            case "/temporary-away": return Response(status: .temporaryRedirect, headerFields: [.location: "https://cdn.test/landed"])
            case "/loop": return Response(status: .found, headerFields: [.location: "/loop"])
            default: break
            }
        }
        return Response(status: .ok, body: Data("landed".utf8))
    }
}

@Suite("Redirects: the service's policy, the same in every transport")
struct RedirectPolicyTests {
    private let apiKey = HTTPField.Name("X-Api-Key")!

    private func client(_ transport: MockTransport, policy: RedirectPolicy = .default) throws -> APIClient {
        try makeClient(
            baseURL: "https://api.test",
            stages: [HeadersStage([.fixed(apiKey, "k3y")]), AuthorizationStage(provider: SwitchableProvider(user: "ada"))],
            defaults: ServiceDefaults(redirects: policy),
            transport: transport
        )
    }

    @Test("a same-origin redirect is followed with everything the call carries; the result says where it ended")
    func sameOrigin() async throws {
        let transport = twoOrigins()
        let result = try await client(transport).send(.users, .get, "/same")
        #expect(result.value.bytes == Data("landed".utf8))
        #expect(result.redirectCount == 1)
        #expect(result.finalURL?.absoluteString == "https://api.test/landed?x=1")
        #expect(result.attempts == 1)
        let landed = try #require(transport.requests.last)
        #expect(landed.headerFields[.authorization] == "Bearer token-ada" && landed.headerFields[apiKey] == "k3y")
    }

    @Test("a redirect to another port is refused by default, and nothing reaches it", arguments: ["/other-port", "/other-host"])
    func crossOriginRefused(path: String) async throws {
        let transport = twoOrigins()
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client(transport).send(.users, .get, path) }
        #expect(error?.code == .redirect)
        #expect(error?.status == .found)
        #expect(transport.requests.allSatisfy { $0.head.authority == "api.test" })
    }

    @Test(
        "a refused redirect names the redirect handling as the failing stage, not the innermost stage",
        arguments: ["/other-host", "/downgrade", "/loop"]
    )
    func refusalNamesRedirects(path: String) async throws {
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client(twoOrigins(), policy: RedirectPolicy(maximum: 3)).send(.users, .get, path)
        }
        #expect(error?.code == .redirect)
        #expect(error?.stage == .redirects)
        #expect(error?.description.contains("stage 'redirects'") == true, "\(String(describing: error))")
    }

    @Test("https to http is never followed, even to the same host")
    func neverDowngrades() async throws {
        let transport = twoOrigins()
        let policy = RedirectPolicy(crossOrigin: .followWithoutCredentials)
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client(transport, policy: policy).send(.users, .get, "/downgrade")
        }
        #expect(error?.code == .redirect)
        #expect(transport.requests.count == 1)
    }

    @Test("an allowed cross-origin redirect goes on without the token, secret or stage-added fields")
    func crossOriginWithoutCredentials() async throws {
        let transport = twoOrigins()
        let policy = RedirectPolicy(crossOrigin: .followWithoutCredentials)
        let result = try await client(transport, policy: policy).send(
            .users,
            .get,
            "/other-host",
            headerFields: [.accept: "application/json", HTTPField.Name("X-Session")!: "s"]
        )
        #expect(result.finalURL?.host == "cdn.test")
        let landed = try #require(transport.requests.last)
        #expect(landed.head.authority == "cdn.test")
        #expect(landed.headerFields.map(\.name.canonicalName).sorted() == ["accept", "user-agent"])
    }

    @Test("an allowed cross-origin redirect's answer is returned but never cached as the service's")
    func crossOriginAnswerNotCached() async throws {
        let transport = twoOrigins()
        let client = try makeClient(
            baseURL: "https://api.test",
            stages: [CacheStage(cache: try ResponseCache())],
            defaults: ServiceDefaults(redirects: RedirectPolicy(crossOrigin: .followWithoutCredentials)),
            transport: transport
        )
        var options = CallOptions()
        options.cache(.cacheElseNetwork(maxAge: .seconds(3600)))
        let first = try await client.send(.users, .get, "/other-host", options: options)
        let second = try await client.send(.users, .get, "/other-host", options: options)
        #expect(first.value.bytes == Data("landed".utf8))
        #expect(second.source == .network)
        #expect(transport.requests.filter { $0.head.authority == "cdn.test" }.count == 2)
    }

    @Test("a same-origin redirect's answer is cached under the call's key")
    func sameOriginAnswerCached() async throws {
        let transport = twoOrigins()
        let client = try makeClient(baseURL: "https://api.test", stages: [CacheStage(cache: try ResponseCache())], transport: transport)
        var options = CallOptions()
        options.cache(.cacheElseNetwork(maxAge: .seconds(3600)))
        _ = try await client.send(.users, .get, "/same", options: options)
        let second = try await client.send(.users, .get, "/same", options: options)
        #expect(second.source != .network)
        #expect(transport.requests.count == 2)
    }

    @Test("303 after a POST goes on as a GET without the body; 307 repeats the POST and its body")
    func methodRules() async throws {
        let transport = twoOrigins()
        let client = try client(transport)
        _ = try await client.send(.users, .post, "/see-other", body: .text("hello"))
        _ = try await client.send(.users, .post, "/temporary", body: .text("again"))
        let landed = transport.requests.filter { $0.pathWithoutQuery == "/landed" }
        #expect(landed.map(\.method) == [.get, .post])
        #expect(landed.map(\.bodyText) == [nil, "again"])
    }

    @Test("a 307 to another origin that would resend the body is refused even when cross-origin redirects are allowed")
    func crossOriginBodyRefused() async throws {
        let transport = twoOrigins()
        let policy = RedirectPolicy(crossOrigin: .followWithoutCredentials)
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client(transport, policy: policy).send(.users, .post, "/temporary-away", body: .text("secret"))
        }
        #expect(error?.code == .redirect)
        #expect(transport.requests.allSatisfy { $0.head.authority == "api.test" })
    }

    @Test("a redirect loop ends at the maximum with a redirect error")
    func tooMany() async throws {
        let transport = twoOrigins()
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client(transport, policy: RedirectPolicy(maximum: 3)).send(.users, .get, "/loop")
        }
        #expect(error?.code == .redirect)
        #expect(transport.requests.count == 4)
    }

    @Test("with RedirectPolicy.never a 3xx comes back as it is")
    func never() async throws {
        let transport = twoOrigins()
        var options = CallOptions()
        options.acceptableStatusCodes = 200...399
        let result = try await client(transport, policy: .never).send(.users, .get, "/same", options: options)
        #expect(result.status == .found && result.redirectCount == 0)
        #expect(transport.requests.count == 1)
    }
}
