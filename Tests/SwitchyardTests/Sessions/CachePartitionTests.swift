import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Sessions: cached responses are partitioned by the credentials a request carries")
struct CachePartitionTests {
    /// A client whose cache sits outside the authorization stage, as usual: the token is added
    /// after the cache has looked the request up.
    private func client(
        provider: SwitchableProvider,
        cache: ResponseCache,
        transport: MockTransport = makeProfileTransport()
    ) throws -> APIClient {
        try makeClient(stages: [CacheStage(cache: cache), AuthorizationStage(provider: provider)], transport: transport)
    }

    @Test("user B signing in after user A is never answered with A's cached profile (memory)")
    func userBAfterUserAFromMemory() async throws {
        let provider = SwitchableProvider(user: "ada", announces: true)
        let client = try client(provider: provider, cache: try ResponseCache())
        #expect(try await client.send(GetMe()).value.name == "ada")
        provider.signIn("bob")
        let second = try await client.send(GetMe())
        #expect(second.value.name == "bob")
        #expect(second.source == .network)
        #expect(try await client.send(GetMe()).source == .memoryCache)
    }

    @Test("user B is never answered with A's cached profile from disk after a restart")
    func userBAfterUserAFromDisk() async throws {
        let directory = try TemporaryDirectory()
        let ada = SwitchableProvider(user: "ada")
        _ = try await client(provider: ada, cache: try ResponseCache(directory: directory.url)).send(GetMe())
        // A new process: a new cache over the same directory, and another user signed in.
        let bob = SwitchableProvider(user: "bob")
        let transport = makeProfileTransport()
        let restarted = try client(provider: bob, cache: try ResponseCache(directory: directory.url), transport: transport)
        let result = try await restarted.send(GetMe())
        #expect(result.value.name == "bob")
        #expect(result.source == .network)
        // Without a sealing there is no keyed digest to name Ada's partition with: her entry was kept in
        // memory only (SwitchyardCryptoTests' SealedPartitionTests show a sealed store keeping it).
        let adaAgain = try client(provider: SwitchableProvider(user: "ada"), cache: try ResponseCache(directory: directory.url))
        #expect(try await adaAgain.send(GetMe()).source == .network)
    }

    @Test("an unsealed disk tier keeps public entries and never writes a private one or its partition")
    func unsealedDiskKeepsNoPrivateEntry() async throws {
        let directory = try TemporaryDirectory()
        let transport = MockTransport(.json(#"{"id":1,"name":"someone"}"#))
        let client = try makeClient(stages: [CacheStage(cache: try ResponseCache(directory: directory.url))], transport: transport)
        var ada = CallOptions()
        ada.account = "ada"
        #expect(try await client.send(GetMe(), options: ada).source == .network)
        #expect(try await client.send(GetMe(), options: ada).source == .memoryCache)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasSuffix(".entry") }
        #expect(files.isEmpty)
        _ = try await client.send(.users, .get, "/articles", options: GetMe().options)
        let stored = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasSuffix(".entry") }
        #expect(stored.count == 1)
        let text = try String(decoding: Data(contentsOf: directory.url.appendingPathComponent(stored[0])), as: UTF8.self)
        #expect(text.contains(#""rawValue":"public""#))
    }

    @Test("the fields most requests carry never partition; a session field, whatever else is sent, does")
    func plainAndCredentialFields() async throws {
        let context = CallContext(serviceID: "users")
        func partition(_ fields: HTTPFields) async throws -> CredentialPartition {
            try await CredentialPartition.of(try .fixture(.get, "https://api.test/me", headerFields: fields), context: context)
        }
        let plain: HTTPFields = [
            .userAgent: "App/1", .accept: "application/json", .contentType: "application/json", .acceptEncoding: "gzip",
            .acceptLanguage: "en", .ifNoneMatch: "\"v1\"",
        ]
        #expect(try await partition(plain) == .public)
        #expect(try await partition([.userAgent: "Other/2", .acceptLanguage: "de"]) == .public)
        var session = plain
        session[HTTPField.Name("X-Session-Id")!] = "s-1"
        let first = try await partition(session)
        session[HTTPField.Name("X-Session-Id")!] = "s-2"
        let second = try await partition(session)
        #expect(first != .public && first != second)
    }

    @Test("a credential query parameter partitions the cache")
    func queryTokenPartitions() async throws {
        let client = try makeClient(stages: [CacheStage(cache: try ResponseCache())], transport: makeProfileTransport())
        var options = CallOptions()
        options.cache(.cacheElseNetwork(maxAge: .seconds(3600)))
        let ada = try await client.send(.users, .get, "/me", parameters: ["access_token": "ada"], options: options, as: User.self)
        let bob = try await client.send(.users, .get, "/me", parameters: ["access_token": "bob"], options: options, as: User.self)
        #expect(ada.value.name == "ada" && bob.value.name == "bob")
        #expect(bob.source == .network)
    }

    @Test("calls for different accounts never share an entry; the same account does across tokens")
    func accountsPartition() async throws {
        let transport = MockTransport(.json(#"{"id":1,"name":"someone"}"#))
        let client = try makeClient(stages: [CacheStage(cache: try ResponseCache())], transport: transport)
        func call(_ account: String) async throws -> ResponseSource {
            var options = CallOptions()
            options.account = account
            return try await client.send(GetMe(), options: options).source
        }
        #expect(try await call("a") == .network)
        #expect(try await call("b") == .network)
        #expect(try await call("a") == .memoryCache)
        #expect(transport.requests.count == 2)
    }

    @Test("a response marked Cache-Control: no-store is never stored")
    func noStoreIsNotStored() async throws {
        let transport = MockTransport(.json(#"{"id":1,"name":"x"}"#, headerFields: [.cacheControl: "private, No-Store"]))
        let client = try makeClient(stages: [CacheStage(cache: try ResponseCache())], transport: transport)
        _ = try await client.send(GetMe())
        #expect(try await client.send(GetMe()).source == .network)
        #expect(transport.requests.count == 2)
    }
}
