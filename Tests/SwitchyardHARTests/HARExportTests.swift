import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCrypto
import SwitchyardHAR
import SwitchyardMultipart
import SwitchyardSampleBackend
import SwitchyardTesting
import Testing

/// HAR archives recorded from real calls to the sample backend's shop module (authorised, sealed
/// and signed), checked against the HAR 1.2 schema by an independent validator.
@Suite("HAR export against the sample backend", .enabled { await HARValidator.enabled.value })
struct HARExportTests {
    static let shop: ServiceID = "shop"

    /// Two orders through a shop pipeline with one recorder outermost (what the app sees) and one
    /// innermost (what travels), both written to files in `directory`.
    static func record(in directory: URL) async throws -> (outer: HARRecorder, inner: HARRecorder, token: String) {
        let backend = try await SampleBackend.start()
        do {
            let token = backend.shopToken
            let outer = HARRecorder()
            let inner = HARRecorder()
            let ring = try KeyRing(keyID: SampleBackend.shopKeyID, key: SymmetricKey(SampleBackend.shopKey))
            let signingRing = try KeyRing(keyID: SampleBackend.shopKeyID, key: SymmetricKey(SampleBackend.shopSigningKey))
            let stages: [any Stage] = [
                HARRecordingStage(recorder: outer),
                AuthorizationStage(provider: ClosureTokenProvider(current: { token }, refresh: { _ in token })),
                EnvelopeStage(successCodes: [0]),
                EncryptionStage(keyRing: ring),
                SigningStage(keyRing: signingRing, responseVerification: .required),
                // Sealed bodies are binary: their bytes are kept only when asked for by type.
                HARRecordingStage(recorder: inner, bodies: .allIncludingBinary(["application/octet-stream"])),
            ]
            let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
            try registry.register(
                Service(shop, baseURL: backend.baseURL + "/shop-api", stages: stages, transport: AsyncHTTPClientTransport())
            )
            let client = APIClient(registry: registry)
            _ = try await client.send(shop, .post, "/orders", parameters: ["sku": "A-1", "qty": 2, "card_pin": "pin-SECRET-1"])
            _ = try await client.send(
                shop,
                .get,
                "/orders/{id}",
                pathParameters: ["id": "9"],
                parameters: ["lang": "zh", "api_key": "k-77"]
            )
            try await backend.shutdown()
            try outer.write(to: directory.appendingPathComponent("outer.har"))
            try inner.write(to: directory.appendingPathComponent("inner.har"))
            return (outer, inner, token)
        } catch {
            try? await backend.shutdown()
            throw error
        }
    }

    @Test("archives of real calls are valid HAR 1.2, private files, and redacted; placement decides plaintext or ciphertext")
    func export() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("har-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (outer, inner, token) = try await Self.record(in: directory)

        for name in ["outer.har", "inner.har"] {
            let file = directory.appendingPathComponent(name)
            let verdict = try await HARValidator.validate(file)
            #expect(verdict.exitStatus == 0, "\(name): \(verdict.output)")
            #expect(verdict.output.contains("valid HAR 1.2: \(file.path) (2 entries)"))
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains(token) && !text.contains("pin-SECRET") && !text.contains("k-77"), "\(name) holds a secret")
        }

        // Outermost: plaintext as the app sees it — the order's fields, the unwrapped payload.
        let app = outer.entries
        #expect(app.map(\.response.status) == [201, 200])
        #expect(app[0].request.postData?.text?.contains(#""sku":"A-1""#) == true)
        #expect(app[0].request.postData?.text?.contains(#""card_pin":"<redacted>""#) == true)
        #expect(app[1].response.content.text?.contains(#""status":"shipped""#) == true)
        #expect(app[1].request.queryString.contains(HAR.NameValue(name: "api_key", value: "<redacted>")))

