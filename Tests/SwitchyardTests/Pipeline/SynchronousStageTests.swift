import Foundation
import HTTPTypes
import SwitchyardTesting
import Testing

@testable import Switchyard

private let trail = HTTPField.Name("X-Trail")!

/// Appends its name to the request's trail, without waiting.
private struct SyncMark: SynchronousRequestStage {
    let id: StageID
    func prepareSynchronously(_ request: inout Request, context: CallContext) throws {
        request.headerFields[trail] = (request.headerFields[trail] ?? "") + id.rawValue
    }
}

/// Appends its name to the request's trail after a suspension.
private struct AsyncMark: RequestStage {
    let id: StageID
    func prepare(_ request: inout Request, context: CallContext) async throws {
        await Task.yield()
        request.headerFields[trail] = (request.headerFields[trail] ?? "") + id.rawValue
    }
}

/// Appends its name to the response's trail, without waiting.
private struct SyncSeal: SynchronousResponseStage {
    let id: StageID
    func processSynchronously(_ response: inout Response, for request: Request, context: CallContext) throws {
        response.headerFields[trail] = (response.headerFields[trail] ?? "") + id.rawValue
    }
}

/// Appends its name to the response's trail after a suspension.
private struct AsyncSeal: ResponseStage {
    let id: StageID
    func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
        await Task.yield()
        response.headerFields[trail] = (response.headerFields[trail] ?? "") + id.rawValue
    }
}

/// Refuses every request, without waiting.
private struct SyncRefusal: SynchronousRequestStage {
    var id: StageID { "Refusal" }
    func prepareSynchronously(_ request: inout Request, context: CallContext) throws {
        throw SwitchyardError(code: .invalidRequest, message: "refused")
    }
}

/// Rejects every response, without waiting.
private struct SyncRejection: SynchronousResponseStage {
    var id: StageID { "Rejection" }
    func processSynchronously(_ response: inout Response, for request: Request, context: CallContext) throws {
        throw SwitchyardError(code: .invalidResponse, message: "rejected")
    }
}

/// Appends `s` from its synchronous method and `a` from an `async` one of its own, so a test can see
/// which one ran.
private struct Twofold: SynchronousRequestStage {
    let id: StageID
    func prepareSynchronously(_ request: inout Request, context: CallContext) throws {
        request.headerFields[trail] = (request.headerFields[trail] ?? "") + "s"
    }

    func prepare(_ request: inout Request, context: CallContext) async throws {
        request.headerFields[trail] = (request.headerFields[trail] ?? "") + "a"
    }
}

@Suite("Synchronous stages: run in place among asynchronous ones, blamed, skipped, enabled and timed like them")
struct SynchronousStageTests {
    private func id(_ name: String) -> StageID { StageID(name)! }

    @Test("synchronous and asynchronous request stages in one run change the request in registration order")
    func requestStagesInOrder() async throws {
        let transport = MockTransport(.status(.ok))
        let stages: [any Stage] = [SyncMark(id: id("A")), AsyncMark(id: id("B")), SyncMark(id: id("C")), AsyncMark(id: id("D"))]
        let client = try makeClient(stages: stages, transport: transport)
        _ = try await client.send(.users, .get, "/")
        #expect(transport.requests.first?.headerFields[trail] == "ABCD")
    }

    @Test("synchronous and asynchronous response stages in one run process the response innermost first")
    func responseStagesInReverse() async throws {
        let stages: [any Stage] = [SyncSeal(id: id("A")), AsyncSeal(id: id("B")), SyncSeal(id: id("C")), AsyncSeal(id: id("D"))]
        let client = try makeClient(stages: stages, transport: MockTransport(.status(.ok)))
        let result = try await client.send(.users, .get, "/")
        #expect(result.headerFields[trail] == "DCBA")
    }

    @Test("a synchronous request stage that throws is named in the error, and the transport is never reached")
    func throwingRequestStageIsBlamed() async throws {
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(stages: [SyncMark(id: id("A")), SyncRefusal()], transport: transport)
        let error = await #expect(throws: SwitchyardError.self) { try await client.send(.users, .get, "/") }
        #expect(error?.code == .invalidRequest)
        #expect(error?.stage == id("Refusal"))
        #expect(transport.requestCount == 0)
    }

