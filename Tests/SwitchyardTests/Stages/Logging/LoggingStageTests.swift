import Foundation
import HTTPTypes
import InMemoryLogging
import Logging
import Switchyard
import SwitchyardTesting
import Synchronization
import Testing

@Suite("Logging stage")
struct LoggingStageTests {
    func logger(_ level: Logger.Level) -> (Logger, InMemoryLogHandler) {
        var handler = InMemoryLogHandler()
        handler.logLevel = level
        return (Logger(label: "test", factory: { _ in handler }), handler)
    }

    private static let secrets = [
        "bearer-SECRET-1", "cookie-SECRET-2", "setcookie-SECRET-3", "query-SECRET-4", "password-SECRET-5",
        "nested-SECRET-6", "apikey-SECRET-7", "sign-SECRET-8", "form-SECRET-9", "response-SECRET-10", "header-SECRET-11",
        "array-SECRET-12", "jsonfield-SECRET-13",
    ]

    @Test("no secret value reaches any log line at any level, including the cURL rendering")
    func redaction() async throws {
        let (logger, handler) = logger(.trace)
        let transport = MockTransport { _, _ in
            Response(
                status: .ok,
                headerFields: [.contentType: "application/json", .setCookie: "sid=setcookie-SECRET-3"],
                body: Data(
                    #"{"code":0,"data":{"access_token":"response-SECRET-10","user":{"name":"Ada","refreshToken":"response-SECRET-10"}}}"#
                        .utf8
                )
            )
        }
        let client = try makeClient(stages: [LoggingStage(logger: logger)], transport: transport)
        let headers: HTTPFields = [
            .authorization: "Bearer bearer-SECRET-1", .cookie: "sid=cookie-SECRET-2", HTTPField.Name("X-Api-Key")!: "header-SECRET-11",
        ]
        _ = try await client.send(
            .users,
            .post,
            "/login?session_token=query-SECRET-4&page=2",
            parameters: [
                "user": "ada", "password": "password-SECRET-5",
                "profile": ["client_secret": "nested-SECRET-6", "apiKey": ["apikey-SECRET-7"]],
                "sign": "sign-SECRET-8", "tokens": ["array-SECRET-12"],
            ],
            headerFields: headers
        )
        _ = try await client.send(
            .users,
            .post,
            "/legacy",
            parameters: ["login": ["password": "jsonfield-SECRET-13"], "x": 1],
            headerFields: headers,
            encoding: .jsonFormField("data")
        )
        _ = try await client.send(.users, .post, "/form", parameters: ["secret": "form-SECRET-9", "name": "ada"], encoding: .form)
        let lines = handler.entries.map { entry in
            "\(entry.message) \(entry.metadata.map { "\($0.key)=\($0.value)" }.joined(separator: " "))"
        }
        #expect(lines.count >= 12)
        for secret in Self.secrets {
            let leaks = lines.filter { $0.contains(secret) }
            #expect(leaks.isEmpty, "\(secret) leaked in \(leaks)")
        }
        #expect(lines.contains { $0.contains("curl -X POST") && $0.contains("<redacted>") })
        #expect(lines.contains { $0.contains("page=2") && $0.contains("session_token=<redacted>") })
        #expect(lines.contains { $0.contains(#""name":"Ada""#) })  // what is not secret is still logged
    }

