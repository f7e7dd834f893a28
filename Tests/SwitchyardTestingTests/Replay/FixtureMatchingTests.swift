import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Replay: matching, ignored fields, sequences, secrets")
struct FixtureMatchingTests {
    typealias F = ReplayFixture

    /// Records `calls` against the counting transport through `stages` into a new directory.
    private func record(
        stages: [any Stage] = [],
        ignoring: Set<String> = [],
        _ calls: (APIClient) async throws -> Void
    ) async throws -> URL {
        let directory = F.directory()
        let recorder = FixtureRecorder(directory: directory, ignoring: ignoring)
        let client = try F.client(stages: stages, transport: F.countingTransport()) { try recorder.record($0, at: .wire) }
        try await calls(client)
        try recorder.save()
        return directory
    }

    /// A client replaying `directory` over a transport that must not be reached (it counts).
    private func replaying(
        _ directory: URL,
        stages: [any Stage] = [],
        ignoring: Set<String> = [],
        strict: Bool = true,
        transport: MockTransport = MockTransport(.status(.badGateway))
    ) throws -> APIClient {
        let fixtures = Fixtures(directory: directory, ignoring: ignoring, strict: strict)
        return try F.client(stages: stages, transport: transport) { try fixtures.replay($0, at: .wire) }
    }

    @Test("a replay answers a recorded call without reaching the transport")
    func answersWithoutTransport() async throws {
        let directory = try await record { _ = try await $0.send(F.api, .get, "/items", parameters: ["page": 1], as: Counted.self) }
        defer { F.remove(directory) }
        let transport = MockTransport(.status(.badGateway))
        let client = try replaying(directory, transport: transport)
        let result = try await client.send(F.api, .get, "/items", parameters: ["page": 1], as: Counted.self)
        #expect(result.value == Counted(n: 1, query: "page=1"))
        #expect(result.source == .stub)
        #expect(transport.requestCount == 0)
    }

