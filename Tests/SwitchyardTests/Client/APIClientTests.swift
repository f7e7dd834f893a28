import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("APIClient: both styles, results, errors")
struct APIClientTests {
    @Test("a discrete endpoint decodes its typed output and reports metadata")
    func discrete() async throws {
        let transport = MockTransport(.json(#"{"id":7,"name":"Ada"}"#, headerFields: [.eTag: "\"v1\""]))
        let client = try makeClient(baseURL: "https://api.example.com/v1", transport: transport)
        let result = try await client.send(GetUser(id: "7"))
        #expect(result.value == User(id: 7, name: "Ada"))
        #expect(result.status == .ok)
        #expect(result.headerFields[.eTag] == "\"v1\"")
        #expect(result.attempts == 1)
        #expect(result.source == .network)
        #expect(result.serviceID == .users)
        #expect(result.environment == .develop)
        #expect(result.duration >= .zero)
        #expect(transport.contexts.first?.requestID == result.requestID)
        #expect(transport.contexts.first?.endpointName == "GetUser")
        #expect(transport.requests.first?.path == "/v1/users/7")
    }

    @Test("the intensive style decodes or returns the raw response")
    func intensive() async throws {
        let client = try makeClient(transport: MockTransport(.json(#"{"id":1,"name":"Grace"}"#)))
        let decoded = try await client.send(.users, .get, "/users/{id}", pathParameters: ["id": "1"], as: User.self)
        #expect(decoded.value.name == "Grace")
        let raw = try await client.send(.users, .get, "/users/1")
        #expect(raw.value.bodyText == #"{"id":1,"name":"Grace"}"#)
    }

    @Test("a call made at the call site is named by its method and path template, without the query")
    func intensiveCallName() async throws {
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(transport: transport)
        _ = try await client.send(.users, .get, "/users/{id}", pathParameters: ["id": "1"])
        _ = try await client.send(.users, .post, "/search?q=1&page=2")
        #expect(transport.contexts.map(\.endpointName) == ["GET /users/{id}", "POST /search"])
        #expect(DynamicEndpoint<Response>(service: .users, method: .delete, path: "/é/?").name == "DELETE /é/")
        #expect(DynamicEndpoint<Response>(service: .users, method: .get, path: "").name == "GET ")
        // Split at the '?' byte, as the request's path is: a mark after '?' starts the query.
        #expect(DynamicEndpoint<Response>(service: .users, method: .get, path: "/a?\u{301}b").name == "GET /a")
    }

    @Test("Data, Response and NoContent outputs skip JSON decoding")
    func rawOutputs() async throws {
        struct Bytes: Endpoint {
            typealias Output = Data
            var service: ServiceID { .users }
            var method: HTTPRequest.Method { .get }
            var path: String { "/blob" }
        }
        struct Fire: Endpoint {
            typealias Output = NoContent
            var service: ServiceID { .users }
            var method: HTTPRequest.Method { .delete }
            var path: String { "/users/1" }
        }
        let client = try makeClient(transport: MockTransport(.status(.ok, body: "not json")))
        #expect(try await client.send(Bytes()).value == Data("not json".utf8))
        #expect(try await client.send(Fire()).value == NoContent())
    }

    @Test("the intensive style's `as:` accepts NoContent and Data like the discrete style")
    func intensiveRawOutputs() async throws {
        let client = try makeClient(transport: MockTransport(.status(.noContent)))
        #expect(try await client.send(.users, .delete, "/users/{id}", pathParameters: ["id": "7"], as: NoContent.self).value == NoContent())
        let bytes = try makeClient(transport: MockTransport(.status(.ok, body: "raw")))
        #expect(try await bytes.send(.users, .get, "/blob", as: Data.self).value == Data("raw".utf8))
    }

    @Test("a stage whose nested call fails is blamed for this call; the nested error is kept underneath")
    func nestedCallErrors() async throws {
        let registry = makeRegistry()
        try registry.register(Service(.catalog, baseURL: "https://auth.example", transport: MockTransport(.connectionRefused)))
        let refresh = ClosureStage.request(id: "TokenRefresh") { _, _ in
            _ = try await APIClient(registry: registry).send(.catalog, .post, "/token")
        }
        try registry.register(Service(.users, baseURL: "https://api.example", stages: [refresh], transport: MockTransport(.status(.ok))))
        let error = try #require(
            await #expect(throws: SwitchyardError.self) { _ = try await APIClient(registry: registry).send(GetUser(id: "1")) }
        )
        #expect(error.stage == StageID("TokenRefresh"))
        #expect(error.serviceID == .users)
        #expect(error.endpoint == "GetUser")
        #expect(error.code == .transport)
        let nested = try #require(error.underlyingError as? SwitchyardError)
        #expect(nested.serviceID == .catalog)
        #expect(nested.stage == StageID("transport"))
        #expect(nested.requestID != error.requestID)
    }

    @Test("a non-JSON body for a Decodable endpoint is a decoding error with the body kept")
    func nonJSONBody() async throws {
        let client = try makeClient(transport: MockTransport(.status(.ok, body: "<html>maintenance</html>")))
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(GetUser(id: "1")) }
        #expect(error?.code == .decoding)
        #expect(error?.message.contains("not valid JSON") == true)
        #expect(error?.endpoint == "GetUser")
        #expect(error?.status == .ok)
        #expect(error?.response?.bytes == Data("<html>maintenance</html>".utf8))
        #expect(error.map { String(reflecting: $0) }?.contains("maintenance") == true)
    }

    @Test("a JSON body of the wrong shape says which key is missing or mistyped")
    func wrongShape() async throws {
        let missing = try makeClient(transport: MockTransport(.json(#"{"id":1}"#)))
        let error = await #expect(throws: SwitchyardError.self) { _ = try await missing.send(GetUser(id: "1")) }
        #expect(error?.message.contains("'name' is missing") == true)
        let mistyped = try makeClient(transport: MockTransport(.json(#"{"id":"one","name":"A"}"#)))
        let typeError = await #expect(throws: SwitchyardError.self) { _ = try await mistyped.send(GetUser(id: "1")) }
        #expect(typeError?.message.contains("id") == true)
        #expect(typeError?.code == .decoding)
    }

    @Test("an unacceptable status is an httpStatus error carrying status and body; acceptable codes are configurable")
    func statusErrors() async throws {
        let client = try makeClient(transport: MockTransport(.status(.notFound, body: #"{"msg":"no such user"}"#)))
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(GetUser(id: "404")) }
        #expect(error?.code == .httpStatus)
        #expect(error?.status == .notFound)
        #expect(error?.stage == nil)
        #expect(error?.message.contains("404") == true)
        #expect(error?.response?.bodyText == #"{"msg":"no such user"}"#)

        let lenient = CallOptions(acceptableStatusCodes: 200...499)
        let raw = try await client.send(.users, .get, "/users/404", options: lenient)
        #expect(raw.status == .notFound)
    }

    @Test("a per-call timeout shorter than the transport's delay is a timeout error naming the transport")
    func timeout() async throws {
        let client = try makeClient(transport: MockTransport(.delayed(by: .seconds(120), then: .status(.ok))))
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(.users, .get, "/slow", options: CallOptions(timeout: .milliseconds(50)))
        }
        #expect(error?.code == .timeout)
        #expect(error?.stage == StageID("transport"))
        // The code shows the timeout ended the call: the transport would have answered 200 after 120 s.
        // No wall-clock bound: on a loaded 2-core machine the suite's CPU-bound tests have held both
        // threads for over 60 s.
    }

    @Test("cancelling the calling task ends the call with cancelled, promptly")
    func cancellation() async throws {
        let client = try makeClient(transport: MockTransport(.delayed(by: .seconds(30), then: .status(.ok))))
        let task = Task { try await client.send(.users, .get, "/slow") }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let error = await #expect(throws: SwitchyardError.self) { _ = try await task.value }
        #expect(error?.code == .cancelled)
        #expect(error?.requestID != nil)

        let cancelledBefore = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(.users, .get, "/never")
        }
        let early = await #expect(throws: SwitchyardError.self) { _ = try await cancelledBefore.value }
        #expect(early?.code == .cancelled)
    }

    @Test("errors carry service, endpoint, stage and request id, and read well")
    func errorContext() async throws {
        let client = try makeClient(transport: MockTransport(.connectionRefused))
        let error = try #require(await #expect(throws: SwitchyardError.self) { _ = try await client.send(GetUser(id: "1")) })
        #expect(error.serviceID == .users)
        #expect(error.endpoint == "GetUser")
        #expect(error.stage == StageID("transport"))
        #expect(error.requestID != nil)
        let text = error.description
        #expect(text.hasPrefix("[transport] could not connect"))
        #expect(text.contains("service 'users'"))
        #expect(text.contains("endpoint GetUser"))
        #expect(text.contains("request \(error.requestID!)"))
    }

    @Test("request ids are unique and well-formed")
    func requestIDs() {
        let ids = (0..<1000).map { _ in RequestID.next() }
        #expect(Set(ids).count == 1000)
        #expect(ids[0].description.count == 17)
        #expect(ids[0].description.split(separator: "-").count == 2)
    }

    @Test("concurrent calls from many tasks all complete with their own results")
    func concurrentCalls() async throws {
        let transport = MockTransport { request, _ in
            Response(status: .ok, body: Data(#"{"id":\#(request.path.split(separator: "/").last!),"name":"n"}"#.utf8))
        }
        let client = try makeClient(transport: transport)
        let ids = try await withThrowingTaskGroup(of: Int.self) { group in
            for id in 1...200 { group.addTask { try await client.send(GetUser(id: String(id))).value.id } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(ids.sorted() == Array(1...200))
    }
}
