import Foundation
import SwitchyardGenCore
import Testing

/// What the generator makes of streamed answers: `Streams/Streams.openapi.yaml` against its golden files,
/// each of the four media types' endpoint and value type, the choice between JSON and a stream, and
/// hostile documents (odd media type parameters, a cycle behind an item schema, a content schema that is
/// no schema), which give located errors or sane output.
@Suite("OpenAPI streamed endpoints")
struct OpenAPIStreamTests {
    static let fixture = GoldenTests.directory.appendingPathComponent("Streams/Streams.openapi.yaml")

    static func fixtureText() throws -> String { try String(contentsOf: fixture, encoding: .utf8) }

    /// A 3.2 document with one `GET /items` operation whose 200 answer has `content`, and `components`.
    static func document(content: String, components: String = "{}", version: String = "3.2.0") -> String {
        """
        openapi: \(version)
        info: {title: Feed, version: '1'}
        servers: [{url: 'https://feed.example/api'}]
        paths:
          /items:
            get:
              operationId: items
              responses:
                '200':
                  description: ok
                  content:
        \(content.split(separator: "\n").map { "            " + $0 }.joined(separator: "\n"))
        components:
          schemas: \(components)
        """
    }

    static func endpoint(_ text: String) throws -> (response: APIDescription.Response, warnings: [String]) {
        let description = try OpenAPIImporter.parse(text: text, file: "Feed.openapi.yaml")
        let endpoint = try #require(description.services.first?.endpoints.first)
        return (endpoint.response, description.warnings.map(\.description))
    }

    @Test("Streams.openapi.yaml's Swift and Markdown match their golden files, without warnings")
    func golden() throws {
        let output = try SwitchyardGenerator.generate(yaml: Self.fixtureText(), file: "Streams.openapi.yaml")
        #expect(output.warnings.isEmpty, "\(output.warnings)")
        try GoldenTests.compare(output.swift, golden: "StreamsAPI.swift.golden")
        try GoldenTests.compare(output.markdown, golden: "StreamsAPI.md.golden")
    }

    @Test("each of the four media types makes a streamed endpoint with the document's value type")
    func fourMediaTypes() throws {
        let description = try OpenAPIImporter.parse(text: Self.fixtureText(), file: "Streams.openapi.yaml")
        let responses = Dictionary(uniqueKeysWithValues: (description.services.first?.endpoints ?? []).map { ($0.name, $0.response) })
        #expect(responses["FollowPrices"] == .stream(mediaType: "application/jsonl", element: .model("Price")))
        #expect(responses["FollowTrades"] == .stream(mediaType: "application/x-ndjson", element: .model("Trade")))
        #expect(responses["FollowTicks"] == .stream(mediaType: "application/json-seq", element: .model("FollowTicksElement")))
        #expect(responses["FollowAnswer"] == .stream(mediaType: "text/event-stream", element: .model("Token")))
        #expect(responses["TailLog"] == .stream(mediaType: "text/event-stream", element: nil))
    }

    @Test("the generated endpoint streams, accepts its media type and decodes with the runtime's decoder for it")
    func generatedMembers() throws {
        let swift = try SwitchyardGenerator.generate(yaml: Self.fixtureText(), file: "Streams.openapi.yaml").swift
        #expect(swift.components(separatedBy: "typealias Output = Switchyard.ResponseStream").count == 6)
        for mediaType in ["application/jsonl", "application/x-ndjson", "application/json-seq", "text/event-stream"] {
            #expect(swift.contains("var acceptedMediaType: String? { \"\(mediaType)\" }"), "\(mediaType)")
        }
        #expect(swift.contains("stream.jsonLines(of: Price.self, decoder: decoder)"))
        #expect(swift.contains("stream.jsonLines(of: Trade.self, decoder: decoder)"))
        #expect(swift.contains("stream.jsonSequence(of: FollowTicksElement.self, decoder: decoder)"))
        #expect(swift.contains("try event.decodeData(as: Token.self, decoder: decoder)"))
        #expect(swift.contains("typealias Element = Switchyard.ServerSentEvent"))
        // The document has dates: the values decode with the service's decoder unless given another.
        #expect(swift.contains("decoder: JSONDecoder = StreamsAPI.makeDecoder()"))
    }

