import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Synchronization
import Testing

/// A transport that stays in flight for a random number of scheduler turns, without timers, and
/// observes the call's cancellation itself (so the pipeline runs it in the caller's task).
private struct YieldingTransport: Transport {
    var observesCallCancellation: Bool { true }

    func send(_ request: Request, context: CallContext) async throws -> Response {
        for _ in 0..<Int.random(in: 0...20) {
            await Task.yield()
            if let cancelled = context.control.cancellationError { throw cancelled }
            try Task.checkCancellation()
        }
        return Response(status: .ok, body: Data("{}".utf8))
    }
}

@Suite("The cancel contract: a reported cancellation is the call's end")
struct CancelContractTests {
    @Test(
        "stress: calls on both kinds of transport, cancelled by every means; each reported cancellation ends cancelled, each call ends once"
    )
    func reportedCancellationsEndCancelled() async throws {
        let registry = makeRegistry()
        try registry.register(Service(.users, baseURL: "https://api.example.com", transport: YieldingTransport()))
        let fallback = MockTransport { _, _ in
            for _ in 0..<Int.random(in: 0...20) {
                await Task.yield()
                try Task.checkCancellation()
            }
            return Response(status: .ok, body: Data("{}".utf8))
        }
        try registry.register(Service(.catalog, baseURL: "https://catalog.example.com", transport: fallback))
        let client = APIClient(registry: registry)
        let tags = (0..<8).map { RequestTag("t\($0)") }
        let scopes = (0..<8).map { _ in RequestScope() }
        let reported = Locked(Set<RequestID>())
        let ended = Locked<[RequestID: SwitchyardError.Code?]>([:])
        let endedTwice = Locked(0)
        let record: @Sendable (RequestID, SwitchyardError.Code?) -> Void = { id, code in
            ended.withLock { ended in
                if ended.updateValue(code, forKey: id) != nil { endedTwice.withLock { $0 += 1 } }
            }
        }
        let calls = 2000
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<calls {
                var options = CallOptions(tags: [tags[index % tags.count]])
                if index % 3 == 0 { options.scope = scopes[index % scopes.count] }
                let service: ServiceID = index % 2 == 0 ? .users : .catalog
                if index % 5 == 0 {
                    // Through a handle, which `cancel(_:)` and `cancelAll()` reach as well.
                    let handle = client.start(
                        DynamicEndpoint<Response>(service: service, method: .get, path: "/h/\(index)"),
                        options: options
                    )
                    group.addTask {
                        switch await handle.result {
                        case .success: record(handle.id, nil)
                        case .failure(let error): record(handle.id, error.code)
                        }
                    }
                } else {
                    let options = options
                    group.addTask {
                        do throws(SwitchyardError) {
                            let result = try await client.send(service, .get, "/s/\(index)", options: options)
                            record(result.requestID, nil)
                        } catch {
                            if let id = error.requestID { record(id, error.code) }
                        }
                    }
                }
                if index % 40 == 20 {
                    group.addTask {
                        let ids: [RequestID]
                        switch Int.random(in: 0..<8) {
                        case 0: ids = client.callsInFlight.randomElement().map { client.cancel(.id($0)) } ?? []
                        case 1: ids = client.cancel(.ids(client.callsInFlight.shuffled().prefix(5)))
                        case 2: ids = client.cancel(.tag(tags.randomElement()!))
                        case 3: ids = client.cancel(.service(Bool.random() ? .users : .catalog))
                        case 4: ids = client.cancel(.oldest)
                        case 5: ids = client.cancel(.newest)
                        case 6: ids = client.cancel(.all)
                        default:
                            scopes.randomElement()!.cancelAll()
                            ids = []
                        }
                        reported.withLock { $0.formUnion(ids) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let outcomes = ended.withLock { $0 }
        let cancelledIDs = reported.withLock { $0 }
        #expect(endedTwice.withLock { $0 } == 0)
        #expect(outcomes.count == calls)
        #expect(!cancelledIDs.isEmpty)
        let broken = cancelledIDs.filter { outcomes[$0] != .some(.cancelled) }
        #expect(broken.isEmpty, "reported cancelled, but ended otherwise: \(broken.prefix(5).map { ($0, outcomes[$0] as Any) })")
        #expect(outcomes.values.allSatisfy { $0 == nil || $0 == .cancelled })
        #expect(client.callsInFlight.isEmpty)
    }

    @Test("a call whose scope was released before it was admitted never starts: it ends cancelled and nothing is sent")
    func releasedScopeNeverStarts() async throws {
        let sent = Locked(0)
        let client = try makeClient(
            transport: MockTransport { _, _ in
                sent.withLock { $0 += 1 }
                return Response(status: .ok, body: Data("{}".utf8))
            }
        )
        var scope: RequestScope? = RequestScope()
        var options = CallOptions()
        options.scope = scope
        scope = nil
        await #expect(throws: SwitchyardError.self) { try await client.send(.users, .get, "/a", options: options) }
        do throws(SwitchyardError) {
            _ = try await client.send(.users, .get, "/a", options: options)
        } catch {
            #expect(error.code == .cancelled)
            #expect(error.message.contains("scope"))
        }
        #expect(sent.withLock { $0 } == 0)
        #expect(client.callsInFlight.isEmpty)
    }

    @Test("cancelling a call by id ends it cancelled and leaves its caller's task running", arguments: [true, false])
    func callerTaskSurvives(observing: Bool) async throws {
        let gate = Gate()
        let transport: any Transport =
            observing
            ? GatedObservingTransport(gate: gate)
            : MockTransport { _, _ in
                try await gate.pass()
                return Response(status: .ok, body: Data("{}".utf8))
            }
        let client = try makeClient(transport: transport)
        let caller = Task { () -> (SwitchyardError.Code?, Bool, Bool) in
            var code: SwitchyardError.Code?
            do throws(SwitchyardError) {
                _ = try await client.send(.users, .get, "/held")
            } catch {
                code = error.code
            }
            let stillRunning = !Task.isCancelled
            // The same task goes on to make another call, which succeeds.
            let next = (try? await client.send(.users, .get, "/next", options: CallOptions(skippedStages: []))) != nil
            return (code, stillRunning, next)
        }
        await gate.arrivals(1)
        let id = try #require(client.callsInFlight.first)
        #expect(client.cancel(.id(id)) == [id])
        gate.open()
        let (code, stillRunning, next) = await caller.value
        #expect(code == .cancelled)
        #expect(stillRunning)
        #expect(next)
    }

    @Test("stage timings are recorded only when asked, one entry per stage that ran, outermost first, the transport last")
    func stageTimings() async throws {
        let stages: [any Stage] = [
            ClosureStage.request(id: "outer") { request, _ in request.headerFields[HTTPField.Name("X-A")!] = "1" },
            ClosureStage(id: "around") { request, context, next in try await next(request, context) },
            ClosureStage.response(id: "inner") { response, _, _ in response.headerFields[HTTPField.Name("X-B")!] = "2" },
        ]
        let client = try makeClient(stages: stages, transport: MockTransport(.json("{}")))
        #expect(try await client.send(.users, .get, "/a").stageTimings == nil)
        var options = CallOptions()
        options.recordsStageTimings = true
        let timed = try await client.send(.users, .get, "/a", options: options)
        let timings = try #require(timed.stageTimings)
        #expect(timings.entries.map(\.stage.description) == ["outer", "around", "inner", "transport"])
        #expect(timings.entries.allSatisfy { $0.inbound >= .zero && $0.outbound >= .zero })
        #expect(timings.total > .zero)
        #expect(timings.line.hasPrefix("stages: outer "))
        options.skippedStages = ["around"]
        let skipped = try #require(try await client.send(.users, .get, "/a", options: options).stageTimings)
        #expect(skipped.entries.map(\.stage.description) == ["outer", "inner", "transport"])
    }
}

/// Holds each exchange at a gate, and leaves it when the call is cancelled.
private struct GatedObservingTransport: Transport {
    let gate: Gate
    var observesCallCancellation: Bool { true }

    func send(_ request: Request, context: CallContext) async throws -> Response {
        if request.pathWithoutQuery == "/next" { return Response(status: .ok, body: Data("{}".utf8)) }
        let passing = Task { try await gate.pass() }
        try await context.control.withCancellationHandler {
            try await passing.value
        } onCancel: {
            passing.cancel()
        }
        return Response(status: .ok, body: Data("{}".utf8))
    }
}
