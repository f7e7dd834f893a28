import Foundation
import HTTPTypes
import Switchyard
import SwitchyardGenCore
import SwitchyardTesting
import Testing

/// The description format declares streamed answers as OpenAPI does: `response: { stream: <media type>,
/// element: <type> }`. The endpoints the build plugin generated from `Streams/Ticker.switchyard.yaml` are
/// compiled into this target and called through `MockTransport` answering with a stream in small chunks.
@Suite("Description format: streamed answers")
struct DescriptionStreamTests {
    static func client(_ transport: MockTransport) throws -> APIClient {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try TickerAPI.registerTicker(in: registry, transport: transport)
        return APIClient(registry: registry)
    }

    static func describe(_ response: String) -> String {
        """
        services:
          ticker:
            environments: { develop: "http://127.0.0.1:8080" }
            endpoints:
              Follow:
                path: /follow
                response: \(response)
        models:
          Quote:
            fields:
              price: double
        """
    }

    @Test("JSON Lines of a model: the values arrive typed and the call accepts JSON Lines")
    func jsonLines() async throws {
        let transport = OpenAPIStreamRoundTripTests.streaming(
            "{\"symbol\":\"ACME\",\"price\":10.5}\n{\"symbol\":\"ACME\",\"price\":10.75}\n",
            contentType: "application/jsonl"
        )
        let answer = try await Self.client(transport).send(FollowQuotes(symbol: "ACME"))
        var quotes: [FollowQuotes.Element] = []
        for try await quote in FollowQuotes.elements(of: answer.value) { quotes.append(quote) }
        #expect(quotes == [Quote(symbol: "ACME", price: 10.5), Quote(symbol: "ACME", price: 10.75)])
        let request = try #require(transport.requests.first)
        #expect(request.headerFields[.accept] == "application/jsonl" && request.query == "symbol=ACME")
    }

    @Test("Server-Sent Events whose data is a model, and the events themselves")
    func events() async throws {
        let typed = OpenAPIStreamRoundTripTests.streaming(
            "data: {\"title\":\"Up\"}\n\ndata: {\"title\":\"Down\",\"urgent\":true}\n\n",
            contentType: "text/event-stream"
        )
        let headlines = try await Self.client(typed).send(FollowHeadlines())
        var titles: [String] = []
        for try await headline in FollowHeadlines.elements(of: headlines.value) { titles.append(headline.title) }
        #expect(titles == ["Up", "Down"] && typed.requests.first?.headerFields[.accept] == "text/event-stream")

        let plain = OpenAPIStreamRoundTripTests.streaming("event: open\ndata: bell\n\n", contentType: "text/event-stream")
        let answer = try await Self.client(plain).send(FollowMarketEvents())
        var events: [ServerSentEvent] = []
        for try await event in FollowMarketEvents.elements(of: answer.value) { events.append(event) }
        #expect(events == [ServerSentEvent(type: "open", data: "bell")])
    }

    @Test("a streamed response is read into the description with its media type and element")
    func parsed() throws {
        let description = try DescriptionParser.parse(
            yaml: Self.describe("{ stream: application/json-seq, element: Quote }"),
            file: "T.switchyard.yaml"
        )
        #expect(
            description.services.first?.endpoints.first?.response == .stream(mediaType: "application/json-seq", element: .model("Quote"))
        )
        let output = try SwitchyardGenerator.generate(
            yaml: Self.describe("{ stream: application/x-ndjson, element: \"[Quote]\" }"),
            file: "T.switchyard.yaml"
        )
        #expect(
            output.swift.contains("typealias Output = Switchyard.ResponseStream") && output.swift.contains("jsonLines(of: [Quote].self")
        )
        #expect(output.markdown.contains("streamed `application/x-ndjson`"))
    }

    @Test(
        "mistakes in a streamed response are errors at their place",
        arguments: [
            (
                "{ stream: text/plain }",
                "T.switchyard.yaml:7:29: error: 'text/plain' is not a streamed media type: write one of application/json-seq, application/jsonl, application/x-ndjson, text/event-stream"
            ),
            (
                "{ stream: application/jsonl }",
                "T.switchyard.yaml:7:19: error: a 'application/jsonl' stream needs 'element', the type of each value"
            ),
            (
                "{ element: Quote }",
                "T.switchyard.yaml:7:19: error: a 'response' mapping declares a streamed answer: it needs 'stream', its media type"
            ),
            ("{ stream: text/event-stream, element: Quot }", "T.switchyard.yaml:5:7: error:"),
            ("{ stream: text/event-stream, of: Quote }", "T.switchyard.yaml:7:48: error: unknown key 'of' in 'response'"),
        ]
    )
    func mistakes(response: String, expected: String) {
        let errors = OpenAPIDiagnosticsTests.errors(Self.describe(response), file: "T.switchyard.yaml")
        #expect(errors.count == 1 && errors.first?.hasPrefix(expected) == true, "\(errors)")
    }
}