    @Test("info: one line out and one back with status and duration; debug and trace stay quiet")
    func infoLines() async throws {
        let (logger, handler) = logger(.info)
        let client = try makeClient(stages: [LoggingStage(logger: logger)], transport: MockTransport(.json(#"{"id":1,"name":"Ada"}"#)))
        let result = try await client.send(GetUser(id: "1"))
        let entries = handler.entries
        #expect(entries.count == 2)
        #expect(entries.allSatisfy { $0.level == .info })
        #expect("\(entries[0].message)" == "→ GET /users/1")
        let back = "\(entries[1].message)"
        #expect(back.hasPrefix("← 200 OK GET /users/1 "))
        #expect(back.contains(" ms ") && back.hasSuffix(" 21 B"))
        #expect(entries[1].metadata["request-id"] == "\(result.requestID)")
        #expect(entries[1].metadata["service"] == "users")
    }

    @Test("at warning a call that succeeds logs nothing; one that fails is logged with the call's metadata and target")
    func warningLogsFailuresOnly() async throws {
        let (logger, handler) = logger(.warning)
        let fine = try makeClient(stages: [LoggingStage(logger: logger)], transport: MockTransport(.json(#"{"id":1,"name":"Ada"}"#)))
        _ = try await fine.send(GetUser(id: "1"))
        #expect(handler.entries.isEmpty)
        let failing = try makeClient(stages: [LoggingStage(logger: logger)], transport: MockTransport(.connectionRefused))
        await #expect(throws: SwitchyardError.self) { try await failing.send(GetUser(id: "1")) }
        #expect(handler.entries.count == 1)
        let entry = try #require(handler.entries.first)
        #expect(entry.level == .warning)
        #expect("\(entry.message)".hasPrefix("✗ GET /users/1 failed after "))
        #expect(entry.metadata["service"] == "users")
        #expect(entry.metadata["request-id"] != nil)
    }

    @Test("a failure is logged at warning with its code; the level can be raised for one call or one service")
    func failuresAndLevels() async throws {
        let (logger, handler) = logger(.info)
        let client = try makeClient(stages: [LoggingStage(logger: logger)], transport: MockTransport(.connectionRefused))
        await #expect(throws: SwitchyardError.self) { try await client.send(GetUser(id: "1")) }
        #expect(handler.entries.last?.level == .warning)
        #expect("\(handler.entries.last!.message)".contains("transport"))

        handler.clear()
        let client2 = try makeClient(stages: [LoggingStage(logger: logger)], transport: MockTransport(.json(#"{"id":1,"name":"Ada"}"#)))
        var options = CallOptions()
        options.logLevel(.trace)
        _ = try await client2.send(GetUser(id: "1"), options: options)
        #expect(
            handler.entries.contains { $0.level == .trace && "\($0.message)".hasPrefix("curl -X GET 'https://api.example.com/users/1'") }
        )
        #expect(handler.entries.contains { $0.level == .debug && "\($0.message)".hasPrefix("← body: ") })
        handler.clear()
        _ = try await client2.send(GetUser(id: "1"))
        #expect(handler.entries.allSatisfy { $0.level == .info })

        let client3 = try makeClient(stages: [LoggingStage(logger: logger, level: .debug)], transport: MockTransport(.json("{}")))
        _ = try await client3.send(.users, .get, "/a")
        #expect(handler.entries.contains { $0.level == .debug })
    }

    @Test("in isolation: the stage passes the request on unchanged and logs both ways with the call's metadata")
    func isolated() async throws {
        let (logger, handler) = logger(.debug)
        let request = try Request.fixture(
            .post,
            "https://api.test/login?token=abc&x=1",
            headerFields: [.authorization: "Bearer abc"],
            body: #"{"password":"abc"}"#
        )
        var context = CallContext(serviceID: .users, endpointName: "Login")
        context.attempt = 2
        let run = await StageHarness(LoggingStage(logger: logger)).run(request, context: context, respond: .json(#"{"ok":true}"#))
        #expect(run.forwardedRequest?.path == request.path)
        #expect(run.forwardedRequest?.headerFields == request.headerFields)
        #expect(run.forwardedRequest?.body?.bytes == request.body?.bytes)
        let messages = handler.entries.map { "\($0.message)" }
        #expect(
            messages == [
                "→ POST /login?token=<redacted>&x=1",
                "→ headers: Authorization: <redacted>",
                #"→ body: {"password":"<redacted>"}"#,
                messages[3],
                "← headers: Content-Type: application/json",
                #"← body: {"ok":true}"#,
            ]
        )
        #expect(messages[3].hasPrefix("← 200 OK POST /login ") && messages[3].hasSuffix(" ms 11 B"))
        #expect(handler.entries.allSatisfy { $0.metadata["endpoint"] == "Login" && $0.metadata["attempt"] == "2" })
        #expect(!messages.contains { $0.contains("abc") })
    }

    @Test("a long body preview is truncated after redaction; binary bodies are summarised")
    func preview() async throws {
        let stage = LoggingStage(bodyPreviewLimit: 16)
        let long = Data((#"{"password":"abcdefghijklmnopqrstuvwxyz","a":"# + String(repeating: "x", count: 100) + #""}"#).utf8)
        let text = stage.preview(long, contentType: "application/json")
        #expect(text.hasPrefix(#"{"password":"<re"#))
        #expect(text.hasSuffix("(\(long.count) bytes)"))
        #expect(stage.preview(Data([0, 1, 2]), contentType: "application/octet-stream") == "<3 bytes of application/octet-stream>")
    }

    @Test(
        "a call that records stage timings gets one line of them from the logging stage, naming it, the stages inside it and the transport"
    )
    func stageTimingsLine() async throws {
        let (logger, handler) = logger(.info)
        let inner = ClosureStage.request(id: "Inner") { _, _ in }
        let client = try makeClient(stages: [LoggingStage(logger: logger), inner], transport: MockTransport(.json("{}")))
        _ = try await client.send(.users, .get, "/a")
        #expect(!handler.entries.contains { $0.message.description.contains("stages:") })
        var options = CallOptions()
        options.recordsStageTimings = true
        _ = try await client.send(.users, .get, "/a", options: options)
        let line = try #require(handler.entries.map(\.message.description).first { $0.contains("stages:") })
        // Its own entry (its time on the way in so far), then the stages inside it and the transport.
        #expect(line.hasPrefix("← stages: Logging "))
        #expect(line.contains(", Inner ") && line.contains(", transport "))
    }

    @Test("one stage redacts an endpoint name the same way on every call, remembered or not, and keeps names apart")
    func endpointNamesRemembered() async throws {
        let (logger, handler) = logger(.info)
        var redaction = Redaction.default
        redaction.pathRules.append(.after("tokens"))
        let stage = LoggingStage(logger: logger, redaction: redaction)
        let request = try Request.fixture(.get, "https://api.test/a")
        for name in ["GET /tokens/abc123/x", "GET /tokens/abc123/x", "Login", "GET /tokens/def456/x"] {
            handler.clear()
            _ = await StageHarness(stage).run(request, context: CallContext(serviceID: .users, endpointName: name), respond: .json("{}"))
            let expected = name == "Login" ? "Login" : "GET /tokens/<redacted>/x"
            #expect(handler.entries.count == 2)
            #expect(handler.entries.allSatisfy { $0.metadata["endpoint"] == "\(expected)" })
        }
    }

    @Test("one stage redacts a target by the call's path template every time, whether the same target was logged plainly before")
    func targetsRememberedPerTemplate() async throws {
        let (logger, handler) = logger(.info)
        let stage = LoggingStage(logger: logger)
        let request = try Request.fixture(.get, "https://api.test/users/k-12345")
        for name in ["", "GET /users/{apiKey}", "", "GET /users/{apiKey}", "GET /users/{id}"] {
            handler.clear()
            _ = await StageHarness(stage).run(request, context: CallContext(serviceID: .users, endpointName: name), respond: .json("{}"))
            let lines = handler.entries.map(\.message.description)
            #expect(lines.count == 2)
            if name.contains("apiKey") {
                #expect(lines.allSatisfy { $0.contains("/users/<redacted>") && !$0.contains("k-12345") })
            } else {
                #expect(lines.allSatisfy { $0.contains("/users/k-12345") })
            }
        }
    }

    @Test("a matching rule is asked again on every call: its changed answer shows in the next identical call's lines")
    func matchingRuleAskedEveryCall() async throws {
        let (logger, handler) = logger(.info)
        let answer = RuleAnswer()
        var redaction = Redaction.default
        redaction.pathRules.append(.matching { segment in segment == "u-42" && answer.hides.load(ordering: .relaxed) })
        let stage = LoggingStage(logger: logger, redaction: redaction)
        let request = try Request.fixture(.get, "https://api.test/users/u-42?page=1")
        let context = CallContext(serviceID: .users, endpointName: "GET /users/u-42")
        for hides in [false, true, false] {
            answer.hides.store(hides, ordering: .relaxed)
            handler.clear()
            _ = await StageHarness(stage).run(request, context: context, respond: .json("{}"))
            let lines = handler.entries.map(\.message.description)
            #expect(lines.count == 2)
            let shown = hides ? "/users/<redacted>" : "/users/u-42"
            #expect(lines.allSatisfy { $0.contains(shown) })
            #expect(handler.entries.allSatisfy { $0.metadata["endpoint"] == "GET \(shown)" })
        }
    }
}

/// The answer a test's stateful path rule gives, changed between calls.
private final class RuleAnswer: Sendable {
    let hides = Atomic(false)
}
