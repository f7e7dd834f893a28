import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// A credential stage that puts the call's user (from a context value) in a header field.
private struct UserKey: RequestStage, CredentialSource {
    enum User: CallContextKey { typealias Value = String }
    func prepare(_ request: inout Request, context: CallContext) async throws {
        if let user = context[User.self] { request.headerFields[HTTPField.Name("X-User-Key")!] = "key-\(user)" }
    }
    func credentialFingerprint(for context: CallContext) async throws -> String? { context[User.self] }
    var credentialNames: Set<String> { ["X-User-Key"] }
}

@Suite("Sessions: identical calls made with different credentials never share an exchange", .timeLimit(.minutes(1)))
struct CoalescingPartitionTests {
    private static func coalescing(_ configure: (inout CallOptions) -> Void = { _ in }) -> CallOptions {
        var options = CallOptions()
        options.sameRequest = .coalesce
        configure(&options)
        return options
    }

    @Test("two calls that differ only in a query token each reach the network")
    func queryTokens() async throws {
        let gate = Locked(false)
        let transport = gatedTransport(gate)
        let client = try makeClient(transport: transport)
        async let ada = client.send(.users, .get, "/me", parameters: ["token": "ada"], options: Self.coalescing())
        async let bob = client.send(.users, .get, "/me", parameters: ["token": "bob"], options: Self.coalescing())
        while transport.requests.count < 2 { try await Task.sleep(for: .milliseconds(2)) }
        gate.withLock { $0 = true }
        let results = try await [ada, bob]
        #expect(results.allSatisfy { $0.source == .network })
        #expect(Set(transport.requests.compactMap(\.query)) == ["token=ada", "token=bob"])
    }

    @Test("two calls whose credentials a stage adds each reach the network with their own")
    func stageAddedCredentials() async throws {
        let gate = Locked(false)
        let transport = gatedTransport(gate)
        let client = try makeClient(stages: [UserKey()], transport: transport)
        let ada = Self.coalescing { $0.setContextValue("ada", for: UserKey.User.self) }
        let bob = Self.coalescing { $0.setContextValue("bob", for: UserKey.User.self) }
        async let first = client.send(.users, .get, "/me", options: ada)
        async let second = client.send(.users, .get, "/me", options: bob)
        while transport.requests.count < 2 { try await Task.sleep(for: .milliseconds(2)) }
        gate.withLock { $0 = true }
        _ = try await (first, second)
        #expect(Set(transport.requests.compactMap { $0.headerFields[HTTPField.Name("X-User-Key")!] }) == ["key-ada", "key-bob"])
    }

    @Test("calls with the same credentials still share one exchange")
    func sameCredentialsShare() async throws {
        let gate = Locked(false)
        let transport = gatedTransport(gate)
        let client = try makeClient(stages: [UserKey()], transport: transport)
        let ada = Self.coalescing { $0.setContextValue("ada", for: UserKey.User.self) }
        async let first = client.send(.users, .get, "/me", options: ada)
        async let second = client.send(.users, .get, "/me", options: ada)
        while transport.requests.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
        try await Task.sleep(for: .milliseconds(50))
        gate.withLock { $0 = true }
        let sources = try await [first.source, second.source]
        #expect(transport.requests.count == 1)
        #expect(Set(sources) == [.network, .shared])
    }
}
