import Dispatch
import Foundation
import Switchyard
import SwitchyardAppState
import SwitchyardTesting
import Synchronization
import Testing

/// Holds one call's answer until the test releases it, ignoring cancellation — a transport whose
/// answer is already on its way when the cancel comes.
private final class AnswerLatch: Sendable {
    private struct State {
        var waiting: CheckedContinuation<Void, Never>?
        var released = false
        var arrival: CheckedContinuation<Void, Never>?
        var arrived = false
    }

    private let state = Mutex(State())

    /// Called by the transport: signals the arrival and waits for the release.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (resumeNow, arrival) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
                state.arrived = true
                defer { state.arrival = nil }
                if state.released { return (true, state.arrival) }
                state.waiting = continuation
                return (false, state.arrival)
            }
            arrival?.resume()
            if resumeNow { continuation.resume() }
        }
    }

    /// Returns once the call has reached the transport.
    func arrived() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.arrived { return true }
                state.arrival = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Lets the answer go.
    func release() {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.released = true
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume()
    }
}

/// The latch the transport waits at for the next call.
private final class LatchSlot: Sendable {
    private let state = Mutex(AnswerLatch())

    var latch: AnswerLatch {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}

@Suite("Call handles: cancel() is exact against an answer arriving at the same moment", .timeLimit(.minutes(2)))
struct CallHandleCancelRaceTests {
    /// A client whose transport answers each call with a user once the current latch releases it.
    private static func latchedClient() throws -> (APIClient, LatchSlot) {
        let current = LatchSlot()
        let transport = MockTransport { _, _ in
            let latch = current.latch
            await latch.wait()
            return Response(status: .ok, headerFields: [.contentType: "application/json"], body: Data(#"{"id":1,"name":"Ada"}"#.utf8))
        }
        return (try makeClient(transport: transport), current)
    }

    @Test("3,000 races of handle.cancel() against the answer: once cancel() returns the state is final and the result agrees")
    func cancelRacesTheAnswer() async throws {
        let (client, current) = try Self.latchedClient()
        var cancelled = 0
        var succeeded = 0
        for _ in 0..<3000 {
            let latch = AnswerLatch()
            current.latch = latch
            let handle = client.start(GetUser(id: "1"))
            await latch.arrived()
            // The answer is released, and the cancel comes after a random number of scheduler turns:
            // sometimes before the answer reaches the handle, sometimes while it does, sometimes after.
            latch.release()
            for _ in 0..<Int.random(in: 0...24) { await Task.yield() }
            handle.cancel()
            let after = handle.state
            let result = await handle.result
            switch after {
            case .running:
                Issue.record("the handle reads running after cancel() returned")
            case .cancelled:
                cancelled += 1
                #expect(result.error?.code == .cancelled, "the handle read cancelled, then the call ended \(result)")
            case .succeeded:
                // The answer was delivered before cancel(): the handle had already ended.
                succeeded += 1
                #expect((try? result.get()) != nil)
            case .failed(let error):
                Issue.record("the call failed: \(error)")
            }
            #expect(handle.state.name == after.name, "the state changed after cancel() returned")
        }
        // Both orders happened, so the race was run, not avoided.
        #expect(cancelled > 0)
        #expect(succeeded > 0)
        print("handle.cancel() races: \(cancelled) cancelled, \(succeeded) ended before the cancel, 0 successes after it")
    }

    @Test("a handle reads cancelled as soon as a tag cancel that reported it returns")
    func tagCancelIsExactForHandles() async throws {
        let (client, current) = try Self.latchedClient()
        let latch = current.latch
        let handle = client.start(GetUser(id: "1"), options: CallOptions(tags: ["screen"]))
        await latch.arrived()
        #expect(client.cancel(.tag("screen")) == [handle.id])
        #expect(handle.state.name == "cancelled")
        latch.release()
        #expect(await handle.result.error?.code == .cancelled)
    }

    @Test("a handle reads cancelled as soon as its scope's cancelAll() returns, and its late answer is dropped")
    func scopeCancelIsExactForHandles() async throws {
        let (client, current) = try Self.latchedClient()
        let latch = current.latch
        let scope = RequestScope()
        var options = CallOptions()
        options.scope = scope
        let handle = client.start(GetUser(id: "1"), options: options)
        await latch.arrived()
        scope.cancelAll()
        #expect(handle.state.name == "cancelled")
        latch.release()
        #expect(await handle.result.error?.code == .cancelled)
    }

    @Test("a completion-handler call cancelled through its handle completes cancelled, never with the late answer")
    func completionHandlerCancelIsExact() async throws {
        let (client, current) = try Self.latchedClient()
        let latch = current.latch
        let queue = DispatchQueue(label: "completion")
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<SwitchyardError.Code?, Never>) in
            let handle = client.send(GetUser(id: "1"), queue: queue) { result in
                continuation.resume(returning: result.error?.code)
            }
            Task {
                await latch.arrived()
                handle.cancel()
                latch.release()
            }
        }
        #expect(outcome == .cancelled)
    }
}
