import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCrypto
import SwitchyardTesting
import Testing

@Suite("Replay: fixture files — stable, private, hostile input refused")
struct FixtureFileTests {
    typealias F = ReplayFixture

    /// Records ten concurrent calls (finishing in any order) and a sequence of three into a new directory.
    private func recordConcurrently() async throws -> URL {
        let directory = F.directory()
        let recorder = FixtureRecorder(directory: directory, ignoring: ["rid"])
        let rid = CommonParametersStage([.dynamic("rid") { context in .string("\(context.requestID)") }])
        let client = try F.client(stages: [rid], transport: F.countingTransport()) { try recorder.record($0, at: .wire) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in (0..<10).shuffled() {
                group.addTask {
                    _ = try await client.send(
                        F.api,
                        .post,
                        "/items/{id}",
                        pathParameters: ["id": "\(index)"],
                        parameters: ["i": .int(index)]
                    )
                }
            }
            try await group.waitForAll()
        }
        for _ in 0..<3 { _ = try await client.send(F.api, .get, "/poll") }
        try recorder.save()
        return directory
    }

    @Test("recording the same calls twice writes the same bytes, whatever order concurrent calls finish in")
    func stableBytes() async throws {
        let first = try await recordConcurrently()
        let second = try await recordConcurrently()
        defer {
            F.remove(first)
            F.remove(second)
        }
        let one = try Data(contentsOf: first.appendingPathComponent("api.json"))
        let two = try Data(contentsOf: second.appendingPathComponent("api.json"))
        // The answers count requests in arrival order, which differs: compare the requests only.
        let requests = { (data: Data) throws -> [String] in
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let entries = try #require(object["entries"] as? [[String: Any]])
            return try entries.map { entry in
                let request = try JSONSerialization.data(withJSONObject: entry["request"] as Any, options: [.sortedKeys])
                return String(decoding: request, as: UTF8.self)
            }
        }
        #expect(try requests(one) == requests(two))
        #expect(try requests(one).count == 13)
        let text = String(decoding: one, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"cut\" : \"wire\",\n  \"entries\" : ["))
        #expect(text.contains(#""json" : {"#) && text.contains("rid=<ignored>"))
    }

    @Test("recording a deterministic exchange twice writes byte-identical files")
    func identicalFiles() async throws {
        func run() async throws -> Data {
            let directory = F.directory()
            defer { F.remove(directory) }
            let recorder = FixtureRecorder(directory: directory)
            let transport = MockTransport(.json(#"{"b":[1,2.5,null,true],"a":"ü/é"}"#))
            let client = try F.client(transport: transport) { try recorder.record($0, at: .wire) }
            _ = try await client.send(F.api, .post, "/things", parameters: ["z": 1, "a": ["nested": true]])
            _ = try await client.send(F.api, .get, "/things", parameters: ["q": "x y"])
            try recorder.save()
            return try Data(contentsOf: directory.appendingPathComponent("api.json"))
        }
        #expect(try await run() == run())
    }

    @Test("fixture files are private to the user: 0600, their directory 0700")
    func privateFiles() async throws {
        let directory = F.directory()
        defer { F.remove(directory) }
        let recorder = FixtureRecorder(directory: directory)
        let client = try F.client(transport: F.countingTransport()) { try recorder.record($0, at: .wire) }
        _ = try await client.send(F.api, .get, "/items")
        try recorder.save()
        let file = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("api.json").path)
        let folder = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((file[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }

    @Test("the DocC example runs: a service recorded with no call writes an empty file that replays")
    func docExample() throws {
        let fixturesURL = F.directory()
        defer { F.remove(fixturesURL) }
        let keys = try KeyRing(keyID: "k1", key: SymmetricKey([UInt8](repeating: 7, count: 32)))
        let vault = Service(
            ServiceID("vault"),
            baseURL: "http://127.0.0.1:8080/vault-api",
            stages: [EnvelopeStage(successCodes: [0]), EncryptionStage(scheme: .aes256GCM, keyRing: keys)],
            transport: MockTransport(.status(.ok))
        )
        let recorder = FixtureRecorder(directory: fixturesURL, ignoring: ["ts", "nonce"])
        let recording = F.registry()
        try recording.register(try recorder.record(vault, at: .outside(.encryption)))
        try recorder.save()
        let fixtures = Fixtures(directory: fixturesURL, ignoring: ["ts", "nonce"])
        let replaying = F.registry()
        try replaying.register(try fixtures.replay(vault, at: .outside(.encryption)))
        #expect(try replaying.pipeline(for: vault.id).description.contains("[2] FixtureReplay → [3] Encryption"))
        #expect(try F.file(in: fixturesURL, service: vault.id).contains(#""entries" : ["#))
    }

    @Test("a stage is inserted just outside the named stage, or innermost on the wire")
    func insertionPlaces() throws {
        let service = Service(
            F.api,
            baseURL: "https://api.test",
            stages: [HeadersStage([CommonHeader]()), EnvelopeStage(successCodes: [0])],
            transport: MockTransport(.status(.ok))
        )
        let probe = RecordingStage("Probe", EventRecorder())
        #expect(try service.inserting(probe, at: .outside(.envelope)).stages.map(\.id.rawValue) == ["Headers", "Probe", "Envelope"])
        #expect(try service.inserting(probe, at: .wire).stages.map(\.id.rawValue) == ["Headers", "Envelope", "Probe"])
    }

    @Test("a cut outside a stage the service lacks is refused with invalidRequest naming its stages")
    func absentStage() throws {
        let service = Service(
            F.api,
            baseURL: "https://api.test",
            stages: [EnvelopeStage(successCodes: [0])],
            transport: MockTransport(.status(.ok))
        )
        let error = #expect(throws: SwitchyardError.self) {
            try FixtureRecorder(directory: F.directory()).record(service, at: .outside(StageID("Encryption")))
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.message == "service 'api' has no stage 'Encryption' to cut outside of; its stages are: Envelope")
    }

    // MARK: Hostile files

    /// The error replaying `api` from a directory holding `contents` as its file.
    private func replayError(_ contents: Data, maxFileSize: Int = 64 << 20) throws -> SwitchyardError? {
        let directory = F.directory()
        defer { F.remove(directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try contents.write(to: directory.appendingPathComponent("api.json"))
        let service = Service(F.api, baseURL: "https://api.test", transport: MockTransport(.status(.ok)))
        return #expect(throws: SwitchyardError.self) {
            try Fixtures(directory: directory, maxFileSize: maxFileSize).replay(service, at: .wire)
        }
    }

    /// A one-entry file with `response` as the entry's response.
    private func file(response: String, service: String = "api", format: Int = 1) -> Data {
        let request = #"{"endpoint":"GET /x","headers":[],"method":"GET","path":"/x","query":[]}"#
        return Data(
            #"{"cut":"wire","format":\#(format),"service":"\#(service)","entries":[{"request":\#(request),"response":\#(response)}]}"#.utf8
        )
    }

    @Test("malformed JSON is refused with storage")
    func malformedJSON() throws {
        let error = try replayError(Data(#"{"cut":"wire","entries":[{"#.utf8))
        #expect(error?.code == .storage)
        #expect(error?.message.contains("api.json is not a fixture file") == true)
    }

    @Test("members of the wrong type are refused with storage naming where")
    func wrongTypes() throws {
        let error = try replayError(file(response: #"{"status":"200","headers":[]}"#))
        #expect(error?.code == .storage)
        #expect(error?.message.contains("entries.[0].response.status") == true || error?.message.contains("status") == true)
    }

    @Test("an impossible status, a bad header line, a body of two kinds and bad base64 are refused with storage")
    func malformedEntries() throws {
        let cases = [
            #"{"status":999,"headers":[]}"#,
            #"{"status":200,"headers":["no colon here"]}"#,
            #"{"status":200,"headers":[],"body":{"text":"a","base64":"YQ=="}}"#,
            #"{"status":200,"headers":[],"body":{"base64":"%%%"}}"#,
            #"{"status":-1,"headers":[]}"#,
        ]
        for response in cases {
            let error = try replayError(file(response: response))
            #expect(error?.code == .storage, "\(response)")
            #expect(error?.message.contains("api.json, entry 1") == true, "\(response)")
        }
    }

    @Test("a file of another service or format is refused with storage")
    func otherServiceOrFormat() throws {
        #expect(try replayError(file(response: #"{"status":200,"headers":[]}"#, service: "vault"))?.code == .storage)
        #expect(try replayError(file(response: #"{"status":200,"headers":[]}"#, format: 2))?.code == .storage)
    }

    @Test("a file above the size limit is refused with limitExceeded before it is parsed")
    func hugeFile() throws {
        let huge = Data(repeating: UInt8(ascii: "["), count: 1 << 20)
        let error = try replayError(huge, maxFileSize: 64 << 10)
        #expect(error?.code == .limitExceeded)
    }

    @Test("deeply nested JSON is refused with storage, without a crash")
    func deepNesting() throws {
        let deep = String(repeating: #"{"a":"#, count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        #expect(try replayError(file(response: #"{"status":200,"headers":[],"body":{"json":\#(deep)}}"#))?.code == .storage)
    }

    @Test("a missing file is refused with storage")
    func missingFile() throws {
        let service = Service(F.api, baseURL: "https://api.test", transport: MockTransport(.status(.ok)))
        let error = #expect(throws: SwitchyardError.self) { try Fixtures(directory: F.directory()).replay(service, at: .wire) }
        #expect(error?.code == .storage)
    }
}
