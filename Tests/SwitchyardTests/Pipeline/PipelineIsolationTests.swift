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

/// Marks the response without waiting, and after a suspension.
private struct Seal: SynchronousResponseStage {
    var id: StageID { StageID("Seal")! }
    func processSynchronously(_ response: inout Response, for request: Request, context: CallContext) throws {
        response.headerFields[HTTPField.Name("X-Sync")!] = "1"
    }
}

private struct LateSeal: ResponseStage {
    var id: StageID { StageID("LateSeal")! }
    func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
        await Task.yield()
        response.headerFields[HTTPField.Name("X-Async")!] = "1"
    }
}

/// A general stage that is an actor and passes the request on from inside its own isolation, as a
/// token refresher that holds its state in an actor would.
private actor Refresher: Stage {
    nonisolated var id: StageID { StageID("Refresher")! }

    nonisolated func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        try await passOn(request, context: context, next: next)
    }

    private func passOn(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        try await next(request, context)
    }
}

/// An actor that sends through a pipeline and through a client from its own isolation.
private actor Caller {
    func sendThroughPipeline(_ pipeline: Pipeline, timed: Bool = false) async throws {
        var context = CallContext(serviceID: .users)
        if timed { context.control = CallControl(recordsTimings: true) }
        let request = Request(head: HTTPRequest(method: .get, scheme: "https", authority: "api.test", path: "/"))
        _ = try await pipeline.send(request, context: context)
    }

    func sendThroughClient(_ client: APIClient) async throws {
        _ = try await client.send(.users, .get, "/")
    }

    func startThroughClient(_ client: APIClient) async throws {
        _ = try await client.start(DynamicEndpoint<Response>(service: .users, method: .get, path: "/")).value
    }
}

@Suite("Pipeline isolation")
struct PipelineIsolationTests {
    /// A pipeline called from an actor runs its links and transport on that actor, and comes back
    /// to it after `async` request and response stages that ran elsewhere; timed or not.
    @Test(arguments: [false, true])
    func pipelineRunsOnItsCallersActor(timed: Bool) async throws {
        let probe = IsolationProbe()
        let pipeline = Pipeline(serviceID: .users, stages: [Seal(), LateSeal(), Marks(), LateMark()], transport: probe)
        let caller = Caller()
        try await caller.sendThroughPipeline(pipeline, timed: timed)
        #expect(probe.isolations == [ObjectIdentifier(caller)])
    }

    /// A general stage that passes the request on from inside an actor does not pull the rest of the
    /// pipeline onto that actor: the transport runs off every actor.
    @Test func actorStageDoesNotPullThePipelineOntoItself() async throws {
        let probe = IsolationProbe()
        let pipeline = Pipeline(serviceID: .users, stages: [Refresher(), Marks()], transport: probe)
        try await Caller().sendThroughPipeline(pipeline)
        #expect(probe.isolations == [nil])
    }

    /// A client call runs its pipeline off every actor, even when it is made from one: sent, or
    /// started as a handle.
    @Test func clientCallLeavesItsCallersActor() async throws {
        let probe = IsolationProbe()
        let client = try makeClient(transport: probe)
        let caller = Caller()
        try await caller.sendThroughClient(client)
        try await caller.startThroughClient(client)
        #expect(probe.isolations == [nil, nil])
    }
}
