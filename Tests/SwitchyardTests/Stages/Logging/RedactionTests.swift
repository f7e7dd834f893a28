import Foundation
import HTTPTypes
import InMemoryLogging
import Logging
import Switchyard
import SwitchyardTesting
import Testing

/// What the redaction list hides in the logging stage's lines: names, path segments and bodies.
extension LoggingStageTests {
    /// Every line the stage logs at `level` for `request`, with its metadata, answered by `answer`.
    private func lines(
        for request: Request,
        at level: Logger.Level,
        redaction: Redaction = .default,
        context: CallContext? = nil,
        answer: MockResponse = .json("{}")
    ) async -> [String] {
        let (logger, handler) = logger(level)
        _ = await StageHarness(LoggingStage(logger: logger, redaction: redaction)).run(request, context: context, respond: answer)
        return handler.entries.map { entry in
            "\(entry.message) \(entry.metadata.map { "\($0.key)=\($0.value)" }.joined(separator: " "))"
        }
    }

    @Test("info: session, sid and passwd query parameters are hidden")
    func sessionParametersHidden() async throws {
        let request = try Request.fixture(.get, "https://api.test/me?session=S3SS10N&sid=S1D&passwd=PASSWD&page=2")
        let lines = await lines(for: request, at: .info)
        #expect(lines.first?.hasPrefix("→ GET /me?session=<redacted>&sid=<redacted>&passwd=<redacted>&page=2") == true)
        #expect(!lines.contains { $0.contains("S3SS10N") || $0.contains("S1D") || $0.contains("PASSWD") })
    }

    @Test("a name that merely contains sid (inside, side) is not hidden; a word sid in a longer name is")
    func shortNamesMatchWholeWords() async throws {
        let request = try Request.fixture(.get, "https://api.test/seats?inside=aisle&side=left&user_sid=U5ER&userSid=CAMEL")
        let lines = await lines(for: request, at: .info)
        #expect(lines.first?.hasPrefix("→ GET /seats?inside=aisle&side=left&user_sid=<redacted>&userSid=<redacted>") == true)
    }

    @Test("a path segment after a literal segment named by a rule is hidden in every line, the cURL rendering and the endpoint")
    func pathSegmentHiddenByRule() async throws {
        var redaction = Redaction.default
        redaction.pathRules.append(.after("tokens"))
        let request = try Request.fixture(.post, "https://api.test/tokens/abc123/refresh?x=1")
        let context = CallContext(serviceID: .users, endpointName: "POST /tokens/abc123/refresh")
        let lines = await lines(for: request, at: .trace, redaction: redaction, context: context, answer: .failure(URLError(.timedOut)))
        #expect(lines.first?.hasPrefix("→ POST /tokens/<redacted>/refresh?x=1 ") == true)
        #expect(lines.contains { $0.hasPrefix("curl -X POST 'https://api.test/tokens/<redacted>/refresh?x=1'") })
        #expect(lines.contains { $0.hasPrefix("✗ POST /tokens/<redacted>/refresh failed") })
        #expect(lines.allSatisfy { $0.contains("endpoint=POST /tokens/<redacted>/refresh") })
        #expect(!lines.contains { $0.contains("abc123") })
    }

    @Test("by default a path segment shaped like a secret is hidden; numeric ids, UUIDs and slugs are kept")
    func secretShapedSegmentHidden() async throws {
        let request = try Request.fixture(
            .get,
            "https://api.test/reset/Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA/users/1234567890123456789012345"
                + "/6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f/annual-report-2024-final-version.pdf"
        )
        let lines = await lines(for: request, at: .info)
        #expect(
            lines.first?.hasPrefix(
                "→ GET /reset/<redacted>/users/1234567890123456789012345/6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f/annual-report-2024-final-version.pdf"
            ) == true
        )
    }

    @Test("debug: a JSON body declared text/plain is redacted by member name")
    func jsonDeclaredAsTextRedacted() async throws {
        let request = try Request.fixture(
            .post,
            "https://api.test/login",
            headerFields: [.contentType: "text/plain"],
            body: #"{"user":"ada","password":"PA55W0RD"}"#
        )
        let lines = await lines(for: request, at: .debug)
        #expect(lines.contains { $0.hasPrefix(#"→ body: {"user":"ada","password":"<redacted>"}"#) })
        #expect(!lines.contains { $0.contains("PA55W0RD") })
    }

    @Test("debug: a form body without a content type is redacted pair by pair")
    func formWithoutContentTypeRedacted() async throws {
        let request = try Request.fixture(.post, "https://api.test/login", body: "user=ada&pwd=PA55W0RD&otp=123456")
        let lines = await lines(for: request, at: .debug)
        #expect(lines.contains { $0.hasPrefix("→ body: user=ada&pwd=<redacted>&otp=<redacted>") })
        #expect(!lines.contains { $0.contains("PA55W0RD") || $0.contains("123456") })
    }

    @Test("debug: plain text is shown with the value after a secret name= hidden")
    func plainTextHidesNamedValues() async throws {
        let request = try Request.fixture(
            .post,
            "https://api.test/support",
            headerFields: [.contentType: "text/plain"],
            body: "login failed for ada with password=PA55W0RD, please help"
        )
        let lines = await lines(for: request, at: .debug)
        #expect(lines.contains { $0.hasPrefix("→ body: login failed for ada with password=<redacted>") })
        #expect(!lines.contains { $0.contains("PA55W0RD") })
    }

    @Test("debug and trace: a binary body is never printed, only its length and type")
    func binaryBodyNotPrinted() async throws {
        let bytes = Data([0x00, 0x9F]) + Data("token=T0KEN".utf8) + Data([0xFF])
        let request = try #require(
            Request(
                method: .put,
                url: URL(string: "https://api.test/blob")!,
                headerFields: [.contentType: "text/plain"],
                body: .bytes(bytes)
            )
        )
        let lines = await lines(for: request, at: .trace)
        #expect(lines.contains { $0.hasPrefix("→ body: <14 bytes of text/plain>") })
        #expect(lines.contains { $0.contains("--data-binary @- # 14 bytes of text/plain") })
        #expect(!lines.contains { $0.contains("T0KEN") })
    }

    @Test("URLs in free text are redacted; text without URLs and URLs without secrets are kept as they are")
    func urlsInText() {
        let redaction = Redaction.default
        #expect(redaction.redactURLs(in: "no url here: a=b") == "no url here: a=b")
        #expect(redaction.redactURLs(in: "see http://h.test/a?page=1.") == "see http://h.test/a?page=1.")
        #expect(
            redaction.redactURLs(in: "(http://h.test?token=t1) and 'https://u:p@h.test/x'")
                == "(http://h.test?token=<redacted>) and 'https://<redacted>@h.test/x'"
        )
    }
}
