import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// An endpoint decoded from JSON, for the `Accept` default.
private struct GetProfile: Endpoint {
    typealias Output = [String: String]
    var service: ServiceID { .users }
    var method: HTTPRequest.Method { .get }
    var path: String { "/me" }
}

/// An endpoint whose output is the raw body.
private struct GetAvatar: Endpoint {
    typealias Output = Data
    var service: ServiceID { .users }
    var method: HTTPRequest.Method { .get }
    var path: String { "/me/avatar" }
}

@Suite("Defaults a server expects: User-Agent, Accept for JSON outputs, Basic authentication")
struct DefaultFieldsTests {
    private let json = MockTransport(.json(#"{"name":"ada"}"#))

    @Test("every call carries the client's User-Agent: app/version Switchyard/version (os version)")
    func userAgentShape() async throws {
        let registry = makeRegistry()
        try registry.register(Service(.users, baseURL: "https://api.test", transport: json))
        let client = APIClient(registry: registry, userAgent: UserAgent(app: "Shop App", version: "4.2.0"))
        _ = try await client.send(.users, .get, "/me")
        let agent = try #require(json.requests.first?.headerFields[.userAgent])
        #expect(agent.hasPrefix("Shop-App/4.2.0 Switchyard/\(UserAgent.libraryVersion) ("))
        #expect(agent.range(of: #"\([A-Za-z]+ \d+\.\d+\.\d+\)$"#, options: .regularExpression) != nil, "\(agent)")
    }

    @Test("the default User-Agent names the process when there is no bundle, and the library")
    func defaultUserAgent() {
        #expect(UserAgent.default.value.contains(" Switchyard/\(UserAgent.libraryVersion) ("))
        #expect(!UserAgent.default.value.hasPrefix(" "))
    }

    @Test("a service's own User-Agent wins over the client's; a call's wins over both; nil sends none")
    func userAgentOverrides() async throws {
        let registry = makeRegistry()
        var defaults = ServiceDefaults()
        defaults.headerFields[.userAgent] = "ServiceAgent/1"
        try registry.register(Service(.users, baseURL: "https://api.test", defaults: defaults, transport: json))
        let client = APIClient(registry: registry)
        _ = try await client.send(.users, .get, "/me")
        _ = try await client.send(.users, .get, "/me", headerFields: [.userAgent: "CallAgent/2"])
        #expect(json.requests.map { $0.headerFields[.userAgent] } == ["ServiceAgent/1", "CallAgent/2"])

        let silent = MockTransport(.status(.ok))
        let bare = try makeClient(transport: silent)
        _ = try await APIClient(registry: bare.registry, userAgent: nil).send(.users, .get, "/me")
        #expect(silent.requests.first?.headerFields[.userAgent] == nil)
    }

    @Test("a JSON output asks for application/json unless the call or service sets Accept; raw outputs do not ask")
    func acceptForJSON() async throws {
        let client = try makeClient(transport: json)
        _ = try await client.send(GetProfile())
        _ = try await client.send(.users, .get, "/me", as: [String: String].self)
        _ = try await client.send(.users, .get, "/me", headerFields: [.accept: "application/vnd.shop+json"], as: [String: String].self)
        _ = try await client.send(GetAvatar())
        _ = try await client.send(.users, .get, "/me")
        _ = try await client.send(.users, .get, "/me", as: Data.self)
        let accepts = json.requests.map { $0.headerFields[.accept] }
        #expect(accepts == ["application/json", "application/json", "application/vnd.shop+json", nil, nil, nil])
    }

    @Test("Basic authentication sends base64(user:password) in UTF-8")
    func basicField() async throws {
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(
            stages: [AuthorizationStage.basic(BasicCredentials(user: "ada", password: "pässwörd"))],
            transport: transport
        )
        _ = try await client.send(.users, .get, "/me")
        let expected = "Basic " + Data("ada:pässwörd".utf8).base64EncodedString()
        #expect(transport.requests.first?.headerFields[.authorization] == expected)
    }

    @Test("a 401 to Basic credentials comes back at once as httpStatus with the response, without a refresh or a replay")
    func basicRefused() async throws {
        let transport = MockTransport(.status(.unauthorized, headerFields: [.wwwAuthenticate: #"Basic realm="x""#]))
        let client = try makeClient(
            stages: [AuthorizationStage.basic(BasicCredentials(user: "ada", password: "wrong"))],
            transport: transport
        )
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.users, .get, "/me") }
        #expect(error?.code == .httpStatus)
        #expect(error?.status == .unauthorized)
        #expect(transport.requests.count == 1)
    }
}