    @Test("a synchronous response stage that throws is named in the error, which carries the response")
    func throwingResponseStageIsBlamed() async throws {
        let client = try makeClient(stages: [SyncRejection(), SyncSeal(id: id("A"))], transport: MockTransport(.status(.accepted)))
        let error = await #expect(throws: SwitchyardError.self) { try await client.send(.users, .get, "/") }
        #expect(error?.code == .invalidResponse)
        #expect(error?.stage == id("Rejection"))
        #expect(error?.response?.status == .accepted)
        #expect(error?.response?.headerFields[trail] == "A")
    }

    @Test("a call skips a synchronous stage by id, and an opt-in synchronous stage runs only when enabled")
    func skippedAndOptIn() async throws {
        let transport = MockTransport(.status(.ok))
        let stages: [any Stage] = [SyncMark(id: id("A")), SyncMark(id: id("B")).optIn(), SyncMark(id: id("C"))]
        let client = try makeClient(stages: stages, transport: transport)
        _ = try await client.send(.users, .get, "/")
        _ = try await client.send(.users, .get, "/", options: CallOptions(skippedStages: [id("C")]))
        _ = try await client.send(.users, .get, "/", options: CallOptions(enabledStages: [id("B")]))
        #expect(transport.requests.map { $0.headerFields[trail] } == ["AC", "A", "ABC"])
    }

    @Test("a call that records stage timings lists its synchronous stages in order, then the transport")
    func timingsListSynchronousStages() async throws {
        let stages: [any Stage] = [SyncMark(id: id("A")), AsyncMark(id: id("B")), SyncSeal(id: id("C"))]
        let client = try makeClient(stages: stages, transport: MockTransport(.status(.ok)))
        var options = CallOptions()
        options.recordsStageTimings = true
        let result = try await client.send(.users, .get, "/", options: options)
        let timings = try #require(result.stageTimings)
        #expect(timings.entries.map(\.stage) == [id("A"), id("B"), id("C"), .transport])
        #expect(result.headerFields[trail] == "C")
    }

    @Test("the pipeline, timed or not, an opt-in wrapper and the stage harness all call the synchronous method")
    func synchronousMethodIsTheOneCalled() async throws {
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(stages: [Twofold(id: id("T1")).optIn(), Twofold(id: id("T2"))], transport: transport)
        _ = try await client.send(.users, .get, "/")
        var timed = CallOptions(enabledStages: [id("T1")])
        timed.recordsStageTimings = true
        _ = try await client.send(.users, .get, "/", options: timed)
        #expect(transport.requests.map { $0.headerFields[trail] } == ["s", "ss"])
        let harnessed = await StageHarness(Twofold(id: id("T"))).run(try Request.fixture(.get, "https://api.test/a"))
        #expect(harnessed.forwardedRequest?.headerFields[trail] == "s")
        let wrapped = try await Twofold(id: id("T")).optIn().intercept(
            try Request.fixture(.get, "https://api.test/a"),
            context: CallContext(serviceID: .users)
        ) { request, _ in
            Response(status: .ok, headerFields: [trail: request.headerFields[trail] ?? ""])
        }
        #expect(wrapped.headerFields[trail] == "s")
    }

    @Test("a call's own synchronous and asynchronous stages run in order, outside the service's")
    func additionalStagesMixed() async throws {
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(stages: [SyncMark(id: id("A"))], transport: transport)
        let options = CallOptions(additionalStages: [SyncMark(id: id("X")), AsyncMark(id: id("Y")), SyncMark(id: id("Z"))])
        _ = try await client.send(.users, .get, "/", options: options)
        #expect(transport.requests.first?.headerFields[trail] == "XYZA")
    }

    @Test("an opt-in synchronous response stage among asynchronous ones runs only when enabled")
    func optInResponseStage() async throws {
        let stages: [any Stage] = [SyncSeal(id: id("A")), AsyncSeal(id: id("B")), SyncSeal(id: id("C")).optIn()]
        let client = try makeClient(stages: stages, transport: MockTransport(.status(.ok)))
        let plain = try await client.send(.users, .get, "/")
        let enabled = try await client.send(.users, .get, "/", options: CallOptions(enabledStages: [id("C")]))
        #expect(plain.headerFields[trail] == "BA")
        #expect(enabled.headerFields[trail] == "CBA")
    }

    @Test("the validation and null-stripping stages are synchronous")
    func builtInStagesAreSynchronous() {
        let stages: [any Stage] = [ValidationStage(), NullStrippingStage(), EnvelopeStage(successCodes: [0])]
        #expect(stages.map { $0 is any SynchronousResponseStage } == [true, true, false])
    }
}
