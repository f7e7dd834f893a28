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

    @Test("info: a path segment after a segment named like a secret is hidden, as a parameter's value is; Redaction.none hides none")
    func segmentAfterSecretNameHidden() async throws {
        let cases = [
            ("/password-reset/k9Xq2", "/password-reset/<redacted>"),
            ("/users/42/tokens/abc123/refresh", "/users/42/tokens/<redacted>/refresh"),
            ("/v1/sessions/s-1?page=2", "/v1/sessions/<redacted>?page=2"),
            ("/users/42/orders/7", "/users/42/orders/7"),
        ]
        for (path, logged) in cases {
            let lines = await lines(for: try Request.fixture(.post, "https://api.test" + path), at: .info)
            #expect(lines.first?.hasPrefix("→ POST \(logged) ") == true, "\(lines)")
            #expect(!lines.contains { $0.contains("k9Xq2") || $0.contains("abc123") || $0.contains("s-1") })
        }
        let request = try Request.fixture(.get, "https://api.test/password-reset/k9Xq2")
        let unredacted = await lines(for: request, at: .info, redaction: .none)
        #expect(unredacted.first?.hasPrefix("→ GET /password-reset/k9Xq2 ") == true)
    }

    @Test("a call made at the call site carries its template: a placeholder named like a secret hides its value in every line")
    func templatePlaceholderHidden() async throws {
        let (logger, handler) = logger(.trace)
        let client = try makeClient(stages: [LoggingStage(logger: logger)], transport: MockTransport(.json("{}")))
        _ = try await client.send(.users, .get, "/users/{apiKey}/profile", pathParameters: ["apiKey": "k-77"])
        _ = try await client.send(.users, .get, "/password-reset/{code}", pathParameters: ["code": "c-88"])
        // A value interpolated into the path string is no placeholder; the name before it still hides it.
        _ = try await client.send(.users, .get, "/tokens/" + "t-99")
        let lines = handler.entries.map { "\($0.message) endpoint=\($0.metadata["endpoint"] ?? "")" }
        #expect(lines.contains { $0.hasPrefix("→ GET /users/<redacted>/profile endpoint=GET /users/{apiKey}/profile") })
        #expect(lines.contains { $0.hasPrefix("curl -X GET 'https://api.example.com/users/<redacted>/profile'") })
        #expect(lines.contains { $0.hasPrefix("→ GET /password-reset/<redacted> endpoint=GET /password-reset/{code}") })
        #expect(lines.contains { $0.hasPrefix("→ GET /tokens/<redacted> endpoint=GET /tokens/<redacted>") })
        #expect(!lines.contains { $0.contains("k-77") || $0.contains("c-88") || $0.contains("t-99") }, "\(lines)")
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

    /// Redactions whose prepared name matcher must follow their fragments and names: the default,
    /// each changed after it was made, one with a name longer than the length filter tracks, and none.
    static let redactions: [(String, Redaction)] = {
        var code = Redaction.default
        code.names.insert("code")
        var fragment = Redaction.default
        fragment.nameFragments.append("xy")
        var emptied = Redaction.default
        emptied.nameFragments = []
        emptied.names = ["sid"]
        let long = Redaction(nameFragments: ["zz"], names: [String(repeating: "k", count: 70), "pin"])
        return [
            ("default", .default), ("names + code", code), ("fragments + xy", fragment), ("emptied", emptied),
            ("long name", long), ("none", .none),
        ]
    }()

    @Test(
        "ASCII names are judged byte by byte exactly as other names are: 20,000 seeded names agree with the general path",
        arguments: redactions.indices
    )
    func asciiNamesAgree(index: Int) {
        let redaction = Self.redactions[index].1
        let known = [
            "sid", "inside", "side", "user_sid", "userSid", "X-Api-Key", "access_token", "Authorization", "author", "shipping",
            "PIN", "pinCode", "otp2", "OTPcode", "jwtToken", "cvv", "x.auth.y", "oauth", "", "-", "a--sid--", "SessionID",
            "code", "errorCode", "xylophone", "fizzy", String(repeating: "k", count: 70), "K" + String(repeating: "k", count: 69),
        ]
        var generator = SeededGenerator(state: 31)
        let alphabet = Array("abcdeijknoprstuvwxyzSIDPAUTHOK0129_-. ")
        let random = (0..<20_000).map { _ in
            String((0..<Int(generator.next() % 14)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
        }
        for name in known + random {
            // A trailing "-é" is a word of its own that no rule names, and sends the name down the general path.
            #expect(redaction.isSensitive(name) == redaction.isSensitive(name + "-é"), "\(Self.redactions[index].0): \(name)")
        }
    }

    @Test("a non-ASCII secret name matches the ASCII name it is canonically equivalent to, as the name set does")
    func equivalentNonASCIIName() {
        // U+037E GREEK QUESTION MARK is canonically equivalent to ";": 4 bytes against 3, another first byte.
        let redaction = Redaction(nameFragments: [], names: ["a\u{037E}b"])
        #expect(redaction.isSensitive("a;b"))
        #expect(!redaction.isSensitive("a:b"))
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
