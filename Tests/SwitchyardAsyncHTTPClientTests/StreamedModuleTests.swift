import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardSampleBackend
import Synchronization
import Testing

/// The sample backend's streamed "assistant" module through the real client: Server-Sent Events
/// framing, resumption after `Last-Event-ID`, the JSON Lines feed, and its limits.
@Suite("The sample backend's streamed module over the wire")
struct StreamedModuleTests {
    static let assistant: ServiceID = "assistant"
    static let lastEventID = HTTPField.Name("Last-Event-ID")!

    /// What the pipeline sent on each connection: its `Last-Event-ID` and `Authorization`.
    final class Sent: Sendable {
        let requests = Mutex<[HTTPFields]>([])
        var lastEventIDs: [String?] { requests.withLock { $0.map { $0[StreamedModuleTests.lastEventID] } } }
        var authorizations: [String?] { requests.withLock { $0.map { $0[.authorization] } } }
    }

    /// Records the waits before reconnections, without waiting.
    final class Sleeps: Sendable {
        let delays = Mutex<[Duration]>([])
        @Sendable func sleep(_ delay: Duration) async throws { delays.withLock { $0.append(delay) } }
    }

    /// A progress line of the JSON Lines feed.
    struct Progress: Decodable, Sendable, Equatable {
        let step: Int
        let steps: Int
        let percent: Int
        let state: String
    }

    /// Runs `body` with a client whose assistant service sends the demo token (unless `token` is `nil`)
    /// and records what each request carried.
    static func withAssistant(
        token: String? = "Bearer demo-token",
        _ body: (SampleBackend, APIClient, Sent) async throws -> Void
    ) async throws {
        let backend = try await SampleBackend.start()
        let sent = Sent()
        do {
            let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
            let stages: [any Stage] = [
                ClosureStage.request(id: .authorization) { request, _ in
                    if let token { request.headerFields[.authorization] = token }
                },
                ClosureStage.request(id: "Recorder") { request, _ in sent.requests.withLock { $0.append(request.headerFields) } },
            ]
            try registry.register(
                Service(assistant, baseURL: backend.baseURL + "/assistant-api", stages: stages, transport: AsyncHTTPClientTransport())
            )
            try await body(backend, APIClient(registry: registry), sent)
            try await backend.shutdown()
        } catch {
            try? await backend.shutdown()
            throw error
        }
    }

    static func answer(_ parameters: Parameters, headerFields: HTTPFields = [:]) -> DynamicEndpoint<ResponseStream> {
        DynamicEndpoint(service: assistant, method: .get, path: "/answer", parameters: parameters, headerFields: headerFields)
    }

    static func collect(_ stream: ResponseStream) async throws -> Data {
        var bytes = Data()
        for try await chunk in stream { bytes.append(chunk) }
        return bytes
    }

    static let question = "Wie geht's, 张衡?"
    static var words: [String] { AssistantWords.answering(question) }

    @Test("the answer is Server-Sent Events: one token event per word, its id the word's number, retry first")
    func framing() async throws {
        try await Self.withAssistant { _, client, _ in
            let result = try await client.send(Self.answer(["q": .string(Self.question), "pace": 0]))
            #expect(result.status == .ok)
            #expect(result.headerFields[.contentType] == "text/event-stream; charset=utf-8")
            let text = String(decoding: try await Self.collect(result.value), as: UTF8.self)
            let expected =
                "retry: 100\n"
                + Self.words.enumerated().map { "event: token\nid: \($0.offset + 1)\ndata: \($0.element)\n\n" }.joined()
            #expect(text == expected)
        }
    }

    @Test("the events decode as the words of the answer, in order, with the question's non-ASCII text intact")
    func decoded() async throws {
        try await Self.withAssistant { _, client, _ in
            let result = try await client.send(Self.answer(["q": .string(Self.question), "pace": 0]))
            var events: [ServerSentEvent] = []
            for try await event in result.value.serverSentEvents() { events.append(event) }
            #expect(events.map(\.data) == Self.words)
            #expect(events.map(\.id) == (1...Self.words.count).map { String($0) })
            #expect(Set(events.map(\.type)) == ["token"])
            #expect(events.first?.retry == .milliseconds(100))
            #expect(events.map(\.data).contains("张衡?"))
        }
    }

