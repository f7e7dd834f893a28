import Foundation
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Interceptor stage")
struct InterceptorStageTests {
    private func hooks(
        _ recorder: EventRecorder,
        refuse: Bool = false,
        vetoSuccess: Bool = false,
        recover: Bool = false
    ) -> InterceptorStage.Hooks {
        struct Invalid: Error, CustomStringConvertible { var description: String { "page must be positive" } }
        return InterceptorStage.Hooks(
            willSend: { request, _ in
                recorder.record("willSend")
                if refuse { throw Invalid() }
            },
            didSend: { _, _ in recorder.record("didSend") },
            willSucceed: { response, _ in
                recorder.record("willSucceed \(response.status.code)")
                if vetoSuccess { throw SwitchyardError(code: .invalidResponse, message: "empty list is a failure here") }
                return response
            },
            didSucceed: { response, _ in recorder.record("didSucceed \(response.status.code)") },
            willFail: { error, _ in
                recorder.record("willFail \(error.code)")
                return recover ? Response(status: .ok, body: Data("[]".utf8)) : nil
            },
            didFail: { error, _ in recorder.record("didFail \(error.code)") }
        )
    }

    @Test("success runs will send, did send, will succeed, did succeed")
    func success() async throws {
        let recorder = EventRecorder()
        let run = await StageHarness(InterceptorStage(hooks(recorder))).run(try .fixture(.get, "https://api.test/a"))
        #expect(run.response?.status == .ok)
        #expect(recorder.events == ["willSend", "didSend", "willSucceed 200", "didSucceed 200"])
    }

    @Test("will send refuses the call before anything is sent, with the refused code")
    func refusal() async throws {
        let recorder = EventRecorder()
        let run = await StageHarness(InterceptorStage(hooks(recorder, refuse: true))).run(try .fixture(.get, "https://api.test/a"))
        #expect(!run.calledNext)
        #expect(run.error?.code == .refused)
        #expect(run.error?.message.contains("page must be positive") == true)
        #expect(recorder.events == ["willSend", "willFail refused", "didFail refused"])
    }

    @Test("will succeed turns a success into a failure; will fail recovers a failure")
    func vetoAndRecover() async throws {
        let recorder = EventRecorder()
        let vetoed = await StageHarness(InterceptorStage(hooks(recorder, vetoSuccess: true))).run(try .fixture(.get, "https://api.test/a"))
        #expect(vetoed.error?.code == .invalidResponse)
        #expect(recorder.events == ["willSend", "didSend", "willSucceed 200", "willFail invalidResponse", "didFail invalidResponse"])
        recorder.reset()
        let recovered = await StageHarness(InterceptorStage(hooks(recorder, recover: true))).run(
            try .fixture(.get, "https://api.test/a"),
            respond: .connectionRefused
        )
        #expect(recovered.response?.bodyText == "[]")
        #expect(recorder.events == ["willSend", "didSend", "willFail transport", "didSucceed 200"])
    }

    @Test("per-call hooks run outside the service's stages")
    func perCall() async throws {
        let recorder = EventRecorder()
        let client = try makeClient(stages: [RecordingStage("service", recorder)], transport: MockTransport(.json("{}")))
        var options = CallOptions()
        options.intercept(
            .init(willSend: { _, _ in recorder.record("call willSend") }, didSucceed: { _, _ in recorder.record("call didSucceed") })
        )
        _ = try await client.send(.users, .get, "/a", options: options)
        #expect(recorder.events.first == "call willSend")
        #expect(recorder.events.last == "call didSucceed")
    }
}

@Suite("Validation stage")
struct ValidationStageTests {
    @Test("statuses and content types per service, replaced per call")
    func rules() async throws {
        let stage = ValidationStage(.json)
        let ok = await StageHarness(stage).run(try .fixture(.get, "https://api.test/a"), respond: .json("{}"))
        #expect(ok.response != nil)
        let html = await StageHarness(stage).run(
            try .fixture(.get, "https://api.test/a"),
            respond: .status(.ok, body: "<html>", headerFields: [.contentType: "text/html; charset=utf-8"])
        )
        #expect(html.error?.code == .contentType)
        #expect(html.error?.message == "the response's content type is 'text/html'; expected application/json or application/*+json")
        let problem = await StageHarness(stage).run(
            try .fixture(.get, "https://api.test/a"),
            respond: .status(.ok, body: "{}", headerFields: [.contentType: "application/problem+json"])
        )
        #expect(problem.response != nil)
        let noContent = await StageHarness(stage).run(try .fixture(.delete, "https://api.test/a"), respond: .status(.noContent))
        #expect(noContent.response != nil)
        let server = await StageHarness(stage).run(try .fixture(.get, "https://api.test/a"), respond: .status(.badGateway, body: "oops"))
        #expect(server.error?.code == .httpStatus)
        #expect(server.error?.status == .badGateway)
        #expect(server.error?.response?.bytes == Data("oops".utf8))

        var context = CallContext(serviceID: .users)
        context[ValidationStage.CallRules.self] = ValidationStage.Rules(statuses: [200, 404], contentTypes: ["text/*"])
        let notFound = await StageHarness(stage).run(
            try .fixture(.get, "https://api.test/a"),
            context: context,
            respond: .status(.notFound, body: "gone", headerFields: [.contentType: "text/plain"])
        )
        #expect(notFound.response?.status == .notFound)
    }

    @Test("media type matching")
    func matching() {
        #expect(ValidationStage.matches("application/json", pattern: "application/json"))
        #expect(ValidationStage.matches("application/vnd.api+json", pattern: "application/*+json"))
        #expect(!ValidationStage.matches("application/xml", pattern: "application/*+json"))
        #expect(ValidationStage.matches("text/csv", pattern: "text/*"))
        #expect(!ValidationStage.matches("", pattern: "*/*"))
        #expect(ValidationStage.mediaType(" Application/JSON ; charset=UTF-8") == "application/json")
    }
}
