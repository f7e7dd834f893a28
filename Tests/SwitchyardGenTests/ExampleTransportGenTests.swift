import Foundation
import HTTPTypes
import Switchyard
import SwitchyardGenCore
import SwitchyardTesting
import Testing

/// Generated endpoints expose the examples their document gives, per status and media type, and an
/// `ExampleTransport` built from a service's generated list answers the generated endpoints with them.
@Suite("Examples from descriptions")
struct ExampleTransportGenTests {
    static func client(_ transport: ExampleTransport) throws -> APIClient {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try ShelterAPI.registerShelter(
            in: registry,
            transport: transport,
            outerStages: [CacheStage(cache: try ResponseCache())],
            innerStages: [OpenAPIRoundTripTests.encryption]
        )
        return APIClient(registry: registry)
    }

    @Test("an OpenAPI document's examples map, media-type example and schema examples become the endpoints' examples")
    func openAPIExamples() {
        let examples = GetAnimal.examples
        #expect(examples.map(\.status.code) == [200, 200, 404])
        #expect(examples.allSatisfy { $0.headerFields[.contentType] == "application/json" })
        #expect(
            examples.first?.bodyText
                == #"{"admittedAt":"2024-05-01T10:00:00Z","id":7,"name":"Rex","species":"dog","status":"available"}"#
        )
        #expect(examples.last?.bodyText == #"{"code":404,"message":"No animal has this id."}"#)
        // admitAnimal's responses refer to the Animal and Problem schemas, whose `example` answers.
        #expect(AdmitAnimal.examples.map(\.status.code) == [201, 422])
        #expect(ShelterAPI.shelterExamples.map { "\($0.method) \($0.path)" } == ["POST /animals", "GET /animals/{animalId}"])
    }

    @Test("the description format's examples: JSON per status, keys sorted, scalars kept as typed")
    func descriptionFormatExamples() {
        let examples = CreateTrack.examples
        #expect(examples.map(\.status.code) == [201, 422])
        #expect(examples.first?.bodyText == #"{"id":1,"tags":{"genre":"ambient"},"title":"Intro"}"#)
        #expect(
            examples.last?.bodyText
                == #"{"code":422,"fields":["title"],"hint":null,"message":"The title is empty.","retry":false,"score":0.5}"#
        )
        #expect(StudioAPI.studioExamples.map(\.path) == ["/tracks"])
    }

    @Test("a generated endpoint is answered from its first 2xx example and decodes as from the server")
    func generatedEndpointAnswered() async throws {
        let client = try Self.client(ExampleTransport(ShelterAPI.shelterExamples))
        let result = try await client.send(GetAnimal(animalId: 7))
        #expect(result.value.name == "Rex")
        #expect(result.value.species == .dog)
        #expect(result.source == .example)
    }

    @Test("choosing 404 previews the error state: the documented error body decodes from the failure")
    func errorStatePreview() async throws {
        let client = try Self.client(ExampleTransport(ShelterAPI.shelterExamples, status: .notFound))
        let error = await #expect(throws: SwitchyardError.self) { try await client.send(GetAnimal(animalId: 7)) }
        #expect(error?.status == .notFound)
        guard let error, case .notFound(let problem) = GetAnimal.errorBody(of: error) else {
            Issue.record("the 404 example did not decode as the documented Problem")
            return
        }
        #expect(problem.message == "No animal has this id.")
    }

    @Test("an operation without examples is not matched: its call fails with noExample")
    func operationWithoutExamples() async throws {
        let client = try Self.client(ExampleTransport(ShelterAPI.shelterExamples))
        let error = await #expect(throws: SwitchyardError.self) {
            try await client.send(ReleaseAnimal(animalId: 7, xReason: ["moved"]))
        }
        #expect(error?.code == .noExample)
    }

    static let document = """
        openapi: 3.1.0
        info: { title: Notes, version: 1.0.0 }
        servers: [{ url: 'https://notes.example.com' }]
        paths:
          /notes/{id}:
            get:
              operationId: getNote
              parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
              responses:
                '200':
                  description: A note.
                  content:
                    application/json:
                      schema: { type: object, properties: { text: { type: string } } }
                      examples:
                        remote: { externalValue: 'https://notes.example.com/examples/note.json' }
                        serialized: { serializedValue: '{ "text" : "hi" }' }
                    text/plain:
                      schema: { type: string }
                      example: hello
                    application/xml:
                      schema: { type: object }
                      example: { note: 1 }
                '4XX':
                  description: A problem.
                  content:
                    application/json:
                      schema: { type: object }
                      example: { code: 4 }
        """

    @Test("externalValue and non-text examples are left out with a warning; ranges are left out; serialized JSON is rewritten")
    func leftOutWithWarnings() throws {
        let output = try SwitchyardGenerator.generate(yaml: Self.document, file: "Notes.openapi.yaml")
        let messages = output.warnings.map(\.message)
        #expect(messages.contains { $0.contains("'remote' is an 'externalValue'") })
        #expect(messages.contains { $0.contains("an example of 'application/xml' is not text") })
        #expect(messages.count == 2, "\(messages)")
        #expect(
            output.swift.contains(
                #"Response(status: 200, headerFields: [.contentType: "application/json"], body: Data("{\"text\":\"hi\"}".utf8)),"#
            )
        )
        #expect(output.swift.contains(#"Response(status: 200, headerFields: [.contentType: "text/plain"], body: Data("hello".utf8)),"#))
        #expect(!output.swift.contains(#"\"code\":4"#))
        #expect(output.swift.contains("static let notesExamples: [ExampleTransport.Operation] = ["))
    }

    @Test("a description file's example that is not JSON is an error at its line")
    func descriptionFormatRefusesNonJSON() {
        let text = """
            version: 1
            services:
              notes:
                environments: { release: 'https://notes.example.com' }
                endpoints:
                  GetNote:
                    path: /notes
                    response: raw
                    examples:
                      200: { score: .nan }
                      ok: {}
            """
        #expect {
            try SwitchyardGenerator.generate(yaml: text, file: "Notes.switchyard.yaml")
        } throws: { error in
            let text = "\(error)"
            return text.contains("Notes.switchyard.yaml:10:") && text.contains("is not JSON") && text.contains("'ok' is not an HTTP status")
        }
    }
}
