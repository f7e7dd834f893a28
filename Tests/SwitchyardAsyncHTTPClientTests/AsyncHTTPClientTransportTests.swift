import AsyncHTTPClient
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardSampleBackend
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

@Suite("AsyncHTTPClient transport against the sample backend")
struct AsyncHTTPClientTransportTests {
    @Test("a discrete call goes through the stages and over the wire; metadata is reported")
    func discreteOverTheWire() async throws {
        let recorder = EventRecorder()
        try await withBackend(stages: [RecordingStage("A", recorder), RecordingStage("B", recorder)]) { _, client in
            struct GetUser: Endpoint {
                typealias Output = Envelope<User>
                var service: ServiceID { .users }
                var method: HTTPRequest.Method { .get }
                var path: String { "/users/{id}" }
                var pathParameters: [String: String] { ["id": "3"] }
            }
            let result = try await client.send(GetUser())
            #expect(result.value.code == 0)
            #expect(result.value.data?.nickname == "张衡")
            #expect(result.status == .ok)
            #expect(result.attempts == 1)
            #expect(result.source == .network)
            #expect(result.headerFields[.contentType]?.hasPrefix("application/json") == true)
            #expect(recorder.events == ["A in", "B in", "B out", "A out"])
        }
    }

    @Test("URL composition survives the wire: encoded path segments, query, form and JSON bodies")
    func echoedComposition() async throws {
        try await withBackend { _, client in
            let path = try await client.send(
                .utility,
                .get,
                "/echo/{a}/{b}",
                pathParameters: ["a": "hello world", "b": "中/文"],
                parameters: ["q": "a&b", "n": 1],
                as: EchoReport.self
            ).value
            #expect(path.uri == "/echo/hello%20world/%E4%B8%AD%2F%E6%96%87?q=a%26b&n=1")
            #expect(path.method == "GET")

            let form = try await client.send(
                .utility,
                .post,
                "/echo",
                parameters: ["name": "Ada L", "x": "1+1"],
                encoding: .form,
                as: EchoReport.self
            ).value
            #expect(form.body == "name=Ada%20L&x=1%2B1")
            #expect(form.headers["content-type"] == "application/x-www-form-urlencoded; charset=utf-8")

            let json = try await client.send(.utility, .patch, "/echo", parameters: ["b": nil, "a": "张"], as: EchoReport.self).value
            #expect(json.method == "PATCH")
            #expect(json.body == #"{"a":"张","b":null}"#)
            #expect(json.headers["content-type"] == "application/json")
        }
    }

    @Test(
        "every method reaches the server; HEAD returns no body",
        arguments: [
            HTTPRequest.Method.get, .post, .put, .patch, .delete, .head,
        ]
    )
    func methods(method: HTTPRequest.Method) async throws {
        try await withBackend { _, client in
            let result = try await client.send(.utility, method, "/echo")
            #expect(result.status == .ok)
            if method == .head {
                #expect(result.value.bytes.isEmpty)
            } else {
                let report = try JSONDecoder().decode(EchoReport.self, from: result.value.bytes)
                #expect(report.method == method.rawValue)
            }
        }
    }

    @Test("header fields set by stages reach the server")
    func headersReachServer() async throws {
        let stage = ClosureStage.request(id: "Auth") { request, _ in request.headerFields[.authorization] = "Bearer demo-token" }
        try await withBackend(stages: [stage]) { _, client in
            let session = try await client.send(.users, .get, "/session", as: Envelope<[String: Int]>.self).value
            #expect(session.code == 0)
            #expect(session.data?["user"] == 1)
        }
    }

