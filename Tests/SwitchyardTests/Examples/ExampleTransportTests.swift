import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// `ExampleTransport`: answers from documented examples by method and path template, through the
/// service's whole pipeline; status chosen per call or per transport; unmatched requests fail typed;
/// demo mode is the demo environment.
@Suite("Example transport")
struct ExampleTransportTests {
    /// `GET /users/{id}` with an enveloped 200 and 404, `GET /users/me` with a 200 only, and
    /// `POST /users` with no 2xx example.
    static let operations = [
        ExampleTransport.Operation(
            .get,
            "/users/{id}",
            examples: [
                json(#"{"code":0,"msg":"ok","data":{"id":7,"name":"Ada"}}"#, status: 200),
                json(#"{"code":4004,"msg":"no such user","data":null}"#, status: 404),
            ]
        ),
        ExampleTransport.Operation(.get, "/users/me", examples: [json(#"{"code":0,"msg":"ok","data":{"id":1,"name":"Me"}}"#, status: 200)]),
        ExampleTransport.Operation(.post, "/users", examples: [json(#"{"code":4022,"msg":"invalid","data":null}"#, status: 422)]),
    ]

    static func json(_ body: String, status: HTTPResponse.Status) -> Response {
        Response(status: status, headerFields: [.contentType: "application/json"], body: Data(body.utf8))
    }

    /// A client whose `users` service (an envelope check, then `stages`) ends in `transport`.
    static func client(_ transport: any Transport, stages: [any Stage] = [], registry: ServiceRegistry = makeRegistry()) throws -> APIClient
    {
        try registry.register(
            Service(
                .users,
                baseURL: "https://api.example.com/v2",
                stages: [EnvelopeStage(successCodes: [0])] + stages,
                transport: transport
            )
        )
        return APIClient(registry: registry)
    }

    @Test("a matching call is answered from its operation's first 2xx example, through the stages, marked as an example")
    func answersThroughStages() async throws {
        let recorder = EventRecorder()
        let client = try Self.client(ExampleTransport(Self.operations), stages: [RecordingStage("seen", recorder)])
        let result = try await client.send(GetUser(id: "7"))
        #expect(result.value == User(id: 7, name: "Ada"))  // the envelope stage unwrapped `data`
        #expect(result.source == .example)
        #expect(result.status == .ok)
        #expect(recorder.events == ["seen in", "seen out"])
    }

    @Test("the most specific template wins: /users/me over /users/{id}")
    func mostSpecificTemplate() async throws {
        let client = try Self.client(ExampleTransport(Self.operations))
        #expect(try await client.send(GetUser(id: "me")).value == User(id: 1, name: "Me"))
    }

    @Test("a call chooses the status of its example: the 404 one fails through the envelope check as the server's would")
    func statusPerCall() async throws {
        let client = try Self.client(ExampleTransport(Self.operations))
        var options = CallOptions()
        options.setContextValue(.notFound, for: ExampleTransport.Status.self)
        let error = await #expect(throws: SwitchyardError.self) { try await client.send(GetUser(id: "7"), options: options) }
        #expect(error?.code == .business)
        #expect(error?.detail(as: EnvelopeFailure.self)?.businessCode == "4004")
        #expect(error?.response?.source == .example)
    }

    @Test("the transport's status applies to calls that choose none; a call's own status wins over it")
    func statusPerTransport() async throws {
        let client = try Self.client(ExampleTransport(Self.operations, status: .notFound))
        let error = await #expect(throws: SwitchyardError.self) { try await client.send(GetUser(id: "7")) }
        #expect(error?.detail(as: EnvelopeFailure.self)?.businessCode == "4004")
        var options = CallOptions()
        options.setContextValue(.ok, for: ExampleTransport.Status.self)
        #expect(try await client.send(GetUser(id: "7"), options: options).value.name == "Ada")
    }

    @Test("a request no operation matches fails with noExample naming the request, never an empty 200")
    func unmatchedRequest() async throws {
        let client = try Self.client(ExampleTransport(Self.operations))
        let error = await #expect(throws: SwitchyardError.self) { try await client.send(.users, .delete, "/users/7") }
        #expect(error?.code == .noExample)
        #expect(error?.message.contains("DELETE /v2/users/7") == true)
        #expect(error?.message.contains("GET /users/{id}") == true)
        let deeper = await #expect(throws: SwitchyardError.self) { try await client.send(.users, .get, "/users/7/photo") }
        #expect(deeper?.code == .noExample)
    }

    @Test("a status no example documents fails with noExample listing the documented ones; so does an operation without a 2xx example")
    func undocumentedStatus() async throws {
        let client = try Self.client(ExampleTransport(Self.operations))
        var options = CallOptions()
        options.setContextValue(.internalServerError, for: ExampleTransport.Status.self)
        let error = await #expect(throws: SwitchyardError.self) { try await client.send(GetUser(id: "7"), options: options) }
        #expect(error?.code == .noExample)
        #expect(error?.message.contains("status 500") == true)
        #expect(error?.message.contains("200, 404") == true)
        let noSuccess = await #expect(throws: SwitchyardError.self) { try await client.send(.users, .post, "/users") }
        #expect(noSuccess?.code == .noExample)
        #expect(noSuccess?.message.contains("a 2xx status") == true)
    }

    @Test("demo mode: with a live transport, calls go to it until the registry switches to the demo environment, and back")
    func demoEnvironmentSwitch() async throws {
        let live = MockTransport(.json(#"{"code":0,"msg":"ok","data":{"id":7,"name":"Live Ada"}}"#))
        let registry = makeRegistry()
        let transport = ExampleTransport(Self.operations, live: live)
        try registry.register(
            Service(
                .users,
                baseURLs: [.develop: "https://dev.example.com", .demo: "https://demo.invalid"],
                stages: [EnvelopeStage(successCodes: [0])],
                transport: transport
            )
        )
        let client = APIClient(registry: registry)
        #expect(try await client.send(GetUser(id: "7")).value.name == "Live Ada")
        try registry.switchEnvironment(to: .demo)
        let demo = try await client.send(GetUser(id: "7"))
        #expect(demo.value.name == "Ada")
        #expect(demo.source == .example)
        try registry.switchEnvironment(to: .develop)
        #expect(try await client.send(GetUser(id: "7")).value.name == "Live Ada")
        #expect(live.requestCount == 2)
        #expect(transport.name == "ExampleTransport(live: MockTransport)")
    }

    @Test("demo mode is persisted like any environment, and a release build cannot switch into it")
    func demoPersistedAndLocked() throws {
        let store = InMemoryEnvironmentStore()
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: store))
        try registry.switchEnvironment(to: .demo)
        let restarted = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: store))
        #expect(restarted.environment == .demo)
        let release = ServiceRegistry(configuration: .init(isReleaseBuild: true, store: store))
        #expect(release.environment == .release)
        #expect(throws: SwitchyardError.self) { try release.switchEnvironment(to: .demo) }
    }
}