    @Test("without a schema, JSON Lines values are any JSON value; an event stream's are its events")
    func withoutSchemas() throws {
        #expect(
            try Self.endpoint(Self.document(content: "application/jsonl: {}")).response
                == .stream(mediaType: "application/jsonl", element: .model("JSONValue"))
        )
        #expect(
            try Self.endpoint(Self.document(content: "text/event-stream: {}")).response
                == .stream(mediaType: "text/event-stream", element: nil)
        )
        let itemless = Self.document(content: "text/event-stream:\n  itemSchema: {type: object, properties: {data: {type: string}}}")
        #expect(try Self.endpoint(itemless).response == .stream(mediaType: "text/event-stream", element: nil))
    }

    @Test("an event's data typed by a reference, and an item schema that is a component")
    func eventDataShapes() throws {
        let components =
            "{Token: {type: object, properties: {text: {type: string}}}, Event: {type: object, properties: {data: {$ref: '#/components/schemas/Token'}}}}"
        let direct = Self.document(
            content: "text/event-stream:\n  itemSchema: {$ref: '#/components/schemas/Event'}",
            components: components
        )
        #expect(try Self.endpoint(direct).response == .stream(mediaType: "text/event-stream", element: .model("Token")))
    }

    @Test("odd media types: parameters, capitals and spaces still name the stream; the Accept field has none of them")
    func oddMediaTypes() throws {
        for key in [
            "'text/event-stream; charset=utf-8'", "'Text/Event-Stream;charset=UTF-8;;'", "'application/JSONL ; q=0.5'",
            "'application/x-ndjson;=;'",
        ] {
            let (response, warnings) = try Self.endpoint(Self.document(content: "\(key): {}"))
            guard case .stream(let mediaType, _) = response else {
                Issue.record("\(key): \(response)")
                continue
            }
            #expect(["text/event-stream", "application/jsonl", "application/x-ndjson"].contains(mediaType), "\(key)")
            #expect(warnings.isEmpty, "\(key): \(warnings)")
        }
        // A streaming-looking type that is not one of the four stays raw bytes.
        #expect(try Self.endpoint(Self.document(content: "'text/event-streams': {}")).response == .raw)
    }

    @Test("JSON wins over a stream offered beside it, with a warning at the stream; a stream without JSON wins over raw bytes")
    func jsonOrStream() throws {
        let both = Self.document(content: "application/json: {schema: {type: string}}\ntext/event-stream: {}")
        let (response, warnings) = try Self.endpoint(both)
        #expect(response == .decoded(.scalar(.string)))
        #expect(warnings.count == 1 && warnings.first?.contains("answers JSON or 'text/event-stream'") == true, "\(warnings)")
        let raw = Self.document(content: "application/octet-stream: {}\napplication/jsonl: {itemSchema: {type: integer}}")
        #expect(try Self.endpoint(raw).response == .stream(mediaType: "application/jsonl", element: .scalar(.int)))
    }

    @Test("an item schema behind a $ref cycle is a located error, not a crash or a hang")
    func referenceCycle() {
        let text = Self.document(
            content: "application/jsonl: {itemSchema: {$ref: '#/components/schemas/A'}}",
            components: "{A: {$ref: '#/components/schemas/B'}, B: {$ref: '#/components/schemas/A'}}"
        )
        #expect {
            _ = try OpenAPIImporter.parse(text: text, file: "Feed.openapi.yaml")
        } throws: { error in
            (error as? DescriptionErrors)?.errors.contains { $0.message.contains("another name for itself") } == true
        }
    }

    @Test("an item schema that holds itself through a property is generated (boxed)")
    func selfContainingItem() throws {
        let text = Self.document(
            content: "application/json-seq: {itemSchema: {$ref: '#/components/schemas/Node'}}",
            components: "{Node: {type: object, properties: {next: {$ref: '#/components/schemas/Node'}}}}"
        )
        let output = try SwitchyardGenerator.generate(yaml: text, file: "Feed.openapi.yaml")
        #expect(output.swift.contains("stream.jsonSequence(of: Node.self, decoder: decoder)"))
    }

    @Test("unreadable item schemas fall back with a warning: a reference elsewhere, a content schema that is no schema")
    func unreadableItemSchemas() throws {
        let elsewhere = Self.document(content: "application/jsonl: {itemSchema: {$ref: 'other.yaml#/Item'}}")
        let (response, warnings) = try Self.endpoint(elsewhere)
        #expect(response == .stream(mediaType: "application/jsonl", element: .model("JSONValue")))
        #expect(warnings.contains { $0.contains("only '#/components/schemas/") }, "\(warnings)")
        let noSchema = Self.document(
            content: "text/event-stream:\n  itemSchema: {type: object, properties: {data: {type: string, contentSchema: [1, 2]}}}"
        )
        let (eventResponse, eventWarnings) = try Self.endpoint(noSchema)
        #expect(eventResponse == .stream(mediaType: "text/event-stream", element: nil))
        #expect(eventWarnings.contains { $0.contains("'contentSchema' of the events' data is not a schema") }, "\(eventWarnings)")
        let text = Self.document(
            content:
                "text/event-stream:\n  itemSchema: {type: object, properties: {data: {type: string, contentMediaType: text/plain, contentSchema: {type: object}}}}"
        )
        #expect(try Self.endpoint(text).response == .stream(mediaType: "text/event-stream", element: nil))
    }

    @Test("a 3.1 document's stream is read too, its item schema as well (OpenAPIKit keeps it)")
    func version31() throws {
        let text = Self.document(content: "application/x-ndjson: {schema: {type: integer}}", version: "3.1.0")
        #expect(try Self.endpoint(text).response == .stream(mediaType: "application/x-ndjson", element: .scalar(.int)))
    }

    @Test("a JSON Lines example is answered as one line, a JSON text sequence's as one record")
    func examples() throws {
        let text = Self.document(
            content: "application/json-seq:\n  itemSchema: {type: object, properties: {n: {type: integer}}}\n  example: {n: 1}"
        )
        let description = try OpenAPIImporter.parse(text: text, file: "Feed.openapi.yaml")
        #expect(
            description.services.first?.endpoints.first?.examples == [
                .init(status: 200, mediaType: "application/json-seq", body: "\u{1E}{\"n\":1}\n")
            ]
        )
        #expect(description.warnings.isEmpty)
    }
}