    @Test("a non-JSON body for a Decodable endpoint is a decoding error")
    func notJSON() async throws {
        try await withBackend { _, client in
            let error = await #expect(throws: SwitchyardError.self) {
                _ = try await client.send(.utility, .get, "/not-json", as: User.self)
            }
            #expect(error?.code == .decoding)
            #expect(error?.message.contains("not valid JSON") == true)
        }
    }

    @Test("an error status is an httpStatus error with the body")
    func errorStatus() async throws {
        try await withBackend { _, client in
            let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.utility, .get, "/status/503") }
            #expect(error?.code == .httpStatus)
            #expect(error?.status?.code == 503)
            #expect(error?.response?.bodyText == #"{"status":503}"#)
        }
    }

    @Test("a per-call timeout ends a slow call with timeout, well before the server answers")
    func timeout() async throws {
        try await withBackend { _, client in
            let start = ContinuousClock.now
            let error = await #expect(throws: SwitchyardError.self) {
                _ = try await client.send(.utility, .get, "/delay/120000", options: CallOptions(timeout: .milliseconds(200)))
            }
            #expect(error?.code == .timeout)
            #expect(error?.stage == StageID("transport"))
            // Before the server's answer at 120 s: a late answer past the deadline is reported as a
            // timeout too, so the code alone does not show the timer fired. The bound is loose because on
            // a loaded 2-core machine the CPU-bound suites have held both threads for over 60 s; the
            // conformance case `sub-second-timeout-is-accurate` checks the timing closely.
            #expect(ContinuousClock.now - start < .seconds(110))
        }
    }

    @Test("cancelling the task cancels the request on its connection and ends the call with cancelled")
    func cancellation() async throws {
        try await withBackend { _, client in
            let task = Task { try await client.send(.utility, .get, "/delay/120000") }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            let error = await #expect(throws: SwitchyardError.self) { _ = try await task.value }
            #expect(error?.code == .cancelled)
            // The code shows the cancellation ended the call: the server would have answered 200 after
            // 120 s (no wall-clock bound, as above).
        }
    }

    @Test("a refused connection is a transport error that says so")
    func connectionRefused() async throws {
        // Bind a port, then close it, so that nothing listens there.
        let backend = try await SampleBackend.start()
        let deadURL = backend.baseURL
        try await backend.shutdown()
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(2)
        try await AsyncHTTPClientTransport.withTransport(configuration: configuration) { transport in
            let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
            try registry.register(Service(.utility, baseURL: deadURL, transport: transport))
            let error = await #expect(throws: SwitchyardError.self) {
                _ = try await APIClient(registry: registry).send(.utility, .get, "/bench")
            }
            #expect(error?.code == .transport, "\(String(describing: error))")
            #expect(error?.message.contains("connection refused") == true, "\(String(describing: error))")
            #expect(error?.stage == StageID("transport"))
            #expect(error?.serviceID == .utility)
        }
    }

    @Test("a connection dropped by the server is a transport error")
    func droppedConnection() async throws {
        try await withBackend { _, client in
            let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.utility, .get, "/close") }
            #expect(error?.code == .transport)
        }
    }

    @Test("a response larger than the transport's limit is refused with limitExceeded")
    func bodyLimit() async throws {
        let transport = AsyncHTTPClientTransport(configuration: .init(maximumResponseBodySize: 16))
        try await withBackend(transport: transport) { _, client in
            let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.utility, .get, "/bench") }
            #expect(error?.code == .limitExceeded)
            #expect(error?.message.contains("larger than") == true)
        }
    }

    @Test("withTransport shuts its client down after the closure, also when the closure throws")
    func lifecycle() async throws {
        struct Expected: Error {}
        let kept = try await AsyncHTTPClientTransport.withTransport { transport in transport.client }
        await #expect(throws: (any Error).self) { try await kept.shutdown() }
        await #expect(throws: Expected.self) {
            try await AsyncHTTPClientTransport.withTransport { (_: AsyncHTTPClientTransport) -> Int in throw Expected() }
        }
    }

    @Test("many concurrent calls over a few connections all succeed")
    func concurrentCalls() async throws {
        try await withBackend { backend, client in
            let before = backend.requestCount
            let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<200 { group.addTask { try await client.send(.utility, .get, "/bench").value.body.count } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(sizes.count == 200)
            #expect(Set(sizes).count == 1)
            #expect(backend.requestCount - before == 200)
        }
    }
}

@Suite("Built-in envelope stage against the sample backend")
struct EnvelopeOverTheWireTests {
    struct Page: Decodable, Sendable {
        struct Item: Decodable, Sendable {
            let id: Int
            let summary: String?
        }
        let page: Int
        let hasMore: Bool
        let items: [Item]
    }

    @Test("the users module (code 0) and the catalog module (code 100) each with their own envelope stage")
    func perModuleEnvelopes() async throws {
        let backend = try await SampleBackend.start()
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        try registry.register(
            Service(
                .users,
                baseURL: backend.baseURL + "/users-api",
                stages: [EnvelopeStage(successCodes: [0])],
                transport: AsyncHTTPClientTransport()
            )
        )
        try registry.register(
            Service(
                .catalog,
                baseURL: backend.baseURL + "/catalog-api",
                stages: [EnvelopeStage(successCodes: [100])],
                transport: AsyncHTTPClientTransport()
            )
        )
        let client = APIClient(registry: registry)
        let user = try await client.send(.users, .get, "/users/{id}", pathParameters: ["id": "3"], as: User.self)
        #expect(user.value.nickname == "张衡")
        let page = try await client.send(.catalog, .get, "/articles", parameters: ["page": 2, "size": 5], as: Page.self)
        #expect(page.value.page == 2)
        #expect(page.value.items.map(\.id) == [6, 7, 8, 9, 10])
        #expect(page.value.items[0].summary == nil)
        let missing = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(.users, .get, "/users/{id}", pathParameters: ["id": "99"], as: User.self)
        }
        #expect(missing?.code == .business)
        #expect(missing?.detail(as: EnvelopeFailure.self)?.businessCode == "4004")
        #expect(missing?.message == "user not found (code 4004)")
        try await backend.shutdown()
    }
}
