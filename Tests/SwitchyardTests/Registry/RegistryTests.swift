import Foundation
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Service registry and environments")
struct RegistryTests {
    @Test("service identifiers are validated like HTTP field names and compare without case")
    func serviceIDValidation() throws {
        // Names arriving at run time (a String, not a literal) go through the failable initializer.
        let valid = ["users", "Users.v2_beta-1"]
        let invalid = ["", "1users", "user service", "用户"]
        #expect(valid.allSatisfy { ServiceID($0) != nil })
        #expect(invalid.allSatisfy { ServiceID($0) == nil })
        #expect(ServiceID("Users") == ServiceID("users"))
        #expect(ServiceID(String(repeating: "a", count: 65)) == nil)
        let error = #expect(throws: SwitchyardError.self) { try ServiceID(validating: "bad id") }
        #expect(error?.code == .invalidServiceID)
        #expect(error?.message.contains("bad id") == true)
    }

    @Test("calling an unknown service fails with unknownService naming the registered ones")
    func unknownService() async throws {
        let client = try makeClient(transport: MockTransport(.status(.ok)))
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.catalog, .get, "/x") }
        #expect(error?.code == .unknownService)
        #expect(error?.serviceID == .catalog)
        #expect(error?.requestID != nil)
        #expect(error?.message.contains("users") == true)
        #expect(throws: SwitchyardError.self) { try client.registry.pipeline(for: .catalog) }
    }

    @Test(
        "malformed base URLs are rejected at registration with a clear error",
        arguments: [
            "", "api.example.com", "ftp://example.com", "https://", "https://user:pw@example.com", "https://exa mple.com",
            "https://example.com/#frag",
        ]
    )
    func malformedBaseURL(url: String) throws {
        let registry = makeRegistry()
        let error = #expect(throws: SwitchyardError.self) {
            try registry.register(Service(.users, baseURLs: [.develop: url], transport: MockTransport(.status(.ok))))
        }
        #expect(error?.code == .invalidBaseURL)
        #expect(error?.serviceID == .users)
        #expect(registry.serviceIDs.isEmpty)
    }

    @Test("a service without a base URL for the current environment fails with missingBaseURL")
    func missingBaseURL() async throws {
        let registry = makeRegistry(environment: .test)
        try registry.register(Service(.users, baseURLs: [.release: "https://api.example.com"], transport: MockTransport(.status(.ok))))
        let error = await #expect(throws: SwitchyardError.self) { _ = try await APIClient(registry: registry).send(.users, .get, "/") }
        #expect(error?.code == .missingBaseURL)
        #expect(error?.message.contains("test") == true)
    }

    @Test("switching the environment changes where calls go, and is persisted across registry instances")
    func environmentSwitchPersisted() async throws {
        let directory = try TemporaryDirectory()
        let store = FileEnvironmentStore(fileURL: directory.url.appendingPathComponent("nested/environment.json"))
        let transport = MockTransport(.status(.ok))
        let service = Service(
            .users,
            baseURLs: [.develop: "https://dev.example.com", .test: "https://test.example.com", .release: "https://api.example.com"],
            transport: transport
        )

        let first = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: store))
        try first.register(service)
        #expect(first.environment == .develop)
        try first.switchEnvironment(to: .test)
        _ = try await APIClient(registry: first).send(.users, .get, "/a")
        #expect(transport.requests.last?.head.authority == "test.example.com")

        let second = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: store))
        try second.register(service)
        #expect(second.environment == .test)
        let result = try await APIClient(registry: second).send(.users, .get, "/b")
        #expect(result.environment == .test)
        #expect(transport.requests.last?.head.authority == "test.example.com")
    }

    @Test("a release build is locked to release: the stored choice is ignored and switching throws")
    func releaseLock() throws {
        let store = InMemoryEnvironmentStore(EnvironmentSelection(environment: .develop))
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: true, defaultEnvironment: .develop, store: store))
        #expect(registry.environment == .release)
        let error = #expect(throws: SwitchyardError.self) { try registry.switchEnvironment(to: .test) }
        #expect(error?.code == .environmentLocked)
        #expect(registry.environment == .release)
        #expect(store.load()?.environment == .develop)
    }

    @Test("a corrupt environment file is ignored and the default is used; the next switch repairs it")
    func corruptFileIgnored() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("environment.json")
        try Data("{not json".utf8).write(to: file)
        let store = FileEnvironmentStore(fileURL: file)
        #expect(throws: SwitchyardError.self) { try store.load() }
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .prerelease, store: store))
        #expect(registry.environment == .prerelease)
        try registry.switchEnvironment(to: .hotfix)
        #expect(try store.load()?.environment == .hotfix)
    }

    @Test("the custom environment uses a base URL entered at run time, validated and persisted")
    func customEnvironment() async throws {
        let store = InMemoryEnvironmentStore()
        let transport = MockTransport(.status(.ok))
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: store))
        try registry.register(Service(.users, baseURLs: [.develop: "https://dev.example.com"], transport: transport))

        let bad = #expect(throws: SwitchyardError.self) {
            try registry.switchEnvironment(to: .custom, customBaseURLs: [.users: "not a url"])
        }
        #expect(bad?.code == .invalidBaseURL)
        #expect(registry.environment == .develop)

        try registry.switchEnvironment(to: .custom, customBaseURLs: [.users: "http://192.0.2.10:8080/api/"])
        #expect(try registry.baseURL(for: .users) == "http://192.0.2.10:8080/api")
        _ = try await APIClient(registry: registry).send(.users, .get, "/users")
        #expect(transport.requests.last?.head.authority == "192.0.2.10:8080")
        #expect(transport.requests.last?.path == "/api/users")

        let restored = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: store))
        try restored.register(Service(.users, baseURLs: [.develop: "https://dev.example.com"], transport: transport))
        #expect(restored.environment == .custom)
        #expect(try restored.baseURL(for: .users) == "http://192.0.2.10:8080/api")
    }

    @Test("a store that cannot save makes the switch fail with storage and leaves the environment unchanged")
    func failingStore() throws {
        struct ReadOnly: EnvironmentStore {
            func load() throws -> EnvironmentSelection? { nil }
            func save(_ selection: EnvironmentSelection) throws { throw CocoaError(.fileWriteNoPermission) }
        }
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: ReadOnly()))
        let error = #expect(throws: SwitchyardError.self) { try registry.switchEnvironment(to: .test) }
        #expect(error?.code == .storage)
        #expect(registry.environment == .develop)
    }

    @Test("environment names are open, validated like service identifiers and compare without case")
    func environmentNames() throws {
        let uat = ServerEnvironment("uat")
        #expect(uat.rawValue == "uat")
        #expect(uat.description == "uat")
        #expect(ServerEnvironment("UAT") == uat)
        #expect(ServerEnvironment("UAT").rawValue == "uat")
        #expect(ServerEnvironment("release") == .release)
        #expect(ServerEnvironment(String("staging.eu-1_b")) != nil)
        #expect(["", "1uat", "user acceptance", "测试"].allSatisfy { ServerEnvironment($0) == nil })
        #expect(ServerEnvironment(String(repeating: "a", count: 65)) == nil)
        #expect(Set([ServerEnvironment.develop, .test, .prerelease, .release, .hotfix, .custom, uat]).count == 7)
    }

    @Test("a selection decodes the names older versions stored, and rejects an invalid name with a DecodingError")
    func environmentSelectionCoding() throws {
        let old = try JSONDecoder().decode(EnvironmentSelection.self, from: Data(#"{"customBaseURLs":{},"environment":"hotfix"}"#.utf8))
        #expect(old.environment == .hotfix)
        let uat = ServerEnvironment("uat")
        let data = try JSONEncoder().encode(EnvironmentSelection(environment: uat))
        #expect(String(decoding: data, as: UTF8.self).contains(#""environment":"uat""#))
        #expect(try JSONDecoder().decode(EnvironmentSelection.self, from: data).environment == uat)
        for invalid in ["\"\"", "\"not an environment\"", "7", "null"] {
            let json = Data(#"{"customBaseURLs":{},"environment":\#(invalid)}"#.utf8)
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(EnvironmentSelection.self, from: json) }
        }
    }

    @Test("an environment of your own is selected with its base URL, persisted and restored")
    func ownEnvironment() async throws {
        let uat = ServerEnvironment("uat")
        let directory = try TemporaryDirectory()
        let store = FileEnvironmentStore(fileURL: directory.url.appendingPathComponent("environment.json"))
        let transport = MockTransport(.status(.ok))
        let users = Service(
            .users,
            baseURLs: [.develop: "https://dev.example.com", uat: "https://uat.example.com/users", .release: "https://api.example.com"],
            transport: transport
        )
        let catalog = Service(.catalog, baseURLs: [.develop: "https://dev.example.com"], transport: transport)

        let first = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: store))
        try first.register(users)
        try first.register(catalog)
        try first.switchEnvironment(to: uat)
        #expect(first.environment == uat)
        #expect(try first.baseURL(for: .users) == "https://uat.example.com/users")
        let result = try await APIClient(registry: first).send(.users, .get, "/a")
        #expect(result.environment == uat)
        #expect(transport.requests.last?.head.authority == "uat.example.com")
        #expect(transport.requests.last?.path == "/users/a")
        let missing = await #expect(throws: SwitchyardError.self) { _ = try await APIClient(registry: first).send(.catalog, .get, "/") }
        #expect(missing?.code == .missingBaseURL)
        #expect(missing?.serviceID == .catalog)
        #expect(missing?.message.contains("uat") == true)

        let second = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: store))
        #expect(second.environment == uat)
        try second.register(users)
        #expect(try second.baseURL(for: .users) == "https://uat.example.com/users")
        // One base URL for every environment covers environments of your own too.
        try second.register(Service(.catalog, baseURL: "https://catalog.example.com", transport: transport))
        #expect(try second.baseURL(for: .catalog) == "https://catalog.example.com")
        try second.switchEnvironment(to: .develop)
        #expect(try second.baseURL(for: .users) == "https://dev.example.com")
    }

    @Test("a stored environment with an invalid name is ignored and the default is used")
    func invalidStoredEnvironment() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("environment.json")
        let json = #"{"customBaseURLs":{"users":"https://custom.example.com"},"environment":"user acceptance"}"#
        try Data(json.utf8).write(to: file)
        let store = FileEnvironmentStore(fileURL: file)
        let error = #expect(throws: SwitchyardError.self) { try store.load() }
        #expect(error?.code == .storage)
        #expect(error?.underlyingError is DecodingError)
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .test, store: store))
        #expect(registry.environment == .test)
    }

    @Test("a release build is locked to release for environments of your own too")
    func releaseLockOwnEnvironment() throws {
        let uat = ServerEnvironment("uat")
        let store = InMemoryEnvironmentStore(EnvironmentSelection(environment: uat))
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: true, defaultEnvironment: uat, store: store))
        try registry.register(
            Service(
                .users,
                baseURLs: [uat: "https://uat.example.com", .release: "https://api.example.com"],
                transport: MockTransport(.status(.ok))
            )
        )
        #expect(registry.environment == .release)
        #expect(try registry.baseURL(for: .users) == "https://api.example.com")
        let error = #expect(throws: SwitchyardError.self) { try registry.switchEnvironment(to: uat) }
        #expect(error?.code == .environmentLocked)
        #expect(registry.environment == .release)
        #expect(store.load()?.environment == uat)
    }

    @Test("registering again replaces the service; unregistering removes it")
    func replaceAndUnregister() async throws {
        let registry = makeRegistry()
        try registry.register(Service(.users, baseURL: "https://one.example.com", transport: MockTransport(.status(.ok))))
        try registry.register(Service(.users, baseURL: "https://two.example.com", transport: MockTransport(.status(.ok))))
        #expect(try registry.baseURL(for: .users) == "https://two.example.com")
        #expect(registry.unregister(.users))
        #expect(!registry.unregister(.users))
        #expect(registry.serviceIDs.isEmpty)
    }
}
