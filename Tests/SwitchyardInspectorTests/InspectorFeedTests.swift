import Foundation
import HTTPTypes
import Switchyard
import SwitchyardHAR
import SwitchyardInspector
import SwitchyardTesting
import Testing

@Suite("Inspector event stream")
struct InspectorFeedTests {
    static func entry(_ event: ServerSentEvent) throws -> HAR.Entry {
        try event.decodeData(as: HAR.Entry.self)
    }

    @Test("a page that connects gets the calls held, then each call as it ends")
    func heldThenLive() async throws {
        let (inspector, client) = try await InspectorHarness.start()
        _ = try await client.send(InspectorHarness.service, .get, "/before")
        let (status, events) = try await InspectorHarness.events(inspector)
        var iterator = events.makeAsyncIterator()
        let hello = try await iterator.next()
        let held = try #require(try await iterator.next())
        _ = try await client.send(InspectorHarness.service, .get, "/after")
        let live = try #require(try await iterator.next())
        await inspector.stop()
        let ended = try await iterator.next()
        #expect(status == 200)
        #expect(hello?.type == "hello" && hello?.retry == .seconds(1))
        #expect(held.type == "entry" && live.type == "entry")
        #expect(try Self.entry(held).request.url == "https://api.example.com/before")
        #expect(try Self.entry(live).request.url == "https://api.example.com/after")
        #expect(try Self.entry(live).service == "inspected")
        let added = try Self.entry(live).stages?.first { $0.stage == .headers }?.request.changes.first
        #expect(added?.name.lowercased() == "x-added" && added?.after == "by-a-stage", "the frame carries the per-stage trace")
        #expect(live.id?.hasPrefix(try Self.entry(live).requestID + "/1/") == true)
        #expect(ended == nil, "stopping the inspector ends its event streams")
    }

    @Test("clear empties the inspector's list and tells open pages; the calls themselves are untouched")
    func clear() async throws {
        let (inspector, client) = try await InspectorHarness.start()
        let (_, events) = try await InspectorHarness.events(inspector)
        var iterator = events.makeAsyncIterator()
        _ = try await iterator.next()
        let result = try await client.send(InspectorHarness.service, .get, "/one")
        _ = try await iterator.next()
        let cleared = try await InspectorHarness.fetch(inspector.url.absoluteString + "clear", method: .POST)
        let told = try await iterator.next()
        let held = inspector.recorder.count
        let again = try await client.send(InspectorHarness.service, .get, "/two")
        let after = try #require(try await iterator.next())
        await inspector.stop()
        #expect(cleared.status == 204)
        #expect(told?.type == "clear")
        #expect(held == 0)
        #expect(result.status.code == 200 && again.status.code == 200)
        #expect(try Self.entry(after).request.url == "https://api.example.com/two")
    }

    @Test("clear must be a POST: a GET changes nothing")
    func clearNeedsPost() async throws {
        let (inspector, client) = try await InspectorHarness.start()
        _ = try await client.send(InspectorHarness.service, .get, "/one")
        let answer = try await InspectorHarness.fetch(inspector.url.absoluteString + "clear")
        let held = inspector.recorder.count
        await inspector.stop()
        #expect(answer.status != 204)
        #expect(held == 1)
    }

    @Test("bodies stay off the page and the export unless the app opts in")
    func bodiesOff() async throws {
        let (inspector, client) = try await InspectorHarness.start(answer: .json(#"{"greeting":"hello-body"}"#))
        _ = try await client.send(InspectorHarness.service, .post, "/notes", parameters: ["text": "note-body"], encoding: .json)
        let (_, events) = try await InspectorHarness.events(inspector)
        var iterator = events.makeAsyncIterator()
        _ = try await iterator.next()
        let frame = try #require(try await iterator.next())
        let export = try await InspectorHarness.fetch(inspector.url.absoluteString + "session.har")
        await inspector.stop()
        for text in [frame.data, export.body] {
            #expect(!text.contains("note-body") && !text.contains("hello-body"))
        }
        #expect(try Self.entry(frame).stages?.contains { $0.sent != nil } == true, "the trace is there, without its body text")
        #expect(try Self.entry(frame).response.content.size > 0, "the body's size is still shown")
    }

    @Test("with bodies opted in, the page shows them, redacted")
    func bodiesOn() async throws {
        let (inspector, client) = try await InspectorHarness.start(
            options: Inspector.Options(includeBodies: true),
            answer: .json(#"{"greeting":"hello-body","access_token":"answer-SECRET"}"#)
        )
        _ = try await client.send(
            InspectorHarness.service,
            .post,
            "/notes",
            parameters: ["text": "note-body", "password": "asked-SECRET"],
            encoding: .json
        )
        let (_, events) = try await InspectorHarness.events(inspector)
        var iterator = events.makeAsyncIterator()
        _ = try await iterator.next()
        let frame = try #require(try await iterator.next())
        await inspector.stop()
        #expect(frame.data.contains("note-body") && frame.data.contains("hello-body"))
        #expect(!frame.data.contains("SECRET"))
    }

    @Test("an export downloads the inspector's calls as a HAR archive")
    func export() async throws {
        let (inspector, client) = try await InspectorHarness.start()
        _ = try await client.send(InspectorHarness.service, .get, "/items", headerFields: [.authorization: "Bearer export-SECRET"])
        let answer = try await InspectorHarness.fetch(inspector.url.absoluteString + "session.har")
        await inspector.stop()
        let document = try JSONDecoder().decode(HAR.Document.self, from: Data(answer.body.utf8))
        #expect(answer.status == 200)
        #expect(answer.headers.first(name: "Content-Disposition")?.hasPrefix("attachment") == true)
        #expect(document.log.entries.map(\.request.url) == ["https://api.example.com/items"])
        #expect(!answer.body.contains("export-SECRET"))
    }
}

@Suite("Inspector: the order rules each stage obeys")
struct InspectorRulesTests {
    @Test("rules.json lists each registered service's stages with the order rules they declare")
    func rules() async throws {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try registry.register(
            Service(
                ServiceID("ruled"),
                baseURL: "https://api.test",
                stages: [RetryStage(), LoggingStage()],
                transport: MockTransport(.status(.ok))
            )
        )
        let inspector = try await Inspector.start(registry: registry)
        let (status, _, body) = try await InspectorHarness.fetch(inspector.url.absoluteString + "rules.json")
        await inspector.stop()
        #expect(status == 200)
        let rules = try JSONDecoder().decode([String: [String: [String]]].self, from: Data(body.utf8))
        let expected = try registry.pipeline(for: ServiceID("ruled")).orderRules
        #expect(rules["ruled"]?.keys.sorted() == expected.keys.map(\.rawValue).sorted())
        #expect(!(rules["ruled"]?.isEmpty ?? true))
    }
}
