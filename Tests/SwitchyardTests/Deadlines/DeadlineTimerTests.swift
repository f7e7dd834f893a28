import Synchronization
import Testing

@testable import Switchyard

/// A clock the test moves by hand: the checks a timer schedules on it wait in a queue and run when
/// the clock reaches them.
private final class ManualClock: Sendable {
    private struct State {
        var now: Duration = .seconds(100)
        var pending: [(at: Duration, body: @Sendable () -> Void)] = []
    }

    private let state = Mutex(State())

    var now: Duration { state.withLock { $0.now } }

    /// The checks scheduled and not yet run.
    var scheduled: Int { state.withLock { $0.pending.count } }

    func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.pending.append(($0.now + delay, body)) }
    }

    /// Moves the clock by `amount`, running the checks that fall due in the order of their times (a
    /// check may schedule the next one).
    func advance(by amount: Duration) {
        let end = state.withLock { $0.now + amount }
        while true {
            let next: (@Sendable () -> Void)? = state.withLock { state in
                guard let index = state.pending.indices.min(by: { state.pending[$0].at < state.pending[$1].at }),
                    state.pending[index].at <= end
                else { return nil }
                let check = state.pending.remove(at: index)
                state.now = max(state.now, check.at)
                return check.body
            }
            guard let next else { break }
            next()
        }
        state.withLock { $0.now = end }
    }
}

/// A deadline timer on a ``ManualClock``.
private struct TimerUnderTest {
    let clock = ManualClock()
    let timer: DeadlineTimer

    init() {
        let clock = clock
        timer = DeadlineTimer(now: { clock.now }, schedule: { delay, body in clock.schedule(after: delay, body) })
    }

    var now: Duration { clock.now }
    var scheduled: Int { clock.scheduled }

    /// Moves the clock by `amount`, one interval unless told.
    func advance(by amount: Duration = DeadlineTimer.interval) { clock.advance(by: amount) }
}

/// Counts how often a watch was expired.
private final class Expiries: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func record() { count.withLock { $0 += 1 } }
}

@Suite("Deadline timer")
struct DeadlineTimerTests {
    @Test("a watch expires at the first check past its deadline, once, and is then forgotten")
    func expiresOnceAtItsDeadline() {
        let test = TimerUnderTest()
        let expiries = Expiries()
        _ = test.timer.watch(until: test.now + .milliseconds(25)) { expiries.record() }
        test.advance()
        test.advance()
        #expect(expiries.value == 0)
        test.advance()
        #expect(expiries.value == 1)
        #expect(test.timer.count == 0)
        test.advance(by: .milliseconds(100))
        #expect(expiries.value == 1)
    }

    @Test("a deadline sooner than one interval is met on time, not at the next interval")
    func soonDeadlineOnTime() {
        let test = TimerUnderTest()
        let expiries = Expiries()
        _ = test.timer.watch(until: test.now + .milliseconds(3)) { expiries.record() }
        test.advance(by: .milliseconds(2))
        #expect(expiries.value == 0)
        test.advance(by: .milliseconds(1))
        #expect(expiries.value == 1)
    }

    @Test("a watch ended before its deadline never expires")
    func endedWatchNeverExpires() {
        let test = TimerUnderTest()
        let expiries = Expiries()
        let id = test.timer.watch(until: test.now + .milliseconds(15)) { expiries.record() }
        test.advance()
        test.timer.end(id)
        test.advance(by: .milliseconds(100))
        #expect(expiries.value == 0)
        #expect(test.timer.count == 0)
    }

    @Test("only the watches past their deadline expire; the others stay")
    func expiresOnlyThoseDue() {
        let test = TimerUnderTest()
        let early = Expiries()
        let late = Expiries()
        _ = test.timer.watch(until: test.now + .milliseconds(5)) { early.record() }
        _ = test.timer.watch(until: test.now + .seconds(5)) { late.record() }
        test.advance()
        #expect(early.value == 1)
        #expect(late.value == 0)
        #expect(test.timer.count == 1)
        #expect(test.timer.isChecking)
    }

    @Test("the timer checks only while something is watched, and starts again with the next watch")
    func checksOnlyWhileWatching() {
        let test = TimerUnderTest()
        #expect(!test.timer.isChecking)
        let id = test.timer.watch(until: test.now + .seconds(5)) {}
        #expect(test.timer.isChecking)
        test.timer.end(id)
        test.advance()
        #expect(!test.timer.isChecking)
        #expect(test.scheduled == 0)
        let expiries = Expiries()
        _ = test.timer.watch(until: test.now + .milliseconds(1)) { expiries.record() }
        #expect(test.timer.isChecking)
        test.advance()
        #expect(expiries.value == 1)
        #expect(!test.timer.isChecking)
    }

    @Test("a watch whose deadline has passed already expires at the first check")
    func pastDeadlineExpiresAtOnce() {
        let test = TimerUnderTest()
        let expiries = Expiries()
        _ = test.timer.watch(until: test.now - .seconds(1)) { expiries.record() }
        test.advance(by: .zero)
        #expect(expiries.value == 1)
    }

    @Test("the real timer ends a watch on the continuous clock")
    func realTimerExpires() async throws {
        let timer = DeadlineTimer()
        let expired = AsyncStream<Void>.makeStream()
        _ = timer.watch(until: CallClock.now + .milliseconds(20)) { expired.continuation.yield() }
        var iterator = expired.stream.makeAsyncIterator()
        await iterator.next()
        #expect(timer.count == 0)
    }
}
