import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// Bodies and per-status outputs of the endpoints generated from `OpenAPI/Uploads.openapi.yaml`,
/// `OpenAPI/Ledger.openapi.yaml` and the description `Studio.switchyard.yaml`, through `MockTransport`.
@Suite("OpenAPI bodies round-trip")
struct OpenAPIBodyRoundTripTests {
    static func client(_ transport: MockTransport) throws -> APIClient {
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try UploadsAPI.registerUploads(in: registry, transport: transport)
        try LedgerAPI.registerLedger(
            in: registry,
            transport: transport,
            innerStages: [OpenAPIRoundTripTests.encryption],
            baseURLs: [.develop: "http://127.0.0.1:8080/ledger"]
        )
        try StudioAPI.registerStudio(in: registry, transport: transport)
        return APIClient(registry: registry)
    }

    /// The whole body of a request, streamed or not.
    static func bytes(_ request: Request) async throws -> Data {
        if let data = request.body?.bytes { return data }
        let stream = try #require(request.body?.stream)
        var data = Data()
        for try await chunk in stream.chunks() { data.append(chunk) }
        return data
    }

    static func temporaryFile(_ contents: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString).bin")
        try Data(contents.utf8).write(to: url)
        return url
    }

    @Test("signIn: a form body from the schema's properties")
    func formBody() async throws {
        let transport = MockTransport(.json(#"{"token":"t"}"#))
        let session = try await Self.client(transport).send(SignIn(user: "ann", password: "p&w", remember: true)).value
        #expect(session.token == "t")
        let request = try #require(transport.requests.first)
        #expect(request.method == .post && request.pathWithoutQuery == "/uploads/session")
        #expect(request.headerFields[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true)
        let fields = Set((request.bodyText ?? "").split(separator: "&").map(String.init))
        #expect(fields == ["user=ann", "password=p%26w", "remember=true"])
    }

    @Test("uploadPhoto: a multipart body of text fields and files (bytes and a path), streamed; outputs by status")
    func multipart() async throws {
        let thumbnail = try Self.temporaryFile("THUMB")
        defer { try? FileManager.default.removeItem(at: thumbnail) }
        let transport = MockTransport(sequence: [
            .json(#"{"id":"p1","title":"Beach"}"#, status: .created), .json(#"{"job":"j1"}"#, status: .accepted),
        ])
        let client = try Self.client(transport)
        let endpoint = try UploadPhoto(
            albumId: "a1",
            title: "Beach",
            photo: .bytes(Data("JPEG".utf8), fileName: "beach.jpg"),
            thumbnail: .file(thumbnail, fileName: "thumb.jpg"),
            tags: ["sea", "sun"]
        )
        guard case .created(let photo) = try await client.send(endpoint).value else {
            Issue.record("201 must decode as created")
            return
        }
        #expect(photo.id == "p1")
        let request = try #require(transport.requests.first)
        #expect(request.method == .post && request.pathWithoutQuery == "/uploads/albums/a1/photos")
        let contentType = try #require(request.headerFields[.contentType])
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        #expect(request.body?.stream != nil, "the form is streamed")
        let text = String(decoding: try await Self.bytes(request), as: UTF8.self)
        #expect(text.contains("name=\"title\"\r\n\r\nBeach\r\n"))
        #expect(text.contains("name=\"photo\"; filename=\"beach.jpg\"") && text.contains("JPEG"))
        #expect(text.contains("name=\"thumbnail\"; filename=\"thumb.jpg\"") && text.contains("THUMB"))
        #expect(text.components(separatedBy: "name=\"tags\"").count == 3 && !text.contains("name=\"rating\""))
        guard case .accepted(let job) = try await client.send(endpoint).value else {
            Issue.record("202 must decode as accepted")
            return
        }
        #expect(job.job == "j1")
        #expect(throws: SwitchyardError.self) {
            _ = try UploadPhoto(albumId: "a", title: "t", photo: .file(URL(fileURLWithPath: "/nonexistent/photo.jpg")))
        }
    }

    @Test("putFile: an octet-stream upload streamed from a file; a 413 body decodes from the error")
    func fileUpload() async throws {
        let file = try Self.temporaryFile("0123456789")
        defer { try? FileManager.default.removeItem(at: file) }
        let transport = MockTransport(sequence: [.status(.noContent), .json(#"{"limit":5}"#, status: .contentTooLarge)])
        let client = try Self.client(transport)
        _ = try await client.send(PutFile(nameParameter: "a b.bin", file: file))
        let request = try #require(transport.requests.first)
        #expect(request.method == .put && request.pathWithoutQuery == "/uploads/files/a%20b.bin")
        #expect(request.headerFields[.contentType] == "application/octet-stream")
        let sent = try await Self.bytes(request)
        #expect(sent == Data("0123456789".utf8))
        do {
            _ = try await client.send(UploadPhoto(albumId: "a", title: "t", photo: .bytes(Data(), fileName: "x.jpg")))
            Issue.record("a 413 must fail the call")
        } catch {
            guard case .status413(let problem)? = UploadPhoto.errorBody(of: error) else {
                Issue.record("no 413 body in \(error)")
                return
            }
            #expect(problem.limit == 5)
        }
    }

    @Test("ledger: a deepObject query, an array header, an envelope, 3.1 null unions; transfer is encrypted (opt-in) and retried")
    func ledger() async throws {
        let entries =
            #"{"code":0,"msg":"ok","data":[{"id":"e1","amount":5,"memo":null,"counterparty":null,"booked":"2024-01-02T03:04:05Z"},"#
            + #"{"id":"e2","amount":6,"memo":"rent","counterparty":{"name":"Bob"}}]}"#
        let transport = MockTransport(.json(entries))
        let listed = try await Self.client(transport).send(
            ListEntries(filter: EntryFilter(currency: "EUR", minAmount: 5), xAccounts: ["a", "b"])
        )
        let request = try #require(transport.requests.first)
        #expect(request.pathWithoutQuery == "/ledger/entries" && request.query == "filter%5Bcurrency%5D=EUR&filter%5BminAmount%5D=5")
        #expect(request.headerFields[HTTPField.Name("X-Accounts")!] == "a,b")
        #expect(listed.value.map(\.memo) == [nil, "rent"] && listed.value[1].counterparty == Party(name: "Bob"))
        #expect(listed.value[0].booked == Date(timeIntervalSince1970: 1_704_164_645))

        let flaky = MockTransport(.json(#"{"code":0,"msg":"ok","data":{"id":"e3","amount":7,"memo":null}}"#))
        let booked = try await Self.client(flaky).send(Transfer(payload: TransferModel(to: "Bob", amount: 7)))
        #expect(booked.value.id == "e3")
        let context = try #require(flaky.contexts.first)
        #expect(context[RetryStage.MaxAttempts.self] == 3)
        #expect(
            context.enabledStages.contains(StageID("Encryption"))
                && Transfer(payload: TransferModel(to: "x", amount: 1)).options.sameRequest == .refuseNew
        )
        let body = try JSONSerialization.jsonObject(with: try #require(flaky.requests.first?.body?.bytes)) as? [String: Any]
        #expect(body?["to"] as? String == "Bob" && body?["amount"] as? Int == 7 && body?.count == 2)
    }

    @Test("ledger: a query parameter of one value or an array sends either; an allOf-wrapped nullable reference decodes")
    func ledgerPublishedForms() async throws {
        let entries =
            #"{"code":0,"msg":"ok","data":[{"id":"e1","amount":5,"memo":null,"approver":null},"#
            + #"{"id":"e2","amount":6,"memo":null,"approver":{"name":"Ann"}}]}"#
        let transport = MockTransport(.json(entries))
        let listed = try await Self.client(transport).send(ListEntries(tag: ["rent"], year: [2024, 2025]))
        #expect(transport.requests.first?.query == "tag=rent&year=2024&year=2025")
        #expect(listed.value.map(\.approver) == [nil, Party(name: "Ann")])
    }

    @Test("the description format's bodies: a model as JSON (required or not), a file upload, a multipart form")
    func studio() async throws {
        let track = #"{"id":1,"title":"Intro","tags":{"mood":"calm"}}"#
        let transport = MockTransport(sequence: [.json(track), .json(track), .status(.noContent), .json(track)])
        let client = try Self.client(transport)
        let recorded = Date(timeIntervalSince1970: 1_700_000_000)
        let created = try await client.send(CreateTrack(draft: true, payload: NewTrack(title: "Intro", seconds: 90, recorded: recorded)))
        #expect(created.value.tags == ["mood": "calm"])
        _ = try await client.send(UpdateTrack(id: 1))
        let audio = try Self.temporaryFile("ID3")
        defer { try? FileManager.default.removeItem(at: audio) }
        _ = try await client.send(UploadAudio(id: 1, file: audio))
        _ = try await client.send(UploadCover(id: 1, caption: "Front", cover: .bytes(Data("PNG".utf8), fileName: "cover.png"), rating: 5))
        let requests = transport.requests
        #expect(requests[0].method == .post && requests[0].pathWithoutQuery == "/studio/tracks" && requests[0].query == "draft=true")
        #expect(requests[0].bodyText == #"{"recorded":"2023-11-14T22:13:20Z","seconds":90,"title":"Intro"}"#)
        #expect(requests[1].method == .patch && requests[1].body == nil)
        let audioBytes = try await Self.bytes(requests[2])
        #expect(requests[2].headerFields[.contentType] == "audio/mpeg" && audioBytes == Data("ID3".utf8))
        let form = String(decoding: try await Self.bytes(requests[3]), as: UTF8.self)
        #expect(
            form.contains("name=\"caption\"\r\n\r\nFront") && form.contains("filename=\"cover.png\"")
                && form.contains("name=\"rating\"\r\n\r\n5")
        )
    }
}
