import Foundation
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Call handles: the id before the call ends, cancel by id and by a list, state", .timeLimit(.minutes(1)))
struct CallHandleTests {
    /// A transport that holds every call at `gate`, then answers with a user.
    static func gated(_ gate: Gate) -> MockTransport {
        MockTransport { _, _ in
            try await gate.pass()
            return Response(status: .ok, headerFields: [.contentType: "application/json"], body: Data(#"{"id":1,"name":"Ada"}"#.utf8))
        }
    }

    @Test("a handle's id is known before the call ends, and cancel(id) with it cancels that call only")
    func cancelByID() async throws {
        let gate = Gate()
        let client = try makeClient(transport: Self.gated(gate))
        let first = client.start(GetUser(id: "1"))
        let second = client.start(GetUser(id: "2"))
        await gate.arrivals(2)
        #expect(first.id != second.id)
        #expect(Set(client.callsInFlight) == [first.id, second.id])
        #expect(first.state.name == "running")

        #expect(client.cancel(.id(first.id)) == [first.id])
        let cancelled = await first.result
        #expect(cancelled.error?.code == .cancelled)
        #expect(cancelled.error?.requestID == first.id)
        #expect(first.state.name == "cancelled")
        #expect(second.state.name == "running")

        gate.open()
        let result = try await second.result.get()
        #expect(result.value == User(id: 1, name: "Ada"))
        #expect(result.requestID == second.id)
        #expect(second.state.name == "succeeded")
    }

    @Test("cancel(id) reaches a call that has not reached the pipeline yet")
    func cancelBeforeAdmission() async throws {
        let gate = Gate()
        let client = try makeClient(transport: Self.gated(gate))
        let handle = client.start(GetUser(id: "1"))
        #expect(client.cancel(.id(handle.id)) == [handle.id])
        #expect(await handle.result.error?.code == .cancelled)
        #expect(client.cancel(.id(handle.id)).isEmpty)
    }

    @Test("cancel by a list of ids cancels exactly those calls and returns the ones that were in flight")
    func cancelByList() async throws {
        let gate = Gate()
        let client = try makeClient(transport: Self.gated(gate))
        let handles = (1...4).map { client.start(GetUser(id: String($0))) }
        await gate.arrivals(4)
        let unknown = RequestID.next()
        let cancelled = client.cancel(.ids([handles[0].id, handles[2].id, unknown]))
        #expect(Set(cancelled) == [handles[0].id, handles[2].id])
        gate.open()
        let codes = await [handles[0].result, handles[1].result, handles[2].result, handles[3].result].map { $0.error?.code }
        #expect(codes == [.cancelled, nil, .cancelled, nil])
        #expect(client.callsInFlight.isEmpty)
    }

    @Test("handle.cancel() ends the call cancelled; awaiting value throws the cancellation")
    func cancelThroughHandle() async throws {
        let gate = Gate()
        let client = try makeClient(transport: Self.gated(gate))
        let handle = client.start(GetUser(id: "1"))
        await gate.arrivals(1)
        handle.cancel()
        await #expect(throws: SwitchyardError.self) { _ = try await handle.value }
        #expect(handle.state.name == "cancelled")
    }

    @Test("a failed call ends in the failed state with its error")
    func failedState() async throws {
        let client = try makeClient(transport: MockTransport(.status(.notFound)))
        let handle = client.start(GetUser(id: "1"))
        #expect(await handle.result.error?.code == .httpStatus)
        guard case .failed(let error) = handle.state else {
            Issue.record("expected failed, got \(handle.state)")
            return
        }
        #expect(error.status?.code == 404)
    }
}

extension CallState {
    /// The state's name, for comparisons in tests.
    var name: String {
        switch self {
        case .running: "running"
        case .succeeded: "succeeded"
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }
}

extension Result {
    /// The failure, if any.
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
