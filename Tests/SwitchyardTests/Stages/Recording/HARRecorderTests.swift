import Foundation
import HTTPTypes
import Switchyard
import SwitchyardHAR
import SwitchyardTesting
import Testing

@Suite("HAR recorder")
struct HARRecorderTests {
    func makeClient(recorder: HARRecorder, redaction: Redaction = .default, transport: MockTransport) throws -> APIClient {
        try SwitchyardTests.makeClient(stages: [HARRecordingStage(recorder: recorder, redaction: redaction)], transport: transport)
    }

    @Test("no secret the logging stage hides reaches the archive's bytes: headers, cookies, query, bodies, path segments")
    func redaction() async throws {
        let transport = MockTransport { _, _ in
            Response(
                status: .ok,
                headerFields: [
                    .contentType: "application/json",
                    .setCookie: "sid=setcookie-SECRET-3; Path=/; Expires=Tue, 01 Dec 2026 10:00:00 GMT; HttpOnly",
                    .location: "https://api.example.com/next?refresh_token=location-SECRET-11",
                    HTTPField.Name("Content-Location")!: "next?refresh_token=location-SECRET-13",
                ],
                body: Data(#"{"data":{"access_token":"response-SECRET-10","name":"Ada"}}"#.utf8)
            )
        }
        var redaction = Redaction.default
        redaction.names.insert("code")
        let recorder = HARRecorder()
        let client = try makeClient(recorder: recorder, redaction: redaction, transport: transport)
        let headers: HTTPFields = [
            .authorization: "Bearer bearer-SECRET-1", .cookie: "theme=dark; sid=cookie-SECRET-2",
            HTTPField.Name("X-Api-Key")!: "header-SECRET-4", HTTPField.Name("X-Signature")!: "sign-SECRET-5",
        ]
        _ = try await client.send(
            .users,
            .post,
            "/reset/0123456789abcdef0123456789abcdef?api_key=query-SECRET-6&code=custom-SECRET-7&page=2",
            parameters: ["user": "ada", "password": "password-SECRET-8", "profile": ["client_secret": "nested-SECRET-9"]],
            headerFields: headers,
            encoding: .json
        )
        _ = try await client.send(.users, .post, "/form", parameters: ["secret": "form-SECRET-12", "name": "ada"], encoding: .form)

        let bytes = String(decoding: try recorder.export(), as: UTF8.self)
        #expect(!bytes.contains("SECRET"), "a secret reached the archive")
        #expect(!bytes.contains("0123456789abcdef0123456789abcdef"))
        let entry = try #require(recorder.entries.first)
        #expect(entry.request.url == "https://api.example.com/reset/<redacted>?api_key=<redacted>&code=<redacted>&page=2")
        #expect(entry.request.headers.contains(HAR.NameValue(name: "Authorization", value: "<redacted>")))
        #expect(entry.request.cookies == [HAR.Cookie(name: "theme", value: "<redacted>"), HAR.Cookie(name: "sid", value: "<redacted>")])
        #expect(entry.request.queryString.map(\.value) == ["<redacted>", "<redacted>", "2"])
        #expect(entry.request.postData?.text?.contains(#""user":"ada""#) == true)
        let cookie = try #require(entry.response.cookies.first)
        #expect(cookie.value == "<redacted>" && cookie.path == "/" && cookie.httpOnly == true)
        #expect(cookie.expires == "2026-12-01T10:00:00.000Z")
        #expect(entry.response.redirectURL == "https://api.example.com/next?refresh_token=<redacted>")
        #expect(entry.response.content.text == #"{"data":{"access_token":"<redacted>","name":"Ada"}}"#)
    }

    @Test("with drop-oldest the recorder keeps the latest entries; with stop-recording the first; both count the rest")
    func entryLimit() async throws {
        for overflow in [HARRecorder.Overflow.dropOldest, .stopRecording] {
            let recorder = HARRecorder(maxEntries: 3, overflow: overflow)
            let client = try makeClient(recorder: recorder, transport: MockTransport(.json("{}")))
            for index in 1...5 { _ = try await client.send(.users, .get, "/calls/\(index)") }
            let kept = recorder.entries.map { $0.request.url.split(separator: "/").last.map(String.init) }
            #expect(kept == (overflow == .dropOldest ? ["3", "4", "5"] : ["1", "2", "3"]))
            #expect(recorder.count == 3 && recorder.droppedCount == 2)
            #expect(recorder.document().log.comment?.hasPrefix("2 entries left out by the limit of 3") == true)
            recorder.removeAll()
            #expect(recorder.count == 0 && recorder.droppedCount == 0 && recorder.document().log.comment == nil)
        }
    }

    @Test("bodies are cut at the limit after redaction, on a character boundary, and keep their whole size")
    func bodyLimit() async throws {
        let text = "{\"token\":\"abc-SECRET\",\"note\":\"" + String(repeating: "é", count: 40) + "\"}"
        let recorder = HARRecorder(maxBodyBytes: 41)
        let stage = HARRecordingStage(recorder: recorder, bodies: .allIncludingBinary(["application/octet-stream"]))
        let client = try SwitchyardTests.makeClient(stages: [stage], transport: MockTransport(.json(text)))
        _ = try await client.send(
            .users,
            .post,
            "/notes",
            body: .data(Data(repeating: 0x01, count: 100), contentType: "application/octet-stream")
        )
        let entry = try #require(recorder.entries.first)
        let content = entry.response.content
        #expect(content.size == text.utf8.count)
        #expect(content.text == String(#"{"token":"<redacted>","note":"ééééé"#))
        #expect(content.comment == "text cut to its first 40 bytes, after redaction")
        #expect(entry.request.bodySize == 100)
        #expect(entry.request.postData?.text == Data(repeating: 0x01, count: 41).base64EncodedString())
        #expect(entry.request.postData?.comment == "binary body cut to its first 41 of 100 bytes")
    }

    @Test("the archive is written private to the user (0600) and reads back as the document it exported")
    func file() async throws {
        useTheUsualUmask()
        let recorder = HARRecorder()
        let client = try makeClient(recorder: recorder, transport: MockTransport(.json(#"{"ok":true}"#)))
        _ = try await client.send(.users, .get, "/a")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("har-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("session.har")
        try Data("old".utf8).write(to: url)
        #expect(try permissions(of: url) == 0o644)
        try recorder.write(to: url)
        #expect(try permissions(of: url) == 0o600)
        let read = try JSONDecoder().decode(HAR.Document.self, from: Data(contentsOf: url))
        #expect(read == recorder.document())
        #expect(read.log.version == "1.2" && read.log.creator == .switchyard)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["session.har"])
    }

    @Test("many concurrent calls through several services record one entry each")
    func concurrency() async throws {
        let recorder = HARRecorder(maxEntries: 10_000)
        let client = try makeClient(recorder: recorder, transport: MockTransport(.json("{}")))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 { group.addTask { _ = try await client.send(.users, .get, "/c/\(index)") } }
            try await group.waitForAll()
        }
        #expect(recorder.count == 200)
        #expect(Set(recorder.entries.map(\.request.url)).count == 200)
    }
}
