import Foundation
import HTTPTypes
import Synchronization
import Testing

@testable import Switchyard

/// A transport that notes the isolation it runs under: `nonisolated(nonsending)`, as the requirement
/// is, so `#isolation` names the executor of the pipeline that calls it.
private final class IsolationProbe: Transport {
    private let seen = Mutex<[ObjectIdentifier?]>([])

    // It answers at once; a transport that did not observe the call's control would be run in a
    // task of its own, off the pipeline's executor.
    var observesCallCancellation: Bool { true }

    nonisolated(nonsending) func send(_ request: Request, context: CallContext) async throws -> Response {
        let isolation = #isolation
        seen.withLock { $0.append(isolation.map { ObjectIdentifier($0) }) }
        return Response(status: .ok)
    }

    /// The isolation of each send so far: the actor's identity, or `nil` off every actor.
    var isolations: [ObjectIdentifier?] { seen.withLock { $0 } }
}

/// Sets a field without waiting, and one after a suspension.
private struct Marks: SynchronousRequestStage {
    var id: StageID { StageID("Marks")! }
    func prepareSynchronously(_ request: inout Request, context: CallContext) throws {
        request.headerFields[HTTPField.Name("X-Sync")!] = "1"
    }
}

private struct LateMark: RequestStage {
    var id: StageID { StageID("LateMark")! }
    func prepare(_ request: inout Request, context: CallContext) async throws {
        await Task.yield()
        request.headerFields[HTTPField.Name("X-Async")!] = "1"
    }
}

/// An actor that sends through a pipeline and through a client from its own isolation.
private actor Caller {
    func sendThroughPipeline(_ pipeline: Pipeline) async throws {
        _ = try await pipeline.send(
            Request(head: HTTPRequest(method: .get, scheme: "https", authority: "api.test", path: "/")),
            context: CallContext(serviceID: .users)
        )
    }

    func sendThroughClient(_ client: APIClient) async throws {
        _ = try await client.send(.users, .get, "/")
    }
}

@Suite("Pipeline isolation")
struct PipelineIsolationTests {
    /// A pipeline called from an actor runs its links and transport on that actor, and comes back
    /// to it after an `async` stage that ran elsewhere.
    @Test func pipelineRunsOnItsCallersActor() async throws {
        let probe = IsolationProbe()
        let pipeline = Pipeline(serviceID: .users, stages: [Marks(), LateMark()], transport: probe)
        let caller = Caller()
        try await caller.sendThroughPipeline(pipeline)
        #expect(probe.isolations == [ObjectIdentifier(caller)])
    }

    /// A client call runs its pipeline off every actor, even when it is made from one.
    @Test func clientCallLeavesItsCallersActor() async throws {
        let probe = IsolationProbe()
        let client = try makeClient(transport: probe)
        try await Caller().sendThroughClient(client)
        #expect(probe.isolations == [nil])
    }
}
