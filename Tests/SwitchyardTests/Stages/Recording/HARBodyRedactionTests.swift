import Foundation
import HTTPTypes
import Switchyard
import SwitchyardHAR
import SwitchyardTesting
import Testing

/// Bodies reach a HAR archive only through redaction, whatever their bytes: text that is not clean
/// UTF-8 is decoded leniently and redacted, multipart forms field by field, binary bodies described.
@Suite("HAR recording: bodies through redaction")
struct HARBodyRedactionTests {
    /// A client whose `users` service records into `recorder` through a stage recording `bodies`.
    func makeClient(_ recorder: HARRecorder, bodies: HARRecordingStage.Bodies = .all, transport: MockTransport) throws -> APIClient {
        try SwitchyardTests.makeClient(stages: [HARRecordingStage(recorder: recorder, bodies: bodies)], transport: transport)
    }

    /// The request body each call recorded, in order, after posting `bodies` (bytes and type).
    func recordedRequests(
        _ bodies: [(Data, String)],
        mode: HARRecordingStage.Bodies = .all
    ) async throws -> (
        [HAR.PostData?], String
    ) {
        let recorder = HARRecorder()
        let client = try makeClient(recorder, bodies: mode, transport: MockTransport(.json("{}")))
        for (bytes, type) in bodies { _ = try await client.send(.users, .post, "/in", body: .data(bytes, contentType: type)) }
        return (recorder.entries.map(\.request.postData), String(decoding: try recorder.export(), as: UTF8.self))
    }

