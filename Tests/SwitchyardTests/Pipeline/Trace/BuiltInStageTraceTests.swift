import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Synchronization
import Testing

/// Each built-in stage's diff, read through the stage harness's trace.
@Suite("Trace: each built-in stage's diff through the harness")
struct BuiltInStageTraceTests {
    let get = try! Request.fixture(.get, "https://api.test/users/7?page=2")

    @Test("a headers stage's step shows the header field it added")
    func headers() async throws {
        let run = await StageHarness(HeadersStage([.fixed(HTTPField.Name("X-Client-Version")!, "1.0.0")])).run(get)
        let step = try #require(run.step)
        #expect(step.stage == .headers)
        #expect(step.outcome == .passed)
        let change = try #require(step.request[.header, "x-client-version"])
        #expect(change.kind == .added)
        #expect(change.after == "1.0.0")
        #expect(step.response.isEmpty)
    }

    @Test("a common-parameters stage's step shows the query parameter it added")
    func commonQueryParameters() async throws {
        let run = await StageHarness(CommonParametersStage([.fixed("app_version", "3.2")])).run(get)
        let change = try #require(run.step?.request[.query, "app_version"])
        #expect(change.kind == .added)
        #expect(change.after == "3.2")
        #expect(run.step?.request[.query, "page"] == nil)
    }

    @Test("a common-parameters stage's step shows the JSON members it added to a body")
    func commonJSONParameters() async throws {
        var request = try Request.fixture(.post, "https://api.test/orders")
        request.headerFields[.contentType] = "application/json"
        request.body = .bytes(Data(#"{"item":"tea"}"#.utf8))
        let run = await StageHarness(CommonParametersStage([.fixed("channel", "app")])).run(request)
        let step = try #require(run.step)
        #expect(step.request[.json, "channel"]?.after == "app")
        #expect(step.request[.json, "item"] == nil)
        #expect(step.request.bodyBefore != nil && step.request.bodyAfter != nil)
        #expect(step.request.bodyBefore?.digest != step.request.bodyAfter?.digest)
    }

    @Test("a common-parameters stage's step shows the form parameters it added to a form body")
    func commonFormParameters() async throws {
        var request = try Request.fixture(.post, "https://api.test/orders")
        request.headerFields[.contentType] = "application/x-www-form-urlencoded"
        request.body = .bytes(Data("item=tea".utf8))
        let run = await StageHarness(CommonParametersStage([.fixed("channel", "app")])).run(request)
        #expect(run.step?.request[.form, "channel"]?.after == "app")
        #expect(run.step?.request[.form, "item"] == nil)
    }

    @Test("an authorization stage's step shows the token field added, its value redacted")
    func authorization() async throws {
        let provider = ClosureTokenProvider(current: { "s3cr3t-token-value" }, refresh: { _ in "fresh" })
        let run = await StageHarness(AuthorizationStage(provider: provider)).run(get)
        let change = try #require(run.step?.request[.header, "Authorization"])
        #expect(change.kind == .added)
        #expect(change.isRedacted)
        #expect(change.after == Redaction.default.replacement)
        #expect(run.trace.redactedNames.contains("Authorization"))
        #expect(!String(decoding: try JSONEncoder().encode(run.trace), as: UTF8.self).contains("s3cr3t"))
    }

    @Test("a null-stripping stage's step shows the members it removed from the answer")
    func nullStripping() async throws {
        let run = await StageHarness(NullStrippingStage()).run(get, respond: .json(#"{"id":7,"nick":null,"tags":[]}"#))
        let step = try #require(run.step)
        #expect(step.request.isEmpty)
        #expect(step.response[.json, "nick"]?.kind == .removed)
        #expect(step.response[.json, "id"] == nil)
    }

    @Test("an envelope stage's step shows the answer unwrapped to its data")
    func envelope() async throws {
        let run = await StageHarness(EnvelopeStage(successCodes: [0])).run(get, respond: .json(#"{"code":0,"msg":"ok","data":{"id":7}}"#))
        let step = try #require(run.step)
        #expect(step.response[.json, "code"]?.kind == .removed)
        #expect(step.response[.json, "data.id"]?.kind == .removed)
        #expect(step.response[.json, "id"]?.after == "7")
    }

    @Test("an envelope stage that refuses a business code shows a thrown step with the error")
    func envelopeRefuses() async throws {
        let run = await StageHarness(EnvelopeStage(successCodes: [0])).run(get, respond: .json(#"{"code":4001,"msg":"nope"}"#))
        let step = try #require(run.step)
        #expect(step.outcome == .threw)
        #expect(step.error?.hasPrefix("business") == true)
        #expect(run.error?.code == .business)
    }

    @Test("a retry stage's step says it sent twice, and the transport ran in two attempts")
    func retry() async throws {
        let answers = TraceAnswers([.status(.serviceUnavailable), .json("{}")])
        let stage = RetryStage(RetryPolicy(maxAttempts: 3, baseDelay: .zero, jitter: 0), sleep: { _ in })
        let run = await StageHarness(stage).run(
            get,
            respond: MockResponse { request, context in try await answers.next().respond(request, context) }
        )
        let step = try #require(run.step)
        #expect(step.outcome == .retried)
        #expect(step.handOvers == 2)
        #expect(run.trace.steps(of: .transport).map(\.attempt) == [1, 2])
        #expect(run.trace.attempts == 2)
    }

    @Test("a validation stage that refuses a status shows the thrown step")
    func validation() async throws {
        let run = await StageHarness(ValidationStage()).run(get, respond: .status(.notFound))
        #expect(run.step?.outcome == .threw)
        #expect(run.step?.stage == .validation)
    }

    @Test("a logging stage changes nothing")
    func logging() async throws {
        let run = await StageHarness(LoggingStage()).run(get, respond: .json("{}"))
        #expect(run.step?.request.isEmpty == true)
        #expect(run.step?.response.isEmpty == true)
        #expect(run.step?.outcome == .passed)
    }

    @Test("a stage that answers by itself shows an answered step and no transport step")
    func answered() async throws {
        let stage = ClosureStage(id: "Stub") { _, _, _ in Response(status: .ok, body: Data("{}".utf8)) }
        let run = await StageHarness(stage).run(get)
        #expect(run.step?.outcome == .answered)
        #expect(run.step?.response[.line, "status"]?.after == "200")
        #expect(run.trace.steps(of: .transport).isEmpty)
    }

    @Test("the transport's step carries the request as sent and the answer, redacted")
    func transportStep() async throws {
        var request = get
        request.headerFields[.authorization] = "Bearer hidden-value"
        let run = await StageHarness(LoggingStage()).run(request, respond: .json(#"{"id":7}"#))
        let transport = try #require(run.trace[.transport])
        #expect(transport.sent?.line == "GET https://api.test/users/7?page=2")
        #expect(transport.sent?.headerField("authorization") == Redaction.default.replacement)
        #expect(transport.received?.line.hasPrefix("200") == true)
        #expect(transport.received?.body?.size == 8)
    }
}

/// Canned answers handed out in order, the last one repeated.
final class TraceAnswers: Sendable {
    private let answers: [MockResponse]
    private let index = Mutex(0)

    init(_ answers: [MockResponse]) { self.answers = answers }

    func next() -> MockResponse {
        index.withLock { index in
            defer { index += 1 }
            return answers[min(index, answers.count - 1)]
        }
    }
}
