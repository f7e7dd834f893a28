import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Synchronization
import Testing

@Suite("Retry stage and deadlines")
struct RetryStageTests {
    /// Records the delays instead of sleeping.
    final class Sleeps: Sendable {
        let delays = Mutex<[Duration]>([])
        var sleep: @Sendable (Duration) async throws -> Void { { delay in self.delays.withLock { $0.append(delay) } } }
        var recorded: [Duration] { delays.withLock { $0 } }
    }

    @Test("transient failures are retried with exponential backoff until success; attempts count up through inner stages")
    func retriesUntilSuccess() async throws {
        let sleeps = Sleeps()
        let transport = MockTransport(sequence: [.status(.serviceUnavailable), .connectionRefused, .json("{}")], repeatsLast: true)
        let stage = RetryStage(RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(100), jitter: 0), sleep: sleeps.sleep)
        let recorder = EventRecorder()
        let client = try makeClient(stages: [stage, RecordingStage("inner", recorder)], transport: transport)
        let result = try await client.send(.users, .get, "/a")
        #expect(result.status == .ok)
        #expect(result.attempts == 3)
        #expect(transport.contexts.map(\.attempt) == [1, 2, 3])
        #expect(sleeps.recorded == [.milliseconds(100), .milliseconds(200)])
        #expect(recorder.events.filter { $0 == "inner in" }.count == 3)
    }

    @Test("POST is not retried unless the call opts in; attempts stop at the maximum with the last outcome")
    func idempotency() async throws {
        let sleeps = Sleeps()
        let stage = RetryStage(RetryPolicy(maxAttempts: 3, jitter: 0), sleep: sleeps.sleep)
        let post = MockTransport(.connectionRefused)
        let client = try makeClient(stages: [stage], transport: post)
        await #expect(throws: SwitchyardError.self) { try await client.send(.users, .post, "/orders") }
        #expect(post.requests.count == 1)
        var options = CallOptions()
        options.allowRetryingNonIdempotent()
        do {
            _ = try await client.send(.users, .post, "/orders", options: options)
        } catch {
            #expect(error.code == .transport)
        }
        #expect(post.requests.count == 4)
        let get = MockTransport(.status(.badGateway))
        let client2 = try makeClient(stages: [stage], transport: get)
        await #expect(throws: SwitchyardError.self) { try await client2.send(.users, .get, "/a") }
        #expect(get.requests.count == 3)
    }

    @Test("Retry-After is honoured (capped), 4xx and business failures are not retried, jitter stays within its band")
    func retryAfterAndClassification() async throws {
        let sleeps = Sleeps()
        let stage = RetryStage(RetryPolicy(maxAttempts: 2, maxDelay: .seconds(5)), sleep: sleeps.sleep)
        let limited = MockTransport(sequence: [.status(.tooManyRequests, headerFields: [.retryAfter: "3"]), .json("{}")])
        _ = try await makeClient(stages: [stage], transport: limited).send(.users, .get, "/a")
        let long = MockTransport(sequence: [.status(.serviceUnavailable, headerFields: [.retryAfter: "120"]), .json("{}")])
        _ = try await makeClient(stages: [stage], transport: long).send(.users, .get, "/a")
        #expect(sleeps.recorded == [.seconds(3), .seconds(5)])

        let notFound = MockTransport(.status(.notFound))
        _ = try? await makeClient(stages: [stage], transport: notFound).send(.users, .get, "/a")
        #expect(notFound.requests.count == 1)
        let business = MockTransport(.json(#"{"code":5,"msg":"no"}"#))
        _ = try? await makeClient(stages: [stage, EnvelopeStage(successCodes: [0])], transport: business).send(.users, .get, "/a")
        #expect(business.requests.count == 1)

        let jitter = RetryPolicy(baseDelay: .milliseconds(400), jitter: 0.5)
        #expect(jitter.backoff(beforeRetry: 1) == .milliseconds(400))
        #expect(jitter.backoff(beforeRetry: 3) == .milliseconds(1600))
        #expect(RetryPolicy(baseDelay: .seconds(4), maxDelay: .seconds(5)).backoff(beforeRetry: 4) == .seconds(5))
    }

    @Test("a shared budget stops retries when a backend keeps failing, and successes earn it back")
    func budget() async throws {
        let budget = RetryBudget(capacity: 2, ratio: 0.5)
        let stage = RetryStage(RetryPolicy(maxAttempts: 5, jitter: 0), budget: budget, sleep: { _ in })
        let failing = MockTransport(.status(.serviceUnavailable))
        let client = try makeClient(stages: [stage], transport: failing)
        _ = try? await client.send(.users, .get, "/a")
        #expect(failing.requests.count == 3)  // one attempt and the two retries the budget allows
        _ = try? await client.send(.users, .get, "/a")
        #expect(failing.requests.count == 4)  // no retry left
        let healthy = try makeClient(stages: [stage], transport: MockTransport(.json("{}")))
        _ = try await healthy.send(.users, .get, "/a")
        _ = try await healthy.send(.users, .get, "/a")
        #expect(budget.available == 1)
    }

    @Test(
        "the overall deadline ends a call across attempts and waits with the timeout code",
        .timeLimit(.minutes(1))
    )
    func deadline() async throws {
        let stage = RetryStage(RetryPolicy(maxAttempts: 10, baseDelay: .milliseconds(50), jitter: 0))
        let slow = MockTransport(.delayed(by: .milliseconds(80), then: .status(.serviceUnavailable)))
        let client = try makeClient(stages: [stage], transport: slow)
        do {
            _ = try await client.send(.users, .get, "/a", options: CallOptions(deadline: .milliseconds(300)))
            Issue.record("expected a failure")
        } catch {
            #expect(error.code == .timeout || error.code == .httpStatus)
        }
        #expect(slow.requests.count < 10)

        // A stage that hangs in a wait that knows nothing of the call's control is cut off by the
        // deadline too: its sleep is cancelled, instead of running its 30 s out. The call may end
        // before the abandoned stage sees its cancellation, so the test waits for the stage to leave
        // its sleep (the time limit bounds that wait) before reading how it left.
        let cutOff = Locked<Bool?>(nil)
        let left = Gate()
        left.open()
        let hanging = ClosureStage(id: "Hang") { _, _, _ in
            do {
                try await Task.sleep(for: .seconds(30))
                cutOff.withLock { $0 = false }
            } catch {
                cutOff.withLock { $0 = true }
            }
            try? await left.pass()
            throw CancellationError()
        }
        let client2 = try makeClient(
            stages: [hanging],
            defaults: ServiceDefaults(deadline: .milliseconds(100)),
            transport: MockTransport(.json("{}"))
        )
        do {
            _ = try await client2.send(.users, .get, "/a")
            Issue.record("expected a timeout")
        } catch {
            #expect(error.code == .timeout)
            #expect(error.requestID != nil)
        }
        #expect(client2.callsInFlight.isEmpty)
        await left.arrivals(1)
        #expect(cutOff.withLock { $0 } == true)
    }

    @Test(
        "the deadline ends a call whose stage waits on something nothing cancels; the abandoned wait is dropped",
        .timeLimit(.minutes(1))
    )
    func deadlineLeavesAStuckStage() async throws {
        // The stage parks on a continuation that neither the call's control nor task cancellation
        // reaches: only leaving it behind can end the call.
        let parked = Locked<[CheckedContinuation<Void, Never>]>([])
        let stuck = ClosureStage(id: "Stuck") { request, context, next in
            await withCheckedContinuation { continuation in parked.withLock { $0.append(continuation) } }
            return try await next(request, context)
        }
        let transport = MockTransport(.json("{}"))
        let client = try makeClient(stages: [stuck], defaults: ServiceDefaults(deadline: .milliseconds(100)), transport: transport)
        // Raced against a guard, so that a call the deadline fails to end makes this test fail, not hang.
        let first = await withTaskGroup(of: String?.self) { group in
            group.addTask {
                do throws(SwitchyardError) {
                    _ = try await client.send(.users, .get, "/a")
                    return "success"
                } catch {
                    return "\(error.code)"
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(20))
                return nil
            }
            let first = await group.next() ?? nil
            // Released now, the abandoned run goes on to the transport, and its answer is dropped.
            for continuation in parked.withLock({ $0 }) { continuation.resume() }
            group.cancelAll()
            return first
        }
        #expect(first == "\(SwitchyardError.Code.timeout)", "the call did not end at its deadline")
        #expect(parked.withLock { $0.count } == 1)
        #expect(client.callsInFlight.isEmpty)
    }
}