    @Test("each event is flushed as it is produced: the first word arrives long before the paced answer ends")
    func flushedAsProduced() async throws {
        try await Self.withAssistant { _, client, _ in
            // 100 ms between words: each word leaves the server as a piece of its own, so the first
            // chunk read holds the first event and not the answer's end. (Chunks, not the clock: a
            // suite running beside CPU-bound tests may read late, but still piece by piece.)
            let result = try await client.send(Self.answer(["q": "Why?", "pace": 100]))
            var iterator = result.value.makeAsyncIterator()
            let first = String(decoding: try #require(try await iterator.next()), as: UTF8.self)
            #expect(first.contains("data: You\n"))
            #expect(!first.contains("id: \(AssistantWords.answering("Why?").count)\n"))
            result.value.cancel()
        }
    }

    @Test("Last-Event-ID resumes after that word")
    func resumesAfterLastEventID() async throws {
        try await Self.withAssistant { _, client, _ in
            let result = try await client.send(
                Self.answer(["q": .string(Self.question), "pace": 0], headerFields: [Self.lastEventID: "5"])
            )
            var events: [ServerSentEvent] = []
            for try await event in result.value.serverSentEvents() { events.append(event) }
            #expect(events.map(\.data) == Array(Self.words.dropFirst(5)))
            #expect(events.first?.id == "6")
        }
    }

    @Test("a Last-Event-ID naming the last word answers 204: nothing more to send")
    func lastWordAnswersNoContent() async throws {
        try await Self.withAssistant { _, client, _ in
            let result = try await client.send(
                Self.answer(["q": .string(Self.question)], headerFields: [Self.lastEventID: "\(Self.words.count)"])
            )
            #expect(result.status == .noContent)
            #expect(try await Self.collect(result.value).isEmpty)
        }
    }

    @Test("a dropped connection resumes through the pipeline with Last-Event-ID: every word once, in order")
    func droppedConnectionResumes() async throws {
        try await Self.withAssistant { _, client, sent in
            let sleeps = Sleeps()
            // 50 ms between words and before the drop, so the words the first connection sends are
            // read before it breaks (a broken stream drops the bytes its reader has not taken yet).
            let events = try await client.events(
                Self.answer(["q": .string(Self.question), "pace": 50, "dropAfter": 4]),
                reconnect: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10), jitter: 0),
                sleep: sleeps.sleep
            )
            var words: [String] = []
            for try await event in events.value { words.append(event.data) }
            #expect(words == Self.words)
            // Dropped after word 4, resumed after the last word read, then ended cleanly: the standard
            // reconnects once more, with the last word's id, and the server's 204 ends the events.
            // Every connection went through the pipeline and waited the stream's own `retry`.
            let ids = sent.lastEventIDs
            #expect(ids.count >= 3)
            #expect(ids.first == .some(nil))
            #expect(ids.last == "\(Self.words.count)")
            #expect(ids.dropFirst().dropLast().allSatisfy { $0.flatMap(Int.init).map { (1...4).contains($0) } ?? false })
            #expect(sent.authorizations.allSatisfy { $0 == "Bearer demo-token" })
            #expect(sleeps.delays.withLock { $0 }.allSatisfy { $0 == .milliseconds(100) })
        }
    }

    @Test("without reconnect, a dropped connection ends the events with a transport error after the words it sent")
    func droppedConnectionWithoutReconnect() async throws {
        try await Self.withAssistant { _, client, sent in
            let events = try await client.events(Self.answer(["q": .string(Self.question), "pace": 50, "dropAfter": 3]))
            var words: [String] = []
            do {
                for try await event in events.value { words.append(event.data) }
                Issue.record("expected the dropped connection to end the events with an error")
            } catch let error as SwitchyardError {
                #expect(error.code == .transport)
            }
            // Words come in order and never past the drop. A client starved of CPU may see fewer:
            // AsyncHTTPClient drops body parts it read but was not yet asked for when the
            // connection breaks; the kernel's stream delivers everything it was given.
            #expect(Array(Self.words.prefix(3)).starts(with: words))
            #expect(sent.lastEventIDs == [nil])
        }
    }

    @Test("the progress feed is JSON Lines: N lines, decoded as they arrive, the last one done")
    func jsonLines() async throws {
        try await Self.withAssistant { _, client, _ in
            let feed = DynamicEndpoint<ResponseStream>(
                service: Self.assistant,
                method: .get,
                path: "/progress",
                parameters: ["steps": 4, "pace": 0]
            )
            let result = try await client.send(feed)
            #expect(result.headerFields[.contentType] == "application/jsonl")
            var lines: [Progress] = []
            for try await line in result.value.jsonLines(of: Progress.self) { lines.append(line) }
            #expect(
                lines == [
                    Progress(step: 1, steps: 4, percent: 25, state: "running"), Progress(step: 2, steps: 4, percent: 50, state: "running"),
                    Progress(step: 3, steps: 4, percent: 75, state: "running"), Progress(step: 4, steps: 4, percent: 100, state: "done"),
                ]
            )
        }
    }

    /// A request the module must refuse, and the status it must refuse it with.
    struct Hostile: Sendable, CustomTestStringConvertible {
        let path: String
        let parameters: [String: String]
        var headerFields: [String: String] = [:]
        var status = 400
        var testDescription: String {
            "\(path) \(parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.prefix(12))" }) \(headerFields) → \(status)"
        }
    }

    static let hostile: [Hostile] = [
        Hostile(path: "/answer", parameters: [:]),
        Hostile(path: "/answer", parameters: ["q": ""]),
        Hostile(path: "/answer", parameters: ["q": "   "]),
        Hostile(path: "/answer", parameters: ["q": String(repeating: "a", count: 401)]),
        Hostile(path: "/answer", parameters: ["q": String(repeating: "é", count: 201)]),
        Hostile(path: "/answer", parameters: ["q": String(repeating: "why ", count: 5000)]),
        Hostile(path: "/answer", parameters: ["q": "line one\nevent: forged\ndata: x"]),
        Hostile(path: "/answer", parameters: ["q": "nul\u{0}byte"]),
        Hostile(path: "/answer", parameters: ["q": "why?", "pace": "-1"]),
        Hostile(path: "/answer", parameters: ["q": "why?", "pace": "60000"]),
        Hostile(path: "/answer", parameters: ["q": "why?", "pace": "fast"]),
        Hostile(path: "/answer", parameters: ["q": "why?", "dropAfter": "-1"]),
        Hostile(path: "/answer", parameters: ["q": "why?", "dropAfter": "99999999999999999999999"]),
        Hostile(path: "/answer", parameters: ["q": "why?"], headerFields: ["Last-Event-ID": "abc"]),
        Hostile(path: "/answer", parameters: ["q": "why?"], headerFields: ["Last-Event-ID": "-1"]),
        Hostile(path: "/answer", parameters: ["q": "why?"], headerFields: ["Last-Event-ID": "1000"]),
        Hostile(path: "/answer", parameters: ["q": "why?"], headerFields: ["Last-Event-ID": String(repeating: "9", count: 400)]),
        Hostile(path: "/progress", parameters: ["steps": "0"]),
        Hostile(path: "/progress", parameters: ["steps": "1001"]),
        Hostile(path: "/progress", parameters: ["steps": "many"]),
        Hostile(path: "/progress", parameters: ["steps": "5", "pace": "1001"]),
    ]

    @Test("hostile input answers 4xx, and the server goes on serving", arguments: hostile)
    func refusesHostileInput(_ hostile: Hostile) async throws {
        try await Self.withAssistant { _, client, _ in
            var fields = HTTPFields()
            for (name, value) in hostile.headerFields { fields[HTTPField.Name(name)!] = value }
            let endpoint = DynamicEndpoint<ResponseStream>(
                service: Self.assistant,
                method: .get,
                path: hostile.path,
                parameters: Parameters(hostile.parameters.sorted { $0.key < $1.key }.map { ($0.key, ParameterValue.string($0.value)) }),
                headerFields: fields
            )
            do {
                let result = try await client.send(endpoint)
                Issue.record("expected \(hostile.status), got \(result.status.code)")
            } catch let error as SwitchyardError {
                #expect(error.code == .httpStatus)
                #expect(error.status?.code == hostile.status)
            }
            let after = try await client.send(Self.answer(["q": "still there?", "pace": 0]))
            #expect(after.status == .ok)
        }
    }

    @Test("without the bearer token both routes answer 401")
    func needsToken() async throws {
        try await Self.withAssistant(token: nil) { _, client, _ in
            for path in ["/answer", "/progress"] {
                let endpoint = DynamicEndpoint<ResponseStream>(service: Self.assistant, method: .get, path: path, parameters: ["q": "why?"])
                do {
                    _ = try await client.send(endpoint)
                    Issue.record("expected 401 from \(path)")
                } catch let error as SwitchyardError {
                    #expect(error.status == .unauthorized)
                }
            }
        }
    }

    @Test("the in-process backend answers the streamed routes whole, with the bytes the wire carries")
    func inProcessMatchesTheWire() async throws {
        try await Self.withAssistant { _, client, _ in
            let target = "/assistant-api/answer?q=Why%3F&pace=0"
            let fields = [(name: "authorization", value: "Bearer demo-token"), (name: "last-event-id", value: "2")]
            let answer = InProcessBackend().respond(method: "GET", target: target, headerFields: fields, body: [])
            let wire = try await client.send(Self.answer(["q": "Why?", "pace": 0], headerFields: [Self.lastEventID: "2"]))
            #expect(answer.status == 200)
            #expect(answer.headerFields.first?.value == "text/event-stream; charset=utf-8")
            #expect(Data(answer.body) == (try await Self.collect(wire.value)))
            let feed = InProcessBackend().respond(
                method: "GET",
                target: "/assistant-api/progress?steps=2",
                headerFields: [(name: "authorization", value: "Bearer demo-token")],
                body: []
            )
            #expect(String(decoding: feed.body, as: UTF8.self).split(separator: "\n").count == 2)
        }
    }
}

/// The words the assistant module answers a question with, as the test expects them.
enum AssistantWords {
    static func answering(_ question: String) -> [String] {
        ("You asked: \(question) " + "Switchyard streams the answer through the pipeline, one word at a time.")
            .split(whereSeparator: \.isWhitespace).map(String.init)
    }
}
