import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// The endpoints the build plugin generated from `OpenAPI/Shelter.openapi.yaml` and
/// `OpenAPI/Shapes.openapi.json`, sent through `MockTransport`: method, path, parameter placement and
/// style, body and content type as the documents say; responses decoded per status.
@Suite("OpenAPI endpoints round-trip")
struct OpenAPIRoundTripTests {
    /// Stands in for an encryption stage: registration checks for one by name, and opt-in endpoints enable it.
    static let encryption = ClosureStage(id: "Encryption") { request, context, next in try await next(request, context) }

    static func client(_ transport: MockTransport) throws -> APIClient {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try ShelterAPI.registerShelter(
            in: registry,
            transport: transport,
            outerStages: [CacheStage(cache: try ResponseCache())],
            innerStages: [encryption]
        )
        try ShapesAPI.registerShapes(in: registry, transport: transport)
        return APIClient(registry: registry)
    }

    static let animal = #"{"id":7,"name":"Rex","species":"dog","admittedAt":"2024-05-01T10:00:00Z","status":"available"}"#

    @Test(
        "registration needs the stages the document asks for: a cache stage for the cache policy, an encryption stage for the encrypted operation"
    )
    func registration() throws {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        #expect {
            try ShelterAPI.registerShelter(in: registry, transport: MockTransport(.status(.ok)), innerStages: [Self.encryption])
        } throws: {
            ($0 as? SwitchyardError)?.message.contains("no CacheStage") == true
        }
        #expect {
            try ShelterAPI.registerShelter(
                in: registry,
                transport: MockTransport(.status(.ok)),
                outerStages: [CacheStage(cache: try ResponseCache())]
            )
        } throws: {
            ($0 as? SwitchyardError)?.message.contains("no Encryption stage") == true
        }
    }

    @Test("servers become environments: the local one develop, the production one release with its variable's default")
    func environments() {
        #expect(ShelterAPI.shelterBaseURLs == [.develop: "http://127.0.0.1:8080/shelter", .release: "https://eu.shelter.example/v1"])
        #expect(ShapesAPI.shapesBaseURLs == [.release: "https://shapes.example/api", .develop: "http://127.0.0.1:8080/shapes"])
    }

    @Test("listAnimals: a $ref enum, int32, form/explode, form/no-explode and pipeDelimited arrays in the query; a header; options")
    func listAnimals() async throws {
        let body =
            "[\(Self.animal),"
            + #"{"id":8,"name":"Tom","species":"lynx","admittedAt":"2024-05-01T10:00:00.250Z","nickname":null,"status":"lost","attributes":{"coat":"grey"},"age":3,"weight":4.5}]"#
        let transport = MockTransport(.json(body))
        let endpoint = ListAnimals(species: .dog, limit: 10, tags: ["a b", "c"], ids: [1, 2], colors: ["red", "blue"], xRequestID: "r-1")
        let animals = try await Self.client(transport).send(endpoint).value
        let request = try #require(transport.requests.first)
        #expect(request.method == .get && request.pathWithoutQuery == "/shelter/animals")
        #expect(request.query == "species=dog&limit=10&tags=a%20b&tags=c&ids=1,2&colors=red%7Cblue")
        #expect(request.headerFields[HTTPField.Name("X-Request-ID")!] == "r-1")
        #expect(request.headerFields[.accept] == "application/json")
        #expect(animals.count == 2 && animals[0].species == .dog && animals[0].status == .available)
        #expect(animals[1].species == .unknown("lynx") && animals[1].status == .unknown("lost"))
        #expect(animals[1].attributes == ["coat": "grey"] && animals[1].age == 3 && animals[1].weight == 4.5)
        #expect(animals[0].admittedAt == Date(timeIntervalSince1970: 1_714_557_600))
        #expect(animals[1].admittedAt == Date(timeIntervalSince1970: 1_714_557_600.25))
        let context = try #require(transport.contexts.first)
        #expect(context.tags == ["animals"] && context[CacheStage.CallPolicy.self] == .cacheElseNetwork(maxAge: .seconds(60)))
        #expect(endpoint.options.sameRequest == .coalesce)
        let bare = try await Self.client(transport).send(ListAnimals(limit: 1)).value
        #expect(bare.count == 2 && transport.requests.last?.query == "limit=1")
    }

    @Test("admitAnimal: a model as the JSON body; the encrypted operation enables the opt-in stage; retries; 201 decodes")
    func admitAnimal() async throws {
        let transport = MockTransport(.json(Self.animal, status: .created))
        let admitted = try await Self.client(transport).send(AdmitAnimal(payload: NewAnimal(name: "Rex", species: .dog, tags: ["calm"])))
        #expect(admitted.value.id == 7)
        let request = try #require(transport.requests.first)
        #expect(request.method == .post && request.pathWithoutQuery == "/shelter/animals" && request.query == nil)
        #expect(request.headerFields[.contentType] == "application/json")
        let json = try JSONSerialization.jsonObject(with: try #require(request.body?.bytes)) as? [String: Any]
        #expect(json?["name"] as? String == "Rex" && json?["species"] as? String == "dog" && json?["tags"] as? [String] == ["calm"])
        let context = try #require(transport.contexts.first)
        #expect(context.enabledStages.contains(StageID("Encryption")))
        #expect(context[RetryStage.MaxAttempts.self] == 3)
        #expect(GetAnimal(animalId: 1).options.enabledStages.isEmpty)
    }

    @Test("documented error bodies decode from the error's response, by status and by default")
    func errorBodies() async throws {
        let missing = MockTransport(.json(#"{"code":404,"message":"no such animal"}"#, status: .notFound))
        do {
            _ = try await Self.client(missing).send(GetAnimal(animalId: 9))
            Issue.record("a 404 must fail the call")
        } catch {
            let request = try #require(missing.requests.first)
            #expect(request.pathWithoutQuery == "/shelter/animals/9")
            guard case .notFound(let problem)? = GetAnimal.errorBody(of: error) else {
                Issue.record("no documented 404 body in \(error)")
                return
            }
            #expect(problem == Problem(code: 404, message: "no such animal"))
            #expect(AdmitAnimal.errorBody(of: error) == nil, "AdmitAnimal documents only 422")
        }
        let broken = MockTransport(.json(#"{"code":500,"message":"down"}"#, status: .internalServerError))
        do {
            _ = try await Self.client(broken).send(ListAnimals(limit: 1))
            Issue.record("a 500 must fail the call")
        } catch {
            guard case .default(let problem)? = ListAnimals.errorBody(of: error) else {
                Issue.record("no default body in \(error)")
                return
            }
            #expect(problem.message == "down")
        }
    }

    @Test("releaseAnimal: DELETE with a path parameter from the path item and an array header (simple style); the photo as bytes")
    func releaseAndPhoto() async throws {
        let transport = MockTransport(sequence: [.status(.noContent), .json(#"JPEG"#)])
        let client = try Self.client(transport)
        _ = try await client.send(ReleaseAnimal(animalId: 7, xReason: ["adopted", "happy"]))
        let photo = try await client.send(GetAnimalsAnimalIdPhoto(animalId: 7)).value
        let requests = transport.requests
        #expect(requests.count == 2)
        #expect(requests[0].method == .delete && requests[0].pathWithoutQuery == "/shelter/animals/7")
        #expect(requests[0].headerFields[HTTPField.Name("X-Reason")!] == "adopted,happy")
        #expect(requests[1].method == .get && requests[1].pathWithoutQuery == "/shelter/animals/7/photo")
        #expect(photo == Data("JPEG".utf8))
    }

    @Test("findDrawings: deepObject and form/no-explode objects, a spaceDelimited array")
    func findDrawings() async throws {
        let transport = MockTransport(.json("[]"))
        let endpoint = FindDrawings(filter: ShapeFilter(kind: "circle", minArea: 2.5), near: Point(x: 1, y: -2), words: ["big", "red"])
        _ = try await Self.client(transport).send(endpoint)
        let request = try #require(transport.requests.first)
        #expect(request.pathWithoutQuery == "/shapes/drawings")
        #expect(request.query == "filter%5Bkind%5D=circle&filter%5BminArea%5D=2.5&near=x,1,y,-2&words=big%20red")
        _ = try await Self.client(transport).send(FindDrawings(filter: ShapeFilter(minArea: 1)))
        #expect(transport.requests.last?.query == "filter%5BminArea%5D=1.0")
    }

    @Test("oneOf with a discriminator, allOf merged, anyOf tried in order, dictionaries and a recursive type round-trip")
    func shapes() async throws {
        let drawing =
            #"{"id":"d1","shapes":[{"kind":"circle","radius":2},{"kind":"rect","width":1,"height":3,"label":"door"}],"#
            + #""fill":{"from":"red","to":"blue"},"layers":{"top":[{"kind":"circle","radius":1}]},"#
            + #""root":{"name":"r","parent":{"name":"p","parent":{"name":"q"}},"children":[{"name":"c"}]}}"#
        let transport = MockTransport(.json(drawing))
        let fetched = try await Self.client(transport).send(GetDrawing(drawingId: "d/1")).value
        #expect(transport.requests.first?.pathWithoutQuery == "/shapes/drawings/d%2F1")
        #expect(
            fetched.shapes == [
                .circle(Circle(kind: "circle", radius: 2)), .rectangle(Rectangle(kind: "rect", label: "door", width: 1, height: 3)),
            ]
        )
        #expect(fetched.fill == .gradient(Gradient(from: "red", to: "blue")))
        #expect(fetched.layers?["top"] == [.circle(Circle(kind: "circle", radius: 1))])
        #expect(fetched.root.parent?.parent?.name == "q" && fetched.root.children?.first?.name == "c")

        var changed = fetched
        changed.fill = .string("green")
        changed.root.parent = nil
        let saving = MockTransport(.json(drawing))
        _ = try await Self.client(saving).send(SaveDrawing(payload: changed))
        let sent = try JSONDecoder().decode(Drawing.self, from: try #require(saving.requests.first?.body?.bytes))
        #expect(sent == changed && sent.fill == .string("green") && sent.root.parent == nil)
        #expect(saving.requests.first?.method == .put)

        let unknown = MockTransport(.json(#"{"id":"d","shapes":[{"kind":"hexagon"}],"root":{"name":"r"}}"#))
        await #expect(throws: SwitchyardError.self) { _ = try await Self.client(unknown).send(GetDrawing(drawingId: "d")) }
    }
}
