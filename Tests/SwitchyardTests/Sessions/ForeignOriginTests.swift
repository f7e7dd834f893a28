import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Sessions: an absolute URL on another origin never carries the service's secrets")
struct ForeignOriginTests {
    private let apiKey = HTTPField.Name("X-Api-Key")!

    private func client(_ transport: MockTransport) throws -> APIClient {
        try makeClient(
            baseURL: "https://api.example.com/v1",
            stages: [
                HeadersStage([.fixed(apiKey, "k3y")]),
                CommonParametersStage([.fixed("appsecret", "s3cr3t")]),
                AuthorizationStage(provider: SwitchableProvider(user: "ada")),
            ],
            transport: transport
        )
    }

    @Test("a foreign absolute URL is refused with invalidRequest by default, and nothing is sent")
    func refusedByDefault() async throws {
        let transport = MockTransport(.status(.ok))
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client(transport).send(.users, .get, "https://cdn.example.net/files/1")
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.contains("cdn.example.net") == true)
        #expect(transport.requests.isEmpty)
    }

    @Test("an allowed foreign URL goes without the token, secret header fields and common parameters")
    func allowedWithoutSecrets() async throws {
        let transport = MockTransport(.status(.ok))
        var options = CallOptions()
        options.allowsForeignOrigin = true
        _ = try await client(transport).send(.users, .get, "https://cdn.example.net/files/1?page=2", options: options)
        let sent = try #require(transport.requests.first)
        #expect(sent.head.authority == "cdn.example.net")
        #expect(sent.headerFields[.authorization] == nil)
        #expect(sent.headerFields[apiKey] == nil)
        #expect(sent.query == "page=2")
    }

    @Test("an absolute URL on the service's own origin runs every stage")
    func sameOriginRunsEverything() async throws {
        let transport = MockTransport(.status(.ok))
        _ = try await client(transport).send(.users, .get, "https://api.example.com/v1/me")
        let sent = try #require(transport.requests.first)
        #expect(sent.headerFields[.authorization] == "Bearer token-ada")
        #expect(sent.headerFields[apiKey] == "k3y")
    }

    @Test("a foreign URL over plain http from an https service is refused even when foreign origins are allowed")
    func neverDowngrades() async throws {
        let transport = MockTransport(.status(.ok))
        var options = CallOptions()
        options.allowsForeignOrigin = true
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client(transport).send(.users, .get, "http://cdn.example.net/files/1", options: options)
        }
        #expect(error?.code == .invalidRequest)
        #expect(transport.requests.isEmpty)
    }
}
