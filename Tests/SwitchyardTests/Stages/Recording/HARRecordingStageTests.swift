import Foundation
import HTTPTypes
import Switchyard
import SwitchyardHAR
import SwitchyardTesting
import Testing

@Suite("HAR recording stage")
struct HARRecordingStageTests {
    /// A registry with `users` and `catalog` services whose stages share `recorder`.
    func makeClient(_ stages: [any Stage], transport: MockTransport) throws -> APIClient {
        let registry = makeRegistry()
        try registry.register(Service(.users, baseURL: "https://api.example.com/v1", stages: stages, transport: transport))
        try registry.register(Service(.catalog, baseURL: "https://catalog.example.com", stages: stages, transport: transport))
        return APIClient(registry: registry)
    }

    @Test("every call through every service that shares the recorder becomes an entry, in the order the calls started")
    func entries() async throws {
        let recorder = HARRecorder()
        let transport = MockTransport(.json(#"{"id":1,"name":"Ada"}"#, headerFields: [HTTPField.Name("X-Trace")!: "t-1"]))
        let client = try makeClient([HARRecordingStage(recorder: recorder)], transport: transport)
        _ = try await client.send(GetUser(id: "7"))
        _ = try await client.send(.catalog, .post, "/items", parameters: ["sku": "A-1", "qty": 2], encoding: .json)
        _ = try await client.send(.catalog, .get, "/search", parameters: ["q": "lamp shade", "page": 2])

        let entries = recorder.entries
        #expect(entries.count == 3)
        #expect(entries.map(\.request.method) == ["GET", "POST", "GET"])
        #expect(entries.map(\.service) == ["users", "catalog", "catalog"])
        #expect(entries[0].request.url == "https://api.example.com/v1/users/7")
        #expect(entries[0].endpoint == "GetUser")
        #expect(entries[0].response.status == 200)
        #expect(entries[0].response.statusText == "OK")
        #expect(entries[0].response.content.text == #"{"id":1,"name":"Ada"}"#)
        #expect(entries[0].response.content.mimeType == "application/json")
        #expect(entries[0].response.headers.contains(HAR.NameValue(name: "X-Trace", value: "t-1")))
        #expect(entries[0].response.source == "network")
        #expect(entries[1].request.postData?.mimeType.hasPrefix("application/json") == true)
        #expect(entries[1].request.postData?.text?.contains(#""sku":"A-1""#) == true)
        #expect(entries[1].request.bodySize == entries[1].request.postData?.text?.utf8.count)
        #expect(entries[2].request.queryString.contains(HAR.NameValue(name: "q", value: "lamp shade")))
        for entry in entries {
            #expect(entry.time >= 0 && entry.time == entry.timings.wait)
            #expect(entry.startedDateTime.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
        }
        #expect(entries.map(\.requestID) == transport.contexts.map { "\($0.requestID)" })
    }

    @Test("registered opt-in, the stage records only the calls that enable it")
    func optIn() async throws {
        let recorder = HARRecorder()
        let client = try makeClient([HARRecordingStage(recorder: recorder).optIn()], transport: MockTransport(.json("{}")))
        _ = try await client.send(.users, .get, "/quiet")
        var options = CallOptions()
        options.enable(.harRecording)
        _ = try await client.send(.users, .get, "/recorded", options: options)
        #expect(recorder.entries.map(\.request.url) == ["https://api.example.com/v1/recorded"])
    }

    @Test("a failed call is recorded with its error, redacted, and the error is thrown on unchanged")
    func failures() async throws {
        let recorder = HARRecorder()
        let refused = SwitchyardError(
            code: .transport,
            message: "connection refused by https://api.example.com/v1/x?access_token=tok-SECRET"
        )
        let transport = MockTransport(sequence: [.failure(refused), .status(.serviceUnavailable, body: #"{"password":"pw-SECRET"}"#)])
        let client = try makeClient([HARRecordingStage(recorder: recorder)], transport: transport)
        await #expect(throws: SwitchyardError.self) { _ = try await client.send(.users, .get, "/x") }
        await #expect(throws: SwitchyardError.self) { _ = try await client.send(.users, .get, "/y", as: User.self) }

        let entries = recorder.entries
        #expect(entries.count == 2)
        #expect(entries[0].response.status == 0)
        #expect(entries[0].response.bodySize == -1)
        #expect(
            entries[0].response.error?.hasPrefix("transport: connection refused by https://api.example.com/v1/x?access_token=<redacted>")
                == true
        )
        // A 503 comes back from the transport as a response: recorded as it is, its body redacted.
        #expect(entries[1].response.status == 503)
        #expect(entries[1].response.content.text == #"{"password":"<redacted>"}"#)
        let bytes = String(decoding: try recorder.export(), as: UTF8.self)
        #expect(!bytes.contains("SECRET"))
        #expect(bytes.contains(#""_error" : "transport: "#))
    }

    @Test("a stage that fails on the way out leaves its error and the response it refused in the entry")
    func failureWithResponse() async throws {
        let recorder = HARRecorder()
        let envelope = EnvelopeStage(successCodes: [0])
        let transport = MockTransport(.json(#"{"code":17,"msg":"out of stock","data":null}"#))
        let client = try makeClient([HARRecordingStage(recorder: recorder), envelope], transport: transport)
        await #expect(throws: SwitchyardError.self) { _ = try await client.send(.users, .get, "/stock") }
        let response = try #require(recorder.entries.first?.response)
        #expect(response.status == 200)
        #expect(response.content.text?.contains("out of stock") == true)
        #expect(response.error?.contains("(stage Envelope)") == true)
    }

    @Test("a binary body is its size and type unless its type is opted in; text a redaction cannot read is left out")
    func bodies() async throws {
        let binary = Data([0x00, 0x01, 0xFE, 0xFF, 0x10])
        let transport = MockTransport { request, _ in
            let body = request.path.hasSuffix("jwt") ? Data("eyJhbGciOi.jwt-SECRET.sig".utf8) : binary
            let type = request.path.hasSuffix("jwt") ? "application/jwt" : "application/octet-stream"
            return Response(status: .ok, headerFields: [.contentType: type], body: body)
        }
        let modes: [HARRecordingStage.Bodies] = [
            .all, .allIncludingBinary(["application/octet-stream"]), .allIncludingBinary(["*/*"]), .allIncludingBinary(["image/*"]), .none,
        ]
        var contents: [HARRecordingStage.Bodies: HAR.Content] = [:]
        for mode in modes {
            let recorder = HARRecorder()
            let client = try makeClient([HARRecordingStage(recorder: recorder, bodies: mode)], transport: transport)
            _ = try await client.send(.users, .get, "/blob")
            contents[mode] = recorder.entries.first?.response.content
        }
        #expect(contents[.all]?.text == nil && contents[.all]?.encoding == nil && contents[.all]?.size == 5)
        #expect(contents[.all]?.comment?.hasPrefix("5 bytes of application/octet-stream not recorded") == true)
        for kept in [HARRecordingStage.Bodies.allIncludingBinary(["application/octet-stream"]), .allIncludingBinary(["*/*"])] {
            #expect(contents[kept]?.text == binary.base64EncodedString())
            #expect(contents[kept]?.encoding == "base64")
        }
        #expect(contents[.allIncludingBinary(["image/*"])]?.text == nil)
        #expect(contents[.none]?.text == nil && contents[.none]?.size == 5)

        let recorder = HARRecorder()
        let client = try makeClient([HARRecordingStage(recorder: recorder)], transport: transport)
        _ = try await client.send(.users, .get, "/jwt")
        let content = try #require(recorder.entries.first?.response.content)
        #expect(content.text == nil)
        #expect(content.comment?.contains("application/jwt not recorded") == true)
    }

    @Test("URLs hide path segments as log lines do: after a segment named like a secret, and a placeholder named like one")
    func secretPathSegments() async throws {
        let recorder = HARRecorder()
        let client = try makeClient([HARRecordingStage(recorder: recorder)], transport: MockTransport(.json("{}")))
        _ = try await client.send(.users, .post, "/password-reset/k9Xq2")
        _ = try await client.send(.users, .get, "/users/{id}/tokens/{token}", pathParameters: ["id": "42", "token": "t-77"])
        _ = try await client.send(.users, .get, "/accounts/{apiKey}", pathParameters: ["apiKey": "k-88"])
        let entries = recorder.entries
        #expect(
            entries.map(\.request.url) == [
                "https://api.example.com/v1/password-reset/<redacted>", "https://api.example.com/v1/users/42/tokens/<redacted>",
                "https://api.example.com/v1/accounts/<redacted>",
            ]
        )
        #expect(entries.map(\.endpoint) == ["POST /password-reset/<redacted>", "GET /users/{id}/tokens/{token}", "GET /accounts/{apiKey}"])
        let archive = String(decoding: try recorder.export(), as: UTF8.self)
        #expect(!archive.contains("k9Xq2") && !archive.contains("t-77") && !archive.contains("k-88"))
    }

    @Test("inside a retry stage every attempt is an entry numbered by _attempt; outside it one entry per call")
    func retries() async throws {
        let inner = HARRecorder()
        let outer = HARRecorder()
        let retry = RetryStage(RetryPolicy(maxAttempts: 3, jitter: 0), sleep: { _ in })
        let transport = MockTransport(sequence: [.status(.serviceUnavailable), .status(.badGateway), .json("{}")])
        let stages: [any Stage] = [HARRecordingStage(recorder: outer), retry, HARRecordingStage(recorder: inner)]
        let client = try makeClient(stages, transport: transport)
        _ = try await client.send(.users, .get, "/flaky")
        #expect(inner.entries.map(\.attempt) == [1, 2, 3])
        #expect(inner.entries.map(\.response.status) == [503, 502, 200])
        #expect(outer.entries.map(\.attempt) == [1])
        #expect(outer.entries.map(\.response.status) == [200])
        #expect(Set((inner.entries + outer.entries).map(\.requestID)).count == 1)
    }

    @Test("a streamed upload is described by its length, not read")
    func streamedBody() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("har-upload-\(UUID().uuidString)")
        try Data(repeating: 0x41, count: 4096).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let recorder = HARRecorder()
        let client = try makeClient([HARRecordingStage(recorder: recorder)], transport: MockTransport(.json("{}")))
        _ = try await client.send(.users, .put, "/upload", body: try .file(file, contentType: "text/plain"))
        let request = try #require(recorder.entries.first?.request)
        #expect(request.bodySize == 4096)
        #expect(request.postData?.mimeType == "text/plain")
        #expect(request.postData?.text == nil)
        #expect(request.postData?.comment?.hasPrefix("4096 bytes streamed") == true)
    }
}
