import Dispatch
import Foundation
import Switchyard
import SwitchyardAppState
import SwitchyardTesting
import Testing

@Suite("Completion handlers: exactly once, on the caller's queue, cancellation included", .timeLimit(.minutes(1)))
struct CompletionHandlerTests {
    /// A serial queue that knows itself, and a record of every completion it ran.
    final class Callbacks: Sendable {
        let queue = DispatchQueue(label: "switchyard.tests.callbacks")
        private let key = DispatchSpecificKey<Int>()
        /// For each callback, in order: its label and whether it ran on `queue`.
        let calls = Locked<[(String, Bool)]>([])
        private let done = Locked<[CheckedContinuation<Void, Never>]>([])

        init() { queue.setSpecific(key: key, value: 1) }

        /// Records a callback labelled `label`; a completion (`finishes`) wakes ``waitForCompletion()``.
        func record(_ label: String, finishes: Bool = false) {
            calls.withLock { $0.append((label, DispatchQueue.getSpecific(key: key) == 1)) }
            guard finishes else { return }
            for waiter in done.withLock({ waiters in
                defer { waiters.removeAll() }
                return waiters
            }) { waiter.resume() }
        }

        /// Returns once a completion has run (immediately if one has).
        func waitForCompletion() async {
            await withCheckedContinuation { continuation in
                let now = calls.withLock { $0.contains { $0.0.hasPrefix("completion") } }
                if now { continuation.resume() } else { done.withLock { $0.append(continuation) } }
            }
        }

        /// Returns once everything queued so far has run, so a second completion would be recorded.
        func drain() async {
            await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        }

        var completions: [String] { calls.withLock { $0.map(\.0).filter { $0.hasPrefix("completion") } } }
        var allOnQueue: Bool { calls.withLock { $0.allSatisfy(\.1) } }
    }

    @Test("a success is delivered once, on the chosen queue")
    func successOnce() async throws {
        let client = try makeClient(transport: MockTransport(.json(#"{"id":1,"name":"Ada"}"#)))
        let callbacks = Callbacks()
        let handle = client.send(GetUser(id: "1"), queue: callbacks.queue) { result in
            callbacks.record("completion \((try? result.get().value.name) ?? "-")", finishes: true)
        }
        await callbacks.waitForCompletion()
        _ = await handle.result
        await callbacks.drain()
        #expect(callbacks.completions == ["completion Ada"])
        #expect(callbacks.allOnQueue)
    }

    @Test("a failure is delivered once, on the chosen queue, with the call's error")
    func failureOnce() async throws {
        let client = try makeClient(transport: MockTransport(.status(.internalServerError)))
        let callbacks = Callbacks()
        client.send(GetUser(id: "1"), queue: callbacks.queue) { result in
            callbacks.record("completion \(result.error?.code.description ?? "ok")", finishes: true)
        }
        await callbacks.waitForCompletion()
        await callbacks.drain()
        #expect(callbacks.completions == ["completion \(SwitchyardError.Code.httpStatus)"])
        #expect(callbacks.allOnQueue)
    }

    @Test("cancelling through the handle delivers cancelled once, on the chosen queue")
    func cancelledThroughHandle() async throws {
        let gate = Gate()
        let client = try makeClient(transport: CallHandleTests.gated(gate))
        let callbacks = Callbacks()
        let handle = client.send(GetUser(id: "1"), queue: callbacks.queue) { result in
            callbacks.record("completion \(result.error?.code.description ?? "ok")", finishes: true)
        }
        await gate.arrivals(1)
        handle.cancel()
        handle.cancel()
        await callbacks.waitForCompletion()
        gate.open()
        _ = await handle.result
        await callbacks.drain()
        #expect(callbacks.completions == ["completion \(SwitchyardError.Code.cancelled)"])
        #expect(callbacks.allOnQueue)
    }

    @Test("cancelling by id before the call is sent still delivers cancelled exactly once")
    func cancelledByIDAtOnce() async throws {
        let gate = Gate()
        let client = try makeClient(transport: CallHandleTests.gated(gate))
        let callbacks = Callbacks()
        let handle = client.send(GetUser(id: "1"), queue: callbacks.queue) { result in
            callbacks.record("completion \(result.error?.code.description ?? "ok")", finishes: true)
        }
        client.cancel(.id(handle.id))
        await callbacks.waitForCompletion()
        gate.open()
        _ = await handle.result
        await callbacks.drain()
        #expect(callbacks.completions == ["completion \(SwitchyardError.Code.cancelled)"])
    }

    @Test("a download's progress blocks and completion run on the chosen queue, the completion last")
    func downloadOnQueue() async throws {
        let directory = try TemporaryDirectory()
        let gate = Gate()
        gate.open()
        let client = try makeClient(transport: CallProgressTests.downloadTransport(gate))
        let callbacks = Callbacks()
        var options = CallOptions()
        options.downloadProgress = { progress in callbacks.record("progress \(progress.completed)") }
        let destination = directory.url.appendingPathComponent("big.bin")
        let endpoint = DynamicEndpoint<Response>(service: .users, method: .get, path: "/big")
        client.send(endpoint.downloading(to: destination), options: options, queue: callbacks.queue) { result in
            callbacks.record("completion \((try? result.get().value.byteCount) ?? -1)", finishes: true)
        }
        await callbacks.waitForCompletion()
        await callbacks.drain()
        let labels = callbacks.calls.withLock { $0.map(\.0) }
        #expect(labels.last == "completion \(CallProgressTests.size)")
        #expect(labels.dropLast().allSatisfy { $0.hasPrefix("progress") } && labels.count >= 5)
        #expect(callbacks.completions.count == 1)
        #expect(callbacks.allOnQueue)
    }

    #if !canImport(Darwin)
    @Test("outside Apple platforms the default queue is Switchyard's serial queue, which always runs")
    func linuxDefaultQueue() async throws {
        let client = try makeClient(transport: MockTransport(.json(#"{"id":1,"name":"Ada"}"#)))
        let key = DispatchSpecificKey<Int>()
        APIClient.defaultCompletionQueue.setSpecific(key: key, value: 7)
        let onDefault = await withCheckedContinuation { continuation in
            client.send(GetUser(id: "1")) { _ in continuation.resume(returning: DispatchQueue.getSpecific(key: key) == 7) }
        }
        #expect(onDefault)
    }
    #endif
}
