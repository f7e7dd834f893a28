import Foundation
import HTTPTypes
import SwitchyardTesting
import Testing

@testable import Switchyard

private let onMain = HTTPField.Name("X-On-Main")!

/// Marks the main queue, where the main actor runs its jobs. On Linux under `swift test` the main
/// actor's queue is not drained on the process's first thread, so `Thread.isMainThread` cannot tell.
private let mainQueueKey = DispatchSpecificKey<Bool>()

/// Whether the caller runs on the main actor's queue.
private func onMainActor() -> Bool {
    DispatchQueue.getSpecific(key: mainQueueKey) == true
}

/// Marks the request with whether it ran on the main actor, without waiting: a synchronous stage
/// runs on whatever executor the pipeline runs on.
private struct MainActorMark: SynchronousRequestStage {
    var id: StageID { "MainActorMark" }
    func prepareSynchronously(_ request: inout Request, context: CallContext) throws {
        request.headerFields[onMain] = onMainActor() ? "yes" : "no"
    }
}

/// An output that records whether it was decoded on the main actor.
private struct Probe: Decodable, Sendable {
    let decodedOnMain: Bool
    init(from decoder: any Decoder) throws {
        decodedOnMain = onMainActor()
    }
}

private struct GetProbe: Endpoint {
    typealias Output = Probe
    var service: ServiceID { .users }
    var method: HTTPRequest.Method { .get }
    var path: String { "/probe" }
}

/// Whether the transport's request was marked as prepared on the main actor.
private func stageRanOnMain(_ transport: MockTransport) -> Bool? {
    transport.requests.first?.headerFields[onMain].map { $0 == "yes" }
}

@Suite("Off the caller's actor: a call made on the main actor runs its stages and decoding elsewhere")
@MainActor
struct OffMainActorTests {
    init() {
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    }

    private func client(_ transport: MockTransport) throws -> APIClient {
        try makeClient(stages: [MainActorMark()], transport: transport)
    }

    @Test("control: a main-actor test body runs on the main queue, so the checks below can fail")
    func controlRunsOnMainQueue() {
        #expect(onMainActor())
    }

    @Test("send(endpoint) from the main actor runs a synchronous stage and the decoding off the main actor")
    func discreteSend() async throws {
        let transport = MockTransport(.json("{}"))
        let result = try await client(transport).send(GetProbe())
        #expect(onMainActor())
        #expect(stageRanOnMain(transport) == false)
        #expect(result.value.decodedOnMain == false)
    }

    @Test("the intensive send from the main actor runs a synchronous stage off the main actor")
    func intensiveRawSend() async throws {
        let transport = MockTransport(.status(.ok))
        _ = try await client(transport).send(.users, .get, "/probe")
        #expect(stageRanOnMain(transport) == false)
    }

    @Test("the intensive send with an output type from the main actor decodes off the main actor")
    func intensiveDecodedSend() async throws {
        let transport = MockTransport(.json("{}"))
        let result = try await client(transport).send(.users, .get, "/probe", as: Probe.self)
        #expect(stageRanOnMain(transport) == false)
        #expect(result.value.decodedOnMain == false)
    }

    @Test("a handle started from the main actor runs its call off the main actor")
    func handle() async throws {
        let transport = MockTransport(.json("{}"))
        let value = try await client(transport).start(GetProbe()).value
        #expect(stageRanOnMain(transport) == false)
        #expect(value.decodedOnMain == false)
    }

    @Test("Pipeline.send from the main actor runs a synchronous stage off the main actor")
    func pipelineSend() async throws {
        let transport = MockTransport(.status(.ok))
        let pipeline = Pipeline(serviceID: .users, stages: [MainActorMark()], transport: transport)
        let request = try #require(Request(method: .get, url: URL(string: "https://api.example.com/probe")!))
        _ = try await pipeline.send(request, context: CallContext(serviceID: .users))
        #expect(stageRanOnMain(transport) == false)
    }
}
