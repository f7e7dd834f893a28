import Foundation
import HTTPTypes
import Switchyard
import SwitchyardGenCore
import SwitchyardTesting
import Testing

/// The endpoints the build plugin generated from `Petstore.switchyard.yaml` for this target, sent
/// through a registry set up by the generated helpers: method, path, parameters and options must be
/// what the description says.
@Suite("Generated endpoints round-trip")
struct RoundTripTests {
    static let description: APIDescription = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Petstore.switchyard.yaml")
        do {
            return try DescriptionParser.parse(yaml: String(contentsOf: url, encoding: .utf8), file: url.path)
        } catch {
            fatalError("the fixture does not parse: \(error)")
        }
    }()

    /// A stage that stands in for an encryption stage (the registration checks for one by name).
    static let encryption = ClosureStage(id: "Encryption") { request, context, next in try await next(request, context) }

    static func client(_ transport: MockTransport) throws -> APIClient {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try PetstoreAPI.registerPets(in: registry, transport: transport, outerStages: [CacheStage(cache: try ResponseCache())])
        try PetstoreAPI.registerBilling(in: registry, transport: transport, innerStages: [encryption])
        return APIClient(registry: registry)
    }

    static func envelope(_ result: String) -> MockResponse {
        .json(#"{"status":"OK","message":"fine","result":\#(result)}"#)
    }

    static func endpoint(_ name: String) throws -> APIDescription.Endpoint {
        try #require(description.services.flatMap(\.endpoints).first { $0.name == name })
    }

    static func json(_ data: Data?) throws -> [String: Any] {
        let bytes = try #require(data)
        let object = try JSONSerialization.jsonObject(with: bytes)
        return try #require(object as? [String: Any])
    }

    @Test("every generated endpoint has the described service, method, path, name, timeout and tags")
    func matchesTheDescription() throws {
        let instances: [String: any Endpoint] = [
            "ListPets": ListPets(), "GetPet": GetPet(petId: 1),
            "CreatePet": CreatePet(owner: "o", nameParameter: "n", xIdempotencyKey: "k"),
            "UpdateNickname": UpdateNickname(id: 1, nickname: "x"), "DownloadPhoto": DownloadPhoto(id: 1), "Charge": Charge(amountCents: 1),
        ]
        var seen = 0
        for service in Self.description.services {
            for described in service.endpoints {
                let generated = try #require(instances[described.name], "no instance for \(described.name)")
                let serviceID = generated.service.rawValue
                let method = generated.method.rawValue
                let path = generated.path
                let name = generated.name
                let options = generated.options
                let timeout: Duration? = described.options.timeout.map { .milliseconds(Int($0 * 1000)) }
                let tags = Set(described.options.tags.map { RequestTag($0) })
                #expect(serviceID == service.id)
                #expect(method == described.method)
                #expect(path == described.path)
                #expect(name == described.name)
                #expect(options.timeout == timeout)
                #expect(options.tags == tags)
                seen += 1
            }
        }
        #expect(seen == instances.count)
    }

    @Test(
        "the registration helpers register the described base URLs, retry stage and envelope; cache policies and encryption need their stages"
    )
    func registration() throws {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        #expect { try PetstoreAPI.registerPets(in: registry, transport: MockTransport(.status(.ok))) } throws: { error in
            (error as? SwitchyardError)?.message.contains("no CacheStage") == true
        }
        try PetstoreAPI.registerPets(
            in: registry,
            transport: MockTransport(.status(.ok)),
            outerStages: [CacheStage(cache: try ResponseCache())],
            baseURLs: [.develop: "http://127.0.0.1:9/pets"]
        )
        #expect(try registry.baseURL(for: .pets) == "http://127.0.0.1:9/pets")
        #expect(PetstoreAPI.petsBaseURLs[.release] == "https://pets.example/v1")
        #expect(try registry.pipeline(for: .pets).stageIDs.map(\.rawValue) == ["Retry", "Cache", "Envelope"])
        #expect { try PetstoreAPI.registerBilling(in: registry, transport: MockTransport(.status(.ok))) } throws: { error in
            (error as? SwitchyardError)?.message.contains("no Encryption stage") == true
        }
    }

    @Test("ListPets: query parameters with a default, an array and optionals; a header; the described options reach the call")
    func listPets() async throws {
        let transport = MockTransport(
            Self.envelope(#"[{"id":7,"name":"Rex","species":"dog","birth_date":null,"tags":["good"],"default":true}]"#)
        )
        let result = try await Self.client(transport).send(ListPets(species: "dog", tags: ["a b", "c"], xRequestTrace: "t-1"))
        #expect(result.value.first?.name == "Rex" && result.value.first?.birthDate == nil && result.value.first?.default == true)
        let request = try #require(transport.requests.first)
        #expect(request.method == .get && request.pathWithoutQuery == "/pets-api/pets")
        let query = String(request.query ?? "")
        #expect(
            query.contains("species=dog") && query.contains("page=1") && query.contains("tags%5B%5D=a%20b") && !query.contains("adopted")
        )
        #expect(request.headerFields[HTTPField.Name("X-Request-Trace")!] == "t-1")
        let context = try #require(transport.contexts.first)
        #expect(context.timeout == .milliseconds(2500) && context.tags == ["pets", "list"])
        #expect(context[RetryStage.MaxAttempts.self] == 4)
        #expect(context[CacheStage.CallPolicy.self] == .cacheElseNetwork(maxAge: .seconds(90)))
        #expect(ListPets().options.sameRequest == .coalesce)
    }

    @Test("retries: ListPets is retried as described, GetPet is not")
    func retries() async throws {
        let flaky = MockTransport(sequence: [.status(.serviceUnavailable), .status(.serviceUnavailable), Self.envelope("[]")])
        let result = try await Self.client(flaky).send(ListPets())
        #expect(result.attempts == 3)
        let once = MockTransport(sequence: [
            .status(.serviceUnavailable), Self.envelope(#"{"id":1,"name":"a","species":"cat","tags":[],"default":false}"#),
        ])
        await #expect(throws: SwitchyardError.self) { _ = try await Self.client(once).send(GetPet(petId: 1)) }
        #expect(once.requestCount == 1)
    }

    @Test(
        "CreatePet: a path parameter, a JSON body from the body parameters, a query parameter, a required header; encrypted: false on an unencrypted service skips nothing"
    )
    func createPet() async throws {
        let transport = MockTransport(
            Self.envelope(#"{"id":9,"name":"Tom","species":"cat","tags":[],"owner":{"handle":"ann","pets_count":2},"default":false}"#)
        )
        let result = try await Self.client(transport).send(
            CreatePet(owner: "ann", nameParameter: "Tom", weight: 4.5, dryRun: true, xIdempotencyKey: "k-1")
        )
        #expect(result.value.owner == Owner(handle: "ann", petsCount: 2))
        let request = try #require(transport.requests.first)
        #expect(request.method == .post && request.pathWithoutQuery == "/pets-api/owners/ann/pets" && request.query == "dryRun=true")
        let body = try Self.json(request.body?.bytes)
        #expect(
            body["name"] as? String == "Tom" && body["weight"] as? Double == 4.5 && body["vaccinated"] as? Bool == false && body.count == 3
        )
        #expect(request.headerFields[HTTPField.Name("X-Idempotency-Key")!] == "k-1")
        #expect(transport.contexts.first?.skippedStages.isEmpty == true)  // the pets service has no encryption stage to skip
        #expect(CreatePet(owner: "o", nameParameter: "n", xIdempotencyKey: "k").options.sameRequest == .refuseNew)
        let described = try Self.endpoint("CreatePet")
        #expect(described.parameters.filter { $0.location == .body }.map(\.name).sorted() == body.keys.sorted())
    }

    @Test("UpdateNickname: a form body and no output; DownloadPhoto: raw bytes; Charge: a JSON body with a default and an array")
    func otherShapes() async throws {
        let form = MockTransport(Self.envelope("null"))
        _ = try await Self.client(form).send(UpdateNickname(id: 3, nickname: "Fluffy & co"))
        let formRequest = try #require(form.requests.first)
        #expect(formRequest.method == .put && formRequest.pathWithoutQuery == "/pets-api/pets/3/nickname")
        #expect(formRequest.bodyText == "nickname=Fluffy%20%26%20co" || formRequest.bodyText == "nickname=Fluffy+%26+co")
        #expect(formRequest.headerFields[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true)

        let photo = MockTransport(Self.envelope(#""cGhvdG8=""#))
        let bytes = try await Self.client(photo).send(DownloadPhoto(id: 3))
        #expect(String(decoding: bytes.value, as: UTF8.self) == #""cGhvdG8=""#)
        #expect(photo.requests.first?.query == "size=512")

        let charge = MockTransport(.json(#"{"id":"r1","total_cents":300,"lines":[{"item":1,"amount_cents":300}]}"#))
        let receipt = try await Self.client(charge).send(Charge(amountCents: 300, items: [1]))
        #expect(receipt.value.lines == [ReceiptLine(item: 1, amountCents: 300)])
        let body = try Self.json(charge.requests.first?.body?.bytes)
        #expect(body["amount_cents"] as? Int == 300 && body["currency"] as? String == "EUR" && body["items"] as? [Int] == [1])
    }
}
