import Foundation
import HTTPTypes
import InMemoryLogging
import Logging
import Switchyard
import SwitchyardTesting
import Testing

/// Answers every call with `text` under `contentType`, streamed in one chunk when the call streams.
private func streaming(_ text: String, contentType: String, status: HTTPResponse.Status = .ok) -> MockTransport {
    MockTransport { _, context in
        let head = HTTPResponse(status: status, headerFields: [.contentType: contentType])
        let bytes = Data(text.utf8)
        guard let limit = context.streamBufferLimit else { return Response(head: head, bytes: bytes) }
        let stream = ResponseStream(control: context.control, bufferLimit: limit) { writer in try await writer.write(bytes) }
        return Response(head: head, body: .stream(stream))
    }
}

private let feed = DynamicEndpoint<ResponseStream>(service: .users, method: .get, path: "/feed")

/// An event stream whose data carries secrets as JSON members (one split over two `data:` lines), as
/// pairs, and as JSON quoted inside a comment.
private let events = """
    event: login
    data: {"access_token":"sse-SECRET-1","user":"ada"}

    id: 2
    data: {"refresh_token":
    data: "sse-SECRET-2","user":"ada"}

    data: password=sse-SECRET-3&page=2

    : debug {"client_secret":"sse-SECRET-4"}

    """

private let eventSecrets = ["sse-SECRET-1", "sse-SECRET-2", "sse-SECRET-3", "sse-SECRET-4"]

@Suite("Logging stage: streamed answers are redacted as bodies are")
struct StreamLogRedactionTests {
    private func capture() -> (Logger, InMemoryLogHandler) {
        var handler = InMemoryLogHandler()
        handler.logLevel = .trace
        return (Logger(label: "test", factory: { _ in handler }), handler)
    }

    /// Every line the handler captured, with its metadata.
    private func lines(_ handler: InMemoryLogHandler) -> [String] {
        handler.entries.map { entry in "\(entry.message) \(entry.metadata.map { "\($0.key)=\($0.value)" }.joined(separator: " "))" }
    }

    private func expectNoLeak(of secrets: [String], in texts: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in secrets {
            let leaks = texts.filter { $0.contains(secret) }
            #expect(leaks.isEmpty, "\(secret) leaked in \(leaks)", sourceLocation: sourceLocation)
        }
    }

    @Test("an event stream's first chunk is logged with its event data redacted, and no secret reaches any line")
    func eventStreamPreview() async throws {
        let (logger, handler) = capture()
        let client = try makeClient(
            stages: [LoggingStage(logger: logger)],
            transport: streaming(events, contentType: "text/event-stream")
        )
        let result = try await client.events(feed)
        var data: [String] = []
        for try await event in result.value { data.append(event.data) }
        #expect(data.count == 3)
        let captured = lines(handler)
        let preview = try #require(captured.first { $0.hasPrefix("← stream starts:") })
        #expect(preview.contains(#""access_token":"<redacted>""#))
        #expect(preview.contains(#""user":"ada""#))
        #expect(preview.contains("event: login"))
        expectNoLeak(of: eventSecrets, in: captured)
    }

    @Test("a refused event stream: neither its error's descriptions nor the log show the secrets its body held")
    func refusedEventStream() async throws {
        let (logger, handler) = capture()
        let client = try makeClient(
            stages: [LoggingStage(logger: logger)],
            transport: streaming(events, contentType: "text/event-stream", status: .unauthorized)
        )
        let thrown = await #expect(throws: SwitchyardError.self) { _ = try await client.events(feed) }
        let error = try #require(thrown)
        #expect(error.code == .httpStatus)
        let described = [String(describing: error), String(reflecting: error), error.message]
        #expect(String(reflecting: error).contains("<redacted>"))
        expectNoLeak(of: eventSecrets, in: described + lines(handler))
    }

    @Test(
        "JSON Lines, JSON text sequences and plain text streams are previewed with their secrets hidden",
        arguments: [
            ("application/x-ndjson", "{\"token\":\"lines-SECRET-1\"}\n{\"n\":2,\"password\":\"lines-SECRET-2\"}\n"),
            ("application/json-seq", "\u{1E}{\"token\":\"seq-SECRET-1\"}\n\u{1E}{\"apiKey\":\"seq-SECRET-2\"}\n"),
            ("text/plain", "progress 1\nerror: {\"client_secret\":\"text-SECRET-1\"}\nsession=text-SECRET-2\n"),
        ]
    )
    func otherStreamPreviews(contentType: String, body: String) async throws {
        let (logger, handler) = capture()
        let client = try makeClient(stages: [LoggingStage(logger: logger)], transport: streaming(body, contentType: contentType))
        for try await _ in try await client.send(feed).value {}
        let captured = lines(handler)
        let preview = try #require(captured.first { $0.hasPrefix("← stream starts:") })
        #expect(preview.contains("<redacted>"))
        expectNoLeak(of: ["lines-SECRET", "seq-SECRET", "text-SECRET"], in: captured)
    }

    @Test("event-stream text is recognised by its bytes when no type says so")
    func eventsWithoutType() {
        let redacted = Redaction.default.redactBody(Data("data: {\"session\":\"untyped-SECRET\"}\n\n".utf8), contentType: nil)
        #expect(redacted == "data: {\"session\":\"<redacted>\"}\n\n")
    }

    @Test("a first chunk cut inside a secret value hides it to the cut")
    func cutInsideSecret() {
        let stage = LoggingStage()
        let cut = Data("data: {\"user\":\"ada\",\"access_token\":\"cut-SEC".utf8)
        let preview = stage.preview(cut, contentType: "text/event-stream")
        #expect(!preview.contains("cut-SEC"))
        #expect(preview.contains("\"user\":\"ada\""))
    }
}
