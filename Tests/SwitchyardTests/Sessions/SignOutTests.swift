import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Sessions: sign-out, sign-in and account switch", .timeLimit(.minutes(1)))
struct SignOutTests {
    @Test("a provider's announcement makes the next call carry the new user's token, without a 401 first")
    func announcedSwitch() async throws {
        let provider = SwitchableProvider(user: "ada", announces: true)
        let transport = makeProfileTransport()
        let client = try makeClient(stages: [AuthorizationStage(provider: provider)], transport: transport)
        #expect(try await client.send(.users, .get, "/me", as: User.self).value.name == "ada")
        provider.signIn("bob")
        #expect(try await client.send(.users, .get, "/me", as: User.self).value.name == "bob")
        #expect(transport.requests.map { $0.headerFields[.authorization] } == ["Bearer token-ada", "Bearer token-bob"])
    }

    @Test("after endSession the provider is asked again, and a nil answer sends no token at once")
    func endSessionResetsTheToken() async throws {
        let provider = SwitchableProvider(user: "ada")
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(stages: [AuthorizationStage(provider: provider)], transport: transport)
        _ = try await client.send(.users, .get, "/me")
        provider.signIn(nil)
        await client.endSession()
        _ = try await client.send(.users, .get, "/me")
        #expect(transport.requests.map { $0.headerFields[.authorization] } == ["Bearer token-ada", nil])
        #expect(provider.asked.withLock { $0 } == 2)
    }

    @Test("endSession drops the private cached responses and keeps the public ones")
    func endSessionDropsPrivateEntries() async throws {
        let provider = SwitchableProvider(user: "ada")
        let cache = try ResponseCache()
        let transport = MockTransport(.json(#"{"id":1,"name":"x"}"#))
        let registry = makeRegistry()
        try registry.register(
            Service(
                .users,
                baseURL: "https://api.test",
                stages: [CacheStage(cache: cache), AuthorizationStage(provider: provider)],
                transport: transport
            )
        )
        try registry.register(Service(.catalog, baseURL: "https://api.test", stages: [CacheStage(cache: cache)], transport: transport))
        let client = APIClient(registry: registry)
        var cached = CallOptions()
        cached.cache(.cacheElseNetwork(maxAge: .seconds(3600)))
        _ = try await client.send(.users, .get, "/me", options: cached)
        _ = try await client.send(.catalog, .get, "/articles", options: cached)
        await client.endSession(for: [.users])
        #expect(try await client.send(.users, .get, "/me", options: cached).source == .network)
        #expect(try await client.send(.catalog, .get, "/articles", options: cached).source == .memoryCache)
    }

    @Test("endSession cancels the service's calls in flight")
    func endSessionCancelsCalls() async throws {
        let gate = Locked(false)
        let transport = gatedTransport(gate)
        let client = try makeClient(stages: [AuthorizationStage(provider: SwitchableProvider(user: "ada"))], transport: transport)
        let pending = Task { try await client.send(.users, .get, "/me") }
        while transport.requests.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
        await client.endSession(for: [.users])
        let outcome = await pending.result
        guard case .failure(let error) = outcome else {
            Issue.record("the call in flight was not cancelled")
            return
        }
        #expect((error as? SwitchyardError)?.code == .cancelled)
    }

    @Test("ending one account's session drops only that account's entries")
    func endOneAccount() async throws {
        let transport = MockTransport(.json(#"{"id":1,"name":"x"}"#))
        let client = try makeClient(stages: [CacheStage(cache: try ResponseCache())], transport: transport)
        func call(_ account: String) async throws -> ResponseSource {
            var options = CallOptions()
            options.account = account
            return try await client.send(GetMe(), options: options).source
        }
        _ = try await call("a")
        _ = try await call("b")
        await client.endSession(account: "a")
        #expect(try await call("a") == .network)
        #expect(try await call("b") == .memoryCache)
    }

    @Test("ending the session of an account the token provider names drops that account's entries")
    func endProviderNamedAccount() async throws {
        let provider = NamingProvider(user: "ada")
        let client = try makeClient(
            stages: [CacheStage(cache: try ResponseCache()), AuthorizationStage(provider: provider)],
            transport: makeProfileTransport()
        )
        #expect(try await client.send(GetMe()).source == .network)
        #expect(try await client.send(GetMe()).source == .memoryCache)
        await client.endSession(account: "ada")
        let again = try await client.send(GetMe())
        #expect(again.value.name == "ada" && again.source == .network)
    }
}

/// A token provider that names the account its token belongs to.
private final class NamingProvider: TokenProvider, Sendable {
    let user: String
    init(user: String) { self.user = user }
    func currentToken() async throws -> String? { "token-" + user }
    func refreshToken(replacing expired: String) async throws -> String { expired }
    func account() async throws -> String? { user }
}
