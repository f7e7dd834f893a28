import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Cache versions: a new model version leaves what was stored before unserved")
struct CacheVersionTests {
    private static let policy = CachePolicy.cacheElseNetwork(maxAge: .seconds(600))

    /// A public call under the test's policy, with an endpoint version when one is given.
    private static func options(_ policy: CachePolicy = policy, version: String? = nil) -> CallOptions {
        var options = CallOptions()
        options.cache(policy, version: version)
        return options
    }

    /// The app as one release runs it: a cache over `directory`, made for this launch, and the service's version.
    private static func launch(_ directory: URL, version: String?, transport: MockTransport) throws -> APIClient {
        try makeClient(stages: [CacheStage(cache: try ResponseCache(directory: directory), version: version)], transport: transport)
    }

    @Test("the service's version: the same release reads its entries from disk; a new version asks the network and keeps its own")
    func serviceVersionAcrossLaunches() async throws {
        let directory = try TemporaryDirectory()
        let (transport, count) = CacheStageTests.countingTransport()
        _ = try await Self.launch(directory.url, version: "1", transport: transport).send(.users, .get, "/feed", options: Self.options())

        let sameRelease = try await Self.launch(directory.url, version: "1", transport: transport)
            .send(.users, .get, "/feed", options: Self.options())
        #expect(sameRelease.source == .diskCache)

        let nextRelease = try Self.launch(directory.url, version: "2", transport: transport)
        let fresh = try await nextRelease.send(.users, .get, "/feed", options: Self.options())
        #expect(fresh.source == .network && fresh.value.bodyText == #"{"n":2,"path":"/feed"}"#)
        #expect(try await nextRelease.send(.users, .get, "/feed", options: Self.options()).source == .memoryCache)
        let relaunched = try await Self.launch(directory.url, version: "2", transport: transport)
            .send(.users, .get, "/feed", options: Self.options())
        #expect(relaunched.source == .diskCache && relaunched.value.bodyText == #"{"n":2,"path":"/feed"}"#)
        #expect(count.withLock { $0 } == 2)
    }

    @Test("an app that starts versioning leaves its unversioned entries unserved; one that sets none keeps them")
    func fromNoVersion() async throws {
        let directory = try TemporaryDirectory()
        let (transport, count) = CacheStageTests.countingTransport()
        _ = try await Self.launch(directory.url, version: nil, transport: transport).send(.users, .get, "/feed", options: Self.options())
        let unversioned = try await Self.launch(directory.url, version: "", transport: transport)
            .send(.users, .get, "/feed", options: Self.options())
        #expect(unversioned.source == .diskCache)
        let versioned = try await Self.launch(directory.url, version: "1", transport: transport)
            .send(.users, .get, "/feed", options: Self.options())
        #expect(versioned.source == .network)
        #expect(count.withLock { $0 } == 2)
    }

    @Test("an endpoint's version separates its entries only; other endpoints of the service keep theirs")
    func endpointVersion() async throws {
        let (transport, count) = CacheStageTests.countingTransport()
        let client = try makeClient(stages: [CacheStage(cache: try ResponseCache())], transport: transport)
        _ = try await client.send(.users, .get, "/profile", options: Self.options(version: "a"))
        _ = try await client.send(.users, .get, "/settings", options: Self.options())
        #expect(try await client.send(.users, .get, "/profile", options: Self.options(version: "a")).source == .memoryCache)
        #expect(try await client.send(.users, .get, "/profile", options: Self.options(version: "b")).source == .network)
        #expect(try await client.send(.users, .get, "/profile", options: Self.options()).source == .network)
        #expect(try await client.send(.users, .get, "/settings", options: Self.options()).source == .memoryCache)
        #expect(count.withLock { $0 } == 4)
    }

    @Test("the service's and the endpoint's versions are one key together; neither stands in for the other")
    func serviceAndEndpointVersions() async throws {
        let (transport, count) = CacheStageTests.countingTransport()
        let cache = try ResponseCache()
        func client(_ version: String?) throws -> APIClient {
            try makeClient(stages: [CacheStage(cache: cache, version: version)], transport: transport)
        }
        _ = try await client("2").send(.users, .get, "/feed", options: Self.options(version: "5"))
        #expect(try await client("2").send(.users, .get, "/feed", options: Self.options(version: "5")).source == .memoryCache)
        #expect(try await client("2").send(.users, .get, "/feed", options: Self.options()).source == .network)
        #expect(try await client(nil).send(.users, .get, "/feed", options: Self.options(version: "2")).source == .network)
        #expect(try await client("3").send(.users, .get, "/feed", options: Self.options(version: "5")).source == .network)
        #expect(count.withLock { $0 } == 4)
    }

    @Test("offline, an entry of another version is a cache miss, not a stale model")
    func cacheOnlyMisses() async throws {
        let (transport, _) = CacheStageTests.countingTransport()
        let client = try makeClient(stages: [CacheStage(cache: try ResponseCache())], transport: transport)
        _ = try await client.send(.users, .get, "/feed", options: Self.options(version: "1"))
        #expect(try await client.send(.users, .get, "/feed", options: Self.options(.cacheOnly, version: "1")).source == .memoryCache)
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(.users, .get, "/feed", options: Self.options(.cacheOnly, version: "2"))
        }
        #expect(error?.code == .cacheMiss)
    }

    @Test("a version on a service without a cache stage fails the call instead of being ignored")
    func versionNeedsTheStage() async throws {
        let client = try makeClient(transport: MockTransport(.json("{}")))
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(.users, .get, "/feed", options: Self.options(.networkOnly, version: "1"))
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.contains("cache(_:version:)") == true)
    }

    @Test("a key without a version is the key it always was; a version is one more line of it")
    func keyText() async throws {
        let url = try #require(URL(string: "https://api.example.com/feed?a=1"))
        let request = try #require(Request(method: .get, url: url))
        let context = CallContext(serviceID: .users, endpointName: "Feed", environment: .develop)
        let plain = try await CacheStage(cache: try ResponseCache()).key(for: request, context: context)
        #expect(plain.identity == "develop\nGET\napi.example.com\n/feed\na=1")
        let versioned = try await CacheStage(cache: try ResponseCache(), version: "2").key(for: request, context: context)
        #expect(versioned.identity == "develop\nGET\napi.example.com\n/feed\na=1\nversion:1:2 -")
    }
}
