import Foundation
import InMemoryLogging
import Logging
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Per-service (per-module) environments")
struct ServiceEnvironmentTests {
    /// A service with a host per environment, so where a call went says which environment it used.
    static func service(_ id: ServiceID, transport: MockTransport) -> Service {
        Service(
            id,
            baseURLs: [
                .develop: "https://\(id).dev.example.com",
                .test: "https://\(id).test.example.com",
                .release: "https://\(id).example.com",
            ],
            transport: transport
        )
    }

    static func registry(store: (any EnvironmentStore)?, release: Bool = false, transport: MockTransport) throws -> ServiceRegistry {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: release, defaultEnvironment: .develop, store: store))
        try registry.register(service(.users, transport: transport))
        try registry.register(service(.catalog, transport: transport))
        return registry
    }

    @Test("switching one service moves its calls alone; the other service stays in the registry's environment")
    func oneServiceMoves() async throws {
        let transport = MockTransport(.status(.ok))
        let registry = try Self.registry(store: nil, transport: transport)
        let client = APIClient(registry: registry)
        try registry.switchEnvironment(to: .test, for: .users)

        let users = try await client.send(.users, .get, "/me")
        #expect(users.environment == .test)
        #expect(transport.requests.last?.head.authority == "users.test.example.com")
        let catalog = try await client.send(.catalog, .get, "/items")
        #expect(catalog.environment == .develop)
        #expect(transport.requests.last?.head.authority == "catalog.dev.example.com")
        #expect(registry.environment == .develop)
        #expect(registry.environment(for: .users) == .test)
        #expect(registry.environment(for: .catalog) == .develop)
        #expect(try registry.baseURL(for: .users) == "https://users.test.example.com")
    }

    @Test("a service switched on its own keeps its environment when the registry's changes, until switched back")
    func ownEnvironmentSurvivesRegistrySwitch() async throws {
        let transport = MockTransport(.status(.ok))
        let registry = try Self.registry(store: nil, transport: transport)
        try registry.switchEnvironment(to: .test, for: .users)
        try registry.switchEnvironment(to: .release)
        #expect(registry.environment(for: .users) == .test)
        #expect(registry.environment(for: .catalog) == .release)

        try registry.switchEnvironment(to: nil, for: .users)
        #expect(registry.environment(for: .users) == .release)
        _ = try await APIClient(registry: registry).send(.users, .get, "/me")
        #expect(transport.requests.last?.head.authority == "users.example.com")
    }

    @Test("a service's environment is persisted and restored by a new registry on the same store")
    func persistedAndRestored() async throws {
        let directory = try TemporaryDirectory()
        let store = FileEnvironmentStore(fileURL: directory.url.appendingPathComponent("environment.json"))
        let transport = MockTransport(.status(.ok))
        let first = try Self.registry(store: store, transport: transport)
        try first.switchEnvironment(to: .test, for: .users)
        #expect(try store.load()?.serviceEnvironments == ["users": .test])

        let second = try Self.registry(store: store, transport: transport)
        #expect(second.environment == .develop)
        #expect(second.environment(for: .users) == .test)
        let result = try await APIClient(registry: second).send(.users, .get, "/me")
        #expect(result.environment == .test)
        #expect(transport.requests.last?.head.authority == "users.test.example.com")
    }

    @Test("a file written before services had environments of their own still restores the registry's")
    func olderFileReads() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("environment.json")
        try Data(#"{"customBaseURLs":{},"environment":"test"}"#.utf8).write(to: file)
        let registry = try Self.registry(store: FileEnvironmentStore(fileURL: file), transport: MockTransport(.status(.ok)))
        #expect(registry.environment == .test)
        #expect(registry.environment(for: .users) == .test)
    }

    @Test("a release build refuses to switch one service and ignores a stored service environment")
    func lockedInRelease() throws {
        let store = InMemoryEnvironmentStore(EnvironmentSelection(environment: .release, serviceEnvironments: ["users": .develop]))
        let registry = try Self.registry(store: store, release: true, transport: MockTransport(.status(.ok)))
        #expect(registry.environment(for: .users) == .release)
        let error = #expect(throws: SwitchyardError.self) { try registry.switchEnvironment(to: .test, for: .users) }
        #expect(error?.code == .environmentLocked)
        #expect(registry.environment(for: .users) == .release)
        #expect(store.load()?.serviceEnvironments == ["users": .develop])
    }

    @Test("a service in the custom environment goes to the base URL entered for it, validated first")
    func customForOneService() async throws {
        let transport = MockTransport(.status(.ok))
        let registry = try Self.registry(store: nil, transport: transport)
        let bad = #expect(throws: SwitchyardError.self) {
            try registry.switchEnvironment(to: .custom, for: .users, customBaseURL: "not a url")
        }
        #expect(bad?.code == .invalidBaseURL)
        #expect(registry.environment(for: .users) == .develop)
        try registry.switchEnvironment(to: .custom, for: .users, customBaseURL: "http://127.0.0.1:9000/mock")
        _ = try await APIClient(registry: registry).send(.users, .get, "/me")
        #expect(transport.requests.last?.url?.absoluteString == "http://127.0.0.1:9000/mock/me")
    }

    @Test("an answer cached in one environment is never served to the same call in another")
    func cacheSeparatesEnvironments() async throws {
        let (transport, count) = CacheStageTests.countingTransport()
        let registry = makeRegistry()
        // One base URL for every environment: only the environment tells the two calls apart.
        try registry.register(
            Service(.users, baseURL: "https://api.example.com", stages: [CacheStage(cache: try ResponseCache())], transport: transport)
        )
        let client = APIClient(registry: registry)
        let options = CacheStageTests.options(.cacheElseNetwork(maxAge: .seconds(600)))

        #expect(try await client.send(.users, .get, "/a", options: options).source == .network)
        try registry.switchEnvironment(to: .test, for: .users)
        let other = try await client.send(.users, .get, "/a", options: options)
        #expect(other.source == .network)
        #expect(other.environment == .test)
        #expect(count.withLock { $0 } == 2)
        try registry.switchEnvironment(to: nil, for: .users)
        let back = try await client.send(.users, .get, "/a", options: options)
        #expect(back.source == .memoryCache)
        #expect(back.value.bodyText.contains(#""n":1"#))
    }

    @Test("one client cancels by tag across services in different environments")
    func cancelAcrossModules() async throws {
        let gate = Gate()
        let transport = MockTransport { _, _ in
            try await gate.pass()
            return Response(status: .ok)
        }
        let registry = try Self.registry(store: nil, transport: transport)
        try registry.switchEnvironment(to: .test, for: .users)
        let client = APIClient(registry: registry)
        let tag = RequestTag("screen")
        func send(_ service: ServiceID) async -> SwitchyardError.Code? {
            do {
                _ = try await client.send(service, .get, "/x", options: CallOptions(tags: [tag]))
                return nil
            } catch {
                return error.code
            }
        }
        async let users = send(.users)
        async let catalog = send(.catalog)
        await gate.arrivals(2)
        #expect(client.cancel(.tag(tag)).count == 2)
        let codes = await [users, catalog]
        gate.open()
        #expect(codes == [.cancelled, .cancelled])
    }

    @Test("the logging stage reports the service's own environment")
    func loggingSeesServiceEnvironment() async throws {
        var handler = InMemoryLogHandler()
        handler.logLevel = .info
        let logger = Logger(label: "test", factory: { [handler] _ in handler })
        let registry = makeRegistry()
        try registry.register(
            Service(
                .users,
                baseURL: "https://api.example.com",
                stages: [LoggingStage(logger: logger)],
                transport: MockTransport(.status(.ok))
            )
        )
        try registry.switchEnvironment(to: .test, for: .users)
        _ = try await APIClient(registry: registry).send(.users, .get, "/me")
        #expect(!handler.entries.isEmpty)
        #expect(handler.entries.allSatisfy { $0.metadata["environment"] == "test" })
    }
}