        // Innermost: what travelled — sealed bodies in base64, the token and the signature hidden.
        let wire = inner.entries
        #expect(wire.map(\.response.status) == [201, 200])
        let sealed = try #require(wire[0].request.postData)
        #expect(sealed.encoding == "base64" && !(sealed.text ?? "").isEmpty)
        #expect(!(sealed.text.flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self) } ?? "").contains("A-1"))
        #expect(wire[1].response.content.encoding == "base64")
        let headers = wire[0].request.headers
        #expect(headers.contains(HAR.NameValue(name: "Authorization", value: "<redacted>")))
        #expect(headers.contains { $0.name.lowercased().contains("signature") && $0.value == "<redacted>" })
    }

    @Test("bodies recorded through redaction — Latin-1 JSON, a multipart form with a file, binary by size — keep the archive valid HAR 1.2")
    func redactedBodiesAreValid() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("har-bodies-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        let recorder = HARRecorder()
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        let answer = Data(#"{"access_token":"tok-SECRET-1","note":"caf"#.utf8) + Data([0xE9, 0x22, 0x7D])
        let transport = MockTransport { _, _ in Response(status: .ok, headerFields: [.contentType: "application/json"], body: answer) }
        try registry.register(
            Service(Self.shop, baseURL: "https://shop.test", stages: [HARRecordingStage(recorder: recorder)], transport: transport)
        )
        let client = APIClient(registry: registry)
        let login = Data(#"{"user":"Jos"#.utf8) + Data([0xE9]) + Data(#"","password":"pw-SECRET-2"}"#.utf8)
        _ = try await client.send(Self.shop, .post, "/login", body: .data(login, contentType: "application/json; charset=iso-8859-1"))
        var form = MultipartBody()
        form.append(field: "api_token", "tok-SECRET-3")
        form.append(field: "caption", "a lamp")
        form.append(file: Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]) + Data("png-SECRET-4".utf8), field: "photo", fileName: "lamp.png")
        _ = try await client.send(Self.shop, .post, "/photos", body: try form.requestBody())
        _ = try await client.send(Self.shop, .put, "/blob", body: .data(Data([0, 1, 2, 0xFF]), contentType: "application/octet-stream"))
        try recorder.write(to: file)

        let verdict = try await HARValidator.validate(file)
        #expect(verdict.exitStatus == 0, "\(verdict.output)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains("SECRET"))
        let posts = recorder.entries.map(\.request.postData)
        #expect(posts[0]?.text == #"{"user":"José","password":"<redacted>"}"#)
        #expect(posts[1]?.text?.contains("name=\"api_token\"\r\n\r\n<redacted>\r\n") == true)
        #expect(posts[1]?.text?.contains("name=\"caption\"\r\n\r\na lamp\r\n") == true)
        #expect(
            posts[1]?.text?.contains("filename=\"lamp.png\"\r\nContent-Type: image/png\r\n\r\n<file: 18 bytes of image/png, not recorded>")
                == true
        )
        #expect(posts[2]?.text == nil && posts[2]?.comment?.hasPrefix("4 bytes of application/octet-stream not recorded") == true)
    }

    @Test("the validator rejects an archive that breaks HAR 1.2, so a passing export means something")
    func validatorRejects() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("har-broken-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        let entry = HAR.Entry(
            startedDateTime: "2026-11-24T07:30:00.000Z",
            time: 5,
            request: HAR.Request(method: "GET", url: "/relative"),
            response: HAR.Response(status: 200, content: HAR.Content(size: 0, mimeType: ""), bodySize: 0),
            timings: HAR.Timings(waiting: 4),
            service: "shop",
            requestID: "1"
        )
        let document = HAR.Document(log: HAR.Log(creator: .switchyard, entries: [entry]))
        try JSONEncoder().encode(document).write(to: file)
        let verdict = try await HARValidator.validate(file)
        #expect(verdict.exitStatus == 1)
        #expect(verdict.output.contains("$.log.entries[0].request.url"))
        #expect(verdict.output.contains("$.log.entries[0].time"))
    }
}
