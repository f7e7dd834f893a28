import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("The whole result: sent request, raw body, endpoint name and tags")
struct WholeResultTests {
    /// What the server sends: a `null` member the null-stripping stage removes before decoding.
    static let served = Data(#"{"id":7,"name":"Ada","nickname":null}"#.utf8)

    static let server = MockTransport { _, _ in
        Response(status: .ok, headerFields: [.contentType: "application/json"], body: served)
    }

    /// A stage that adds a header field, as a signing or tracing stage would.
    static let stamping = ClosureStage.request(id: "Stamp") { request, _ in
        request.headerFields[HTTPField.Name("X-Stamp")!] = "stamped"
    }

    @Test("the sent request is the one that reached the transport, with what a stage added")
    func sentRequestCarriesStageChanges() async throws {
        let client = try makeClient(stages: [Self.stamping], transport: Self.server)
        let result = try await client.send(GetUser(id: "7"))
        let sent = try #require(result.sentRequest)
        #expect(sent.headerFields[HTTPField.Name("X-Stamp")!] == "stamped")
        #expect(sent.url?.absoluteString == "https://api.example.com/users/7")
    }

    @Test("the sent request's description never shows a credential")
    func descriptionRedacts() async throws {
        let client = try makeClient(transport: Self.server)
        let options = CallOptions(headerFields: [.authorization: "Bearer SECRET-bearer-1", HTTPField.Name("X-Api-Key")!: "SECRET-key-2"])
        let result = try await client.send(
            .users,
            .get,
            "/me",
            parameters: ["access_token": "SECRET-query-3", "page": 2],
            options: options
        )
        let sent = try #require(result.sentRequest)
        #expect(sent.headerFields[.authorization] == "Bearer SECRET-bearer-1")  // the value itself is what was sent
        for text in [sent.description, "\(sent)", String(reflecting: sent)] {
            #expect(!text.contains("SECRET"))
            #expect(text.contains("<redacted>"))
            #expect(text.hasPrefix("GET https://api.example.com/me?"))
            #expect(text.contains("page=2"))
        }
    }

    @Test("the raw body is absent unless asked for")
    func rawBodyOffByDefault() async throws {
        let client = try makeClient(transport: Self.server)
        let result = try await client.send(GetUser(id: "7"))
        #expect(result.rawBody == nil)
    }

    @Test("a call that asks keeps the bytes the server sent, though a stage rewrote them for decoding")
    func rawBodyPerCall() async throws {
        let client = try makeClient(stages: [NullStrippingStage()], transport: Self.server)
        var options = CallOptions()
        options.keepsRawBody = true
        let result = try await client.send(.users, .get, "/users/7", options: options)
        #expect(result.rawBody == Self.served)
        #expect(!result.value.bodyText.contains("nickname"))  // what decoding saw was rewritten
    }

    @Test("a service keeps raw bodies for all its calls; one call can still decline")
    func rawBodyPerService() async throws {
        let client = try makeClient(stages: [NullStrippingStage()], defaults: ServiceDefaults(keepsRawBody: true), transport: Self.server)
        #expect(try await client.send(GetUser(id: "7")).rawBody == Self.served)
        var options = CallOptions()
        options.keepsRawBody = false
        #expect(try await client.send(GetUser(id: "7"), options: options).rawBody == nil)
    }

    @Test("the raw body is the one the server sent before an encryption-like stage opened it")
    func rawBodyBeforeDecryption() async throws {
        // A stand-in for decryption: the wire carries the JSON reversed.
        let wire = Data(Self.served.reversed())
        let transport = MockTransport { _, _ in Response(status: .ok, body: wire) }
        let opening = ClosureStage.response(id: "Open") { response, _, _ in
            response.bytes = Data(response.bytes.reversed())
        }
        let client = try makeClient(stages: [opening], defaults: ServiceDefaults(keepsRawBody: true), transport: transport)
        let result = try await client.send(GetUser(id: "7"))
        #expect(result.value == User(id: 7, name: "Ada"))
        #expect(result.rawBody == wire)
    }

    @Test("the endpoint's name and the call's tags are on the result")
    func nameAndTags() async throws {
        let client = try makeClient(transport: Self.server)
        let result = try await client.send(GetUser(id: "7"), options: CallOptions(tags: ["profile", "screen"]))
        #expect(result.endpointName == "GetUser")
        #expect(result.tags == ["profile", "screen"])
        let mapped = result.map(\.name)
        #expect(mapped.endpointName == "GetUser" && mapped.tags == ["profile", "screen"] && mapped.sentRequest != nil)
        let dynamic = try await client.send(.users, .get, "/users/{id}", pathParameters: ["id": "7"])
        #expect(dynamic.endpointName == "GET /users/{id}")
        #expect(dynamic.tags.isEmpty)
    }

    @Test("an answer from the cache has no sent request and no raw body: nothing reached the transport")
    func cacheHitSentNothing() async throws {
        let client = try makeClient(stages: [CacheStage(cache: try ResponseCache())], transport: Self.server)
        var options = CallOptions()
        options.cache(.cacheElseNetwork(maxAge: .seconds(600)))
        options.keepsRawBody = true
        let first = try await client.send(.users, .get, "/users/7", options: options)
        #expect(first.sentRequest != nil && first.rawBody == Self.served)
        let hit = try await client.send(.users, .get, "/users/7", options: options)
        #expect(hit.source == .memoryCache)
        #expect(hit.sentRequest == nil)
        #expect(hit.rawBody == nil)
    }
}
