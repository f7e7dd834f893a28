import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("SwitchyardTesting: stage harness, mock transport, recorder")
struct StageHarnessTests {
    struct AcceptJSON: RequestStage {
        func prepare(_ request: inout Request, context: CallContext) async throws {
            request.headerFields[.accept] = "application/json"
        }
    }

    struct Stub: Stage {
        func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
            Response(status: .ok, body: Data("cached".utf8), source: .memoryCache)
        }
    }

    struct RetryOn503: Stage {
        func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
            var context = context
            while true {
                let response = try await next(request, context)
                if response.status != .serviceUnavailable || context.attempt == 3 { return response }
                context = context.nextAttempt()
            }
        }
    }

    struct Refuse: RequestStage {
        func prepare(_ request: inout Request, context: CallContext) async throws {
            if request.body == nil { throw SwitchyardError(code: .invalidRequest, message: "a body is required") }
        }
    }

    @Test("the harness shows the request that reached next and the response that came back")
    func forwardsAndReturns() async throws {
        let run = await StageHarness(AcceptJSON()).run(try .fixture(.get, "https://api.test/users/1"), respond: .json(#"{"id":1}"#))
        #expect(run.calledNext)
        #expect(run.forwarded.count == 1)
        #expect(run.forwardedRequest?.headerFields[.accept] == "application/json")
        #expect(run.forwardedRequest?.path == "/users/1")
        #expect(run.response?.bodyText == #"{"id":1}"#)
        #expect(run.error == nil)
    }

    @Test("a short-circuiting stage never calls next")
    func shortCircuit() async throws {
        let run = await StageHarness(Stub()).run(try .fixture(.get, "https://api.test/x"))
        #expect(!run.calledNext)
        #expect(run.response?.source == .memoryCache)
    }

    @Test("a retrying stage's calls to next are each recorded with their attempt number")
    func retries() async throws {
        let run = await StageHarness(RetryOn503()).run(
            try .fixture(.get, "https://api.test/x"),
            respond: MockResponse { _, context in
                Response(status: context.attempt < 3 ? .serviceUnavailable : .ok)
            }
        )
        #expect(run.forwarded.map(\.context.attempt) == [1, 2, 3])
        #expect(run.response?.status == .ok)
    }

    @Test("a stage's error is reported as a SwitchyardError naming the stage, and nothing reached next")
    func refusal() async throws {
        let run = await StageHarness(Refuse()).run(try .fixture(.post, "https://api.test/x"))
        #expect(!run.calledNext)
        #expect(run.error?.code == .invalidRequest)
        #expect(run.error?.stage == StageID("Refuse"))
        let allowed = await StageHarness(Refuse()).run(try .fixture(.post, "https://api.test/x", body: "{}"))
        #expect(allowed.error == nil)
    }

    @Test("errors from next pass through the stage unchanged")
    func errorsFromNext() async throws {
        let run = await StageHarness(AcceptJSON()).run(try .fixture(.get, "https://api.test/x"), respond: .connectionRefused)
        #expect(run.error?.code == .transport)
        #expect(run.calledNext)
    }

    @Test("a fixture with a bad URL is a typed error")
    func badFixture() {
        #expect(throws: SwitchyardError.self) { try Request.fixture(.get, "not a url") }
        #expect(throws: SwitchyardError.self) { try Request.fixture(.get, "ftp://example.com/x") }
    }

    @Test("a mock transport gives answers in sequence, then repeats the last or fails when told to")
    func sequence() async throws {
        let context = CallContext(serviceID: "s")
        let request = try Request.fixture(.get, "https://api.test/x")
        let repeating = MockTransport(sequence: [.status(.serviceUnavailable), .status(.ok)])
        #expect(try await repeating.send(request, context: context).status == .serviceUnavailable)
        #expect(try await repeating.send(request, context: context).status == .ok)
        #expect(try await repeating.send(request, context: context).status == .ok)
        #expect(repeating.requestCount == 3)

        let strict = MockTransport(sequence: [.status(.ok)], repeatsLast: false)
        _ = try await strict.send(request, context: context)
        await #expect(throws: SwitchyardError.self) { _ = try await strict.send(request, context: context) }
        strict.reset()
        #expect(strict.requestCount == 0)
        #expect(try await strict.send(request, context: context).status == .ok)
    }

    @Test("the delayed preset honours the context's timeout and task cancellation")
    func delayedPreset() async throws {
        let transport = MockTransport(.delayed(by: .seconds(30), then: .status(.ok)))
        let request = try Request.fixture(.get, "https://api.test/x")
        let timeout = await #expect(throws: SwitchyardError.self) {
            _ = try await transport.send(request, context: CallContext(serviceID: "s", timeout: .milliseconds(20)))
        }
        #expect(timeout?.code == .timeout)

        let task = Task { try await transport.send(request, context: CallContext(serviceID: "s")) }
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
    }

    @Test("JSON presets set the content type and encode values with sorted keys")
    func jsonPresets() async throws {
        struct Payload: Encodable {
            let b = 2
            let a = 1
        }
        let context = CallContext(serviceID: "s")
        let request = try Request.fixture(.get, "https://api.test/x")
        let response = try await MockTransport(try .json(encoding: Payload())).send(request, context: context)
        #expect(response.bodyText == #"{"a":1,"b":2}"#)
        #expect(response.headerFields[.contentType] == "application/json")
    }
}