    @Test("a Latin-1 JSON login is decoded by its declared charset (or as lossy UTF-8) and redacted, never kept in base64")
    func latin1Login() async throws {
        let login = Data(#"{"user":"Jos"#.utf8) + Data([0xE9]) + Data(#"","password":"pw-SECRET-1"}"#.utf8)
        let (posts, archive) = try await recordedRequests([
            (login, "application/json; charset=ISO-8859-1"), (login, "application/json"), (login, "text/plain; charset=windows-1252"),
        ])
        #expect(posts.map { $0?.encoding } == [nil, nil, nil])
        #expect(posts[0]?.text == #"{"user":"José","password":"<redacted>"}"#)
        #expect(posts[0]?.comment == "not UTF-8 text: decoded as ISO-8859-1, its declared charset, then redacted")
        #expect(posts[1]?.text == "{\"user\":\"Jos\u{FFFD}\",\"password\":\"<redacted>\"}")
        #expect(posts[1]?.comment?.contains("decoded as UTF-8 with invalid bytes replaced") == true)
        #expect(posts[2]?.text == #"{"user":"José","password":"<redacted>"}"#)
        #expect(!archive.contains("SECRET") && !archive.contains(login.base64EncodedString()))
    }

    @Test("a token response with one Latin-1 byte or one control character is redacted, not stored raw")
    func tokenResponses() async throws {
        let answers: [String: (Data, String)] = [
            "/latin1": (Data(#"{"access_token":"tok-SECRET-1","note":"caf"#.utf8) + Data([0xE9, 0x22, 0x7D]), "application/json"),
            "/control": (Data("{\"refresh_token\":\"tok-SECRET-2\",\"x\":\"a\u{01}b\"}".utf8), "application/json"),
            "/pairs": (Data("access_token=tok-SECRET-3&expires_in=3600".utf8) + Data([0x00]), "application/x-www-form-urlencoded"),
        ]
        let transport = MockTransport { request, _ in
            let (body, type) = answers[String(request.pathWithoutQuery)]!
            return Response(status: .ok, headerFields: [.contentType: type], body: body)
        }
        let recorder = HARRecorder()
        let client = try makeClient(recorder, transport: transport)
        for path in ["/latin1", "/control", "/pairs"] { _ = try await client.send(.users, .get, path) }
        let contents = recorder.entries.map(\.response.content)
        #expect(contents.map(\.encoding) == [nil, nil, nil])
        #expect(contents[0].text == "{\"access_token\":\"<redacted>\",\"note\":\"caf\u{FFFD}\"}")
        #expect(contents[1].text == "{\"refresh_token\":\"<redacted>\",\"x\":\"a\u{FFFD}b\"}")
        #expect(contents[2].text == "access_token=<redacted>&expires_in=3600\u{FFFD}")
        #expect(contents.map(\.size) == ["/latin1", "/control", "/pairs"].map { answers[$0]!.0.count })
        #expect(!String(decoding: try recorder.export(), as: UTF8.self).contains("SECRET"))
    }

    @Test("a multipart form: a secret field hidden, other fields redacted as text, a file as name, file name, type and size")
    func multipartForm() async throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF]) + Data("file-SECRET-3".utf8)
        var form = Data()
        form += Data("--XyZ\r\nContent-Disposition: form-data; name=\"api_token\"\r\n\r\ntok-SECRET-1\r\n".utf8)
        form += Data("--XyZ\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n".utf8)
        form += Data("--XyZ\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n".utf8)
        form += Data(#"{"password":"pw-SECRET-2","size":3}"#.utf8) + Data("\r\n".utf8)
        form += Data(
            "--XyZ\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"me.png\"\r\nContent-Type: image/png\r\n\r\n".utf8
        )
        form += png + Data("\r\n--XyZ--\r\n".utf8)
        let broken = form.prefix(form.count - 9)  // the closing boundary cut off
        let (posts, archive) = try await recordedRequests([
            (form, "multipart/form-data; boundary=XyZ"), (broken, "multipart/form-data; boundary=XyZ"),
        ])
        let expected =
            "--XyZ\r\nContent-Disposition: form-data; name=\"api_token\"\r\n\r\n<redacted>\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n"
            + #"{"password":"<redacted>","size":3}"# + "\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"me.png\"\r\nContent-Type: image/png\r\n\r\n"
            + "<file: \(png.count) bytes of image/png, not recorded>\r\n--XyZ--\r\n"
        #expect(posts[0]?.text == expected)
        #expect(posts[0]?.encoding == nil && posts[0]?.mimeType == "multipart/form-data; boundary=XyZ")
        #expect(posts[1]?.text == nil && posts[1]?.encoding == nil)
        #expect(posts[1]?.comment?.hasSuffix("bytes of multipart not recorded: its parts could not be read") == true)
        #expect(!archive.contains("SECRET"))
    }

    @Test("every truncation and every one-byte change of a multipart form is read or left out, never kept raw")
    func multipartDamaged() async throws {
        var form = Data("--b1\r\nContent-Disposition: form-data; name=\"api_token\"\r\n\r\ntok-SECRET-1\r\n".utf8)
        form += Data("--b1\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.bin\"\r\n\r\n".utf8)
        form += Data([0x00, 0xFF]) + Data("bin-SECRET-2\r\n--b1--\r\n".utf8)
        var bodies = (0..<form.count).map { (form.prefix($0), "multipart/form-data; boundary=b1") }
        for index in form.indices {
            var changed = form
            changed[index] ^= 0x20
            bodies.append((changed, "multipart/form-data; boundary=b1"))
        }
        let (posts, _) = try await recordedRequests(bodies)
        #expect(posts.count == bodies.count)
        #expect(posts.allSatisfy { $0?.encoding == nil })
        // Cut short of its closing boundary, a form is left out whole; with it, its secret field is hidden.
        let cut = posts.prefix(form.count)
        #expect(cut.filter { $0?.text?.isEmpty == false }.count == 2)  // cut after `--b1--` or `--b1--\r`
        #expect(!cut.contains { $0?.text?.contains("SECRET") == true })
        // A changed byte may rename a field, but the file's bytes never show.
        #expect(!posts.contains { $0?.text?.contains("bin-SECRET-2") == true })
    }

    @Test("bytes that are not text are recorded only under a binary type, as size and type unless that type is opted in")
    func binaryOnlyWhenDeclared() async throws {
        let bytes = Data([0x00, 0xFF, 0xFE, 0x01]) + Data("raw-SECRET".utf8)
        let types = ["application/json", "application/x-custom", "", "image/png", "application/octet-stream"]
        let (posts, archive) = try await recordedRequests(types.map { (bytes, $0) })
        // Declared JSON: read leniently and redacted as text, never base64.
        #expect(posts[0]?.encoding == nil && posts[0]?.text?.hasPrefix("\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}") == true)
        // Neither text nor binary, or no type at all: left out.
        #expect(posts[1]?.text == nil && posts[1]?.comment?.contains("neither UTF-8 text nor a declared binary type") == true)
        #expect(posts[2]?.text == nil && posts[2]?.comment?.contains("bytes of no type, neither UTF-8 text") == true)
        // Binary: described, not kept.
        #expect(posts[3]?.text == nil && posts[3]?.comment?.hasPrefix("\(bytes.count) bytes of image/png not recorded") == true)
        #expect(posts[4]?.text == nil && posts[4]?.encoding == nil)
        #expect(!archive.contains(bytes.base64EncodedString()))

        // Opted in by family, case-insensitively: only that family's bytes are kept; JSON never is.
        let (kept, _) = try await recordedRequests(types.map { (bytes, $0) }, mode: .allIncludingBinary(["IMAGE/*", "application/json"]))
        #expect(kept.map { $0?.encoding } == [nil, nil, nil, "base64", nil])
        #expect(kept[3]?.text == bytes.base64EncodedString())
    }
}