    @Test("an unmatched call fails in strict mode with noFixture naming the nearest fixture and what differs, no value")
    func unmatchedNamesNearest() async throws {
        let directory = try await record { client in
            _ = try await client.send(F.api, .get, "/items", parameters: ["page": 1, "size": 10])
            _ = try await client.send(F.api, .post, "/orders", parameters: ["sku": "A-1"])
        }
        defer { F.remove(directory) }
        let client = try replaying(directory)
        let error = try await #require(throws: SwitchyardError.self) {
            _ = try await client.send(F.api, .get, "/items", parameters: ["page": 2, "size": 10])
        }
        #expect(error.code == .noFixture)
        #expect(error.stage == .fixtureReplay)
        #expect(error.serviceID == F.api)
        #expect(error.message.contains("no recorded answer for GET /v1/items"))
        #expect(error.message.contains("nearest fixture: entry 1, GET /v1/items"))
        #expect(error.message.contains("differs in query (page)"))
        #expect(!error.message.contains("page=2") && !error.message.contains("page=1"))
    }

    @Test("an unmatched JSON body names the differing members")
    func unmatchedBodyNamesMembers() async throws {
        let directory = try await record { _ = try await $0.send(F.api, .post, "/orders", parameters: ["sku": "A-1", "qty": 1]) }
        defer { F.remove(directory) }
        let error = try await #require(throws: SwitchyardError.self) {
            _ = try await replaying(directory).send(F.api, .post, "/orders", parameters: ["sku": "A-1", "qty": 2])
        }
        #expect(error.code == .noFixture)
        #expect(error.message.contains("differs in body members (qty)"))
    }

    @Test("ignored fields — a nonce in the query, a timestamp in the body — are written as <ignored> and never matched")
    func ignoredFields() async throws {
        let nonce = CommonParametersStage([.dynamic("nonce") { _ in .string(UUID().uuidString) }])
        let directory = try await record(stages: [nonce], ignoring: ["nonce", "ts"]) { client in
            _ = try await client.send(F.api, .get, "/items")
            _ = try await client.send(F.api, .post, "/orders", parameters: ["sku": "A-1", "ts": .int(1_700_000_000)])
        }
        defer { F.remove(directory) }
        let text = try F.file(in: directory)
        #expect(text.contains("nonce=<ignored>") && text.contains(#""ts" : "<ignored>""#))
        let client = try replaying(directory, stages: [nonce], ignoring: ["nonce", "ts"])
        let read = try await client.send(F.api, .get, "/items", as: Counted.self)
        #expect(read.value.n == 1)
        let written = try await client.send(
            F.api,
            .post,
            "/orders",
            parameters: ["sku": "A-1", "ts": .int(1_800_000_000)],
            as: Counted.self
        )
        #expect(written.value.n == 2)
    }

    @Test("without the ignore list, a field recorded as <ignored> does not match a live value")
    func ignoredFieldsMustBeNamed() async throws {
        let nonce = CommonParametersStage([.dynamic("nonce") { _ in .string(UUID().uuidString) }])
        let directory = try await record(stages: [nonce], ignoring: ["nonce"]) { _ = try await $0.send(F.api, .get, "/items") }
        defer { F.remove(directory) }
        let error = try await #require(throws: SwitchyardError.self) {
            _ = try await replaying(directory, stages: [nonce]).send(F.api, .get, "/items")
        }
        #expect(error.code == .noFixture && error.message.contains("query (nonce)"))
    }

    @Test("identical calls replay their answers in order; in strict mode one more fails")
    func strictSequence() async throws {
        let directory = try await record { client in
            for _ in 0..<3 { _ = try await client.send(F.api, .get, "/poll") }
        }
        defer { F.remove(directory) }
        let client = try replaying(directory)
        var answers: [Int] = []
        for _ in 0..<3 { answers.append(try await client.send(F.api, .get, "/poll", as: Counted.self).value.n) }
        #expect(answers == [1, 2, 3])
        let error = try await #require(throws: SwitchyardError.self) { _ = try await client.send(F.api, .get, "/poll") }
        #expect(error.code == .noFixture)
        #expect(error.message.contains("all 3 recorded answers for GET /v1/poll"))
    }

    @Test("outside strict mode the last answer repeats and an unmatched call goes on to the transport")
    func lenientSequence() async throws {
        let directory = try await record { client in
            for _ in 0..<2 { _ = try await client.send(F.api, .get, "/poll") }
        }
        defer { F.remove(directory) }
        let transport = MockTransport(.json(#"{"n":99,"query":"live"}"#))
        let client = try replaying(directory, strict: false, transport: transport)
        var answers: [Int] = []
        for _ in 0..<3 { answers.append(try await client.send(F.api, .get, "/poll", as: Counted.self).value.n) }
        #expect(answers == [1, 2, 2])
        #expect(transport.requestCount == 0)
        #expect(try await client.send(F.api, .get, "/other", as: Counted.self).value.n == 99)
        #expect(transport.requestCount == 1)
    }

    @Test("secrets never reach the file and match by presence: another token or password replays the same answer")
    func secretsMatchByPresence() async throws {
        let recordedKey = HeadersStage([.fixed(.authorization, "Bearer tok-abc-123"), .fixed(HTTPField.Name("X-Api-Key")!, "key-k123")])
        let directory = try await record(stages: [recordedKey]) { client in
            _ = try await client.send(F.api, .post, "/login", parameters: ["user": "ada", "password": "hunter2"])
            _ = try await client.send(F.api, .get, "/me", parameters: ["access_token": "query-secret-9"])
        }
        defer { F.remove(directory) }
        let text = try F.file(in: directory)
        for secret in ["tok-abc-123", "key-k123", "hunter2", "query-secret-9", "issued-secret"] { #expect(!text.contains(secret)) }
        #expect(text.contains("authorization: <redacted>") && text.contains("x-api-key: <redacted>"))
        #expect(text.contains("access_token=<redacted>") && text.contains(#""password" : "<redacted>""#))
        let otherKey = HeadersStage([.fixed(.authorization, "Bearer other-token"), .fixed(HTTPField.Name("X-Api-Key")!, "key-other")])
        let client = try replaying(directory, stages: [otherKey])
        let login = try await client.send(F.api, .post, "/login", parameters: ["user": "ada", "password": "correct horse"])
        #expect(String(decoding: login.value.bytes, as: UTF8.self).contains(#""session_token":"<redacted>""#))
        #expect(try await client.send(F.api, .get, "/me", parameters: ["access_token": "another"], as: Counted.self).value.n == 2)
    }

    @Test("a replay whose file was recorded at another cut is refused")
    func wrongCut() async throws {
        let directory = try await record { _ = try await $0.send(F.api, .get, "/items") }
        defer { F.remove(directory) }
        let fixtures = Fixtures(directory: directory)
        let service = Service(
            F.api,
            baseURL: "https://api.test",
            stages: [EnvelopeStage(successCodes: [0])],
            transport: MockTransport(.status(.ok))
        )
        let error = #expect(throws: SwitchyardError.self) { try fixtures.replay(service, at: .outside(.envelope)) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.contains("recorded at the cut 'wire', not 'outside Envelope'") == true)
    }
}
