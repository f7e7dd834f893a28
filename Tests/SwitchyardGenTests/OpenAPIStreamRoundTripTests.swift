import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// The streamed endpoints the build plugin generated from `Streams/Streams.openapi.yaml` (OpenAPI 3.2),
/// compiled into this target and called through `MockTransport` answering with a streamed body cut into
/// small chunks: each endpoint asks for its media type, returns at the head, and its `elements(of:)`
/// decodes the values the document describes.
@Suite("OpenAPI streamed endpoints round-trip")
struct OpenAPIStreamRoundTripTests {
    static func client(_ transport: MockTransport) throws -> APIClient {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try StreamsAPI.registerStreams(in: registry, transport: transport)
        return APIClient(registry: registry)
    }

    /// Answers `body` as a stream of `chunk`-byte chunks (so values are split across chunks).
    static func streaming(_ body: String, contentType: String, chunk: Int = 3) -> MockTransport {
        MockTransport { _, _ in
            let bytes = Array(body.utf8)
            let chunks = stride(from: 0, to: bytes.count, by: chunk).map { Data(bytes[$0..<min($0 + chunk, bytes.count)]) }
            return Response(
                head: HTTPResponse(status: .ok, headerFields: [.contentType: contentType]),
                body: .stream(ResponseStream(chunks: chunks))
            )
        }
    }

    @Test("application/jsonl: the prices arrive typed, dates by the service's decoder, and the call accepts JSON Lines")
    func jsonLines() async throws {
        let body = """
            {"symbol":"ACME","price":10.5,"at":"2024-05-01T10:00:00Z"}
            {"symbol":"ACME","price":10.75,"at":"2024-05-01T10:00:01.250Z"}

            """
        let transport = Self.streaming(body, contentType: "application/jsonl")
        let answer = try await Self.client(transport).send(StreamsAPI.FollowPrices(symbol: "ACME"))
        var prices: [StreamsAPI.FollowPrices.Element] = []
        for try await price in StreamsAPI.FollowPrices.elements(of: answer.value) { prices.append(price) }
        #expect(prices.map(\.price) == [10.5, 10.75])
        #expect(prices.last?.at == Date(timeIntervalSince1970: 1_714_557_601.25))
        let request = try #require(transport.requests.first)
        #expect(request.headerFields[.accept] == "application/jsonl" && request.query == "symbol=ACME")
    }

    @Test("application/x-ndjson described as an array: each line is one trade")
    func ndjson() async throws {
        let transport = Self.streaming(
            "{\"id\":\"t1\",\"quantity\":3}\r\n{\"id\":\"t2\",\"quantity\":5}",
            contentType: "application/x-ndjson"
        )
        let answer = try await Self.client(transport).send(StreamsAPI.FollowTrades())
        var trades: [StreamsAPI.Trade] = []
        for try await trade in StreamsAPI.FollowTrades.elements(of: answer.value) { trades.append(trade) }
        #expect(trades.map(\.id) == ["t1", "t2"] && trades.map(\.quantity) == [3, 5])
        #expect(transport.requests.first?.headerFields[.accept] == "application/x-ndjson")
    }

    @Test("application/json-seq: records of the inline item schema; a record cut short is skipped")
    func jsonSequence() async throws {
        let body = "\u{1E}{\"sequence\":1,\"price\":2.5}\n\u{1E}{\"sequence\":2\u{1E}{\"sequence\":3}\n"
        let transport = Self.streaming(body, contentType: "application/json-seq")
        let answer = try await Self.client(transport).send(StreamsAPI.FollowTicks())
        var ticks: [StreamsAPI.FollowTicksElement] = []
        for try await tick in StreamsAPI.FollowTicks.elements(of: answer.value) { ticks.append(tick) }
        #expect(ticks.map(\.sequence) == [1, 3] && ticks.first?.price == 2.5)
        #expect(transport.requests.first?.headerFields[.accept] == "application/json-seq")
    }

    @Test("text/event-stream with a JSON data schema: the values are the events' data, decoded")
    func typedEvents() async throws {
        let body = "event: token\ndata: {\"text\":\"Hel\"}\n\n: a comment\nid: 2\ndata: {\"text\":\"lo\",\ndata: \"final\":true}\n\n"
        let transport = Self.streaming(body, contentType: "text/event-stream; charset=utf-8")
        let answer = try await Self.client(transport).send(StreamsAPI.FollowAnswer(id: "a/1"))
        var tokens: [StreamsAPI.Token] = []
        for try await token in StreamsAPI.FollowAnswer.elements(of: answer.value) { tokens.append(token) }
        #expect(tokens.map(\.text) == ["Hel", "lo"] && tokens.last?.final == true)
        let request = try #require(transport.requests.first)
        #expect(request.headerFields[.accept] == "text/event-stream" && request.pathWithoutQuery == "/streams/answers/a%2F1")
    }

    @Test("text/event-stream: an event whose data does not decode ends the values with a decoding error")
    func undecodableEvent() async throws {
        let transport = Self.streaming("data: {\"text\":\"ok\"}\n\ndata: [DONE]\n\n", contentType: "text/event-stream")
        let answer = try await Self.client(transport).send(StreamsAPI.FollowAnswer(id: "1"))
        var tokens: [String] = []
        await #expect {
            for try await token in StreamsAPI.FollowAnswer.elements(of: answer.value) { tokens.append(token.text) }
        } throws: {
            ($0 as? SwitchyardError)?.code == .decoding
        }
        #expect(tokens == ["ok"])
    }

    @Test("text/event-stream through client.events: the Element type decodes each event's data")
    func eventsWithElement() async throws {
        let transport = Self.streaming("id: 7\ndata: {\"text\":\"hi\"}\n\n", contentType: "text/event-stream")
        let events = try await Self.client(transport).events(StreamsAPI.FollowAnswer(id: "1"))
        var texts: [String] = []
        for try await event in events.value {
            texts.append(try event.decodeData(as: StreamsAPI.FollowAnswer.Element.self).text)
            #expect(event.id == "7")
        }
        #expect(texts == ["hi"])
    }

    @Test("text/event-stream of text: the values are the events themselves")
    func untypedEvents() async throws {
        let transport = Self.streaming("data: first line\ndata: second\n\nevent: rotate\ndata: x\n\n", contentType: "text/event-stream")
        let answer = try await Self.client(transport).send(StreamsAPI.TailLog())
        var events: [ServerSentEvent] = []
        for try await event in StreamsAPI.TailLog.elements(of: answer.value) { events.append(event) }
        #expect(events == [ServerSentEvent(data: "first line\nsecond"), ServerSentEvent(type: "rotate", data: "x")])
        #expect(StreamsAPI.TailLog.Element.self == ServerSentEvent.self)
    }

    @Test("a documented error status is refused before the stream and its body decodes as the documented error")
    func errorBeforeTheStream() async throws {
        let transport = MockTransport(.json(#"{"message":"sign in"}"#, status: .unauthorized))
        await #expect {
            _ = try await Self.client(transport).send(StreamsAPI.FollowPrices(symbol: "ACME"))
        } throws: { error in
            guard case .unauthorized(let problem)? = StreamsAPI.FollowPrices.errorBody(of: error) else { return false }
            return problem.message == "sign in"
        }
    }
}
