import NIOCore
import NIOEmbedded
import Synchronization
import Testing

@testable import SwitchyardAsyncHTTPClient

/// A clock the test moves by hand, together with the event loop's.
private final class ManualClock: Sendable {
    private let current = Mutex(NIODeadline.uptimeNanoseconds(1_000_000_000))

    var now: NIODeadline { current.withLock { $0 } }

    /// Moves this clock and the loop's by `amount`, running the checks that fall due.
    func advance(by amount: TimeAmount, loop: EmbeddedEventLoop) {
        current.withLock { $0 = $0 + amount }
        loop.advanceTime(by: amount)
    }
}

/// Counts how often an exchange was expired.
private final class Expiries: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func record() { count.withLock { $0 += 1 } }
}

@Suite("Deadline sweeper")
struct DeadlineSweeperTests {
    /// An exchange is expired at the first check past its deadline, once, and then forgotten.
    @Test func expiresAtTheFirstCheckPastItsDeadline() {
        let loop = EmbeddedEventLoop()
        let clock = ManualClock()
        let sweeper = DeadlineSweeper(eventLoop: loop, now: { clock.now })
        let expiries = Expiries()
        _ = sweeper.watch(until: clock.now + .milliseconds(25)) { expiries.record() }
        clock.advance(by: DeadlineSweeper.interval, loop: loop)
        clock.advance(by: DeadlineSweeper.interval, loop: loop)
        #expect(expiries.value == 0)
        clock.advance(by: DeadlineSweeper.interval, loop: loop)
        #expect(expiries.value == 1)
        #expect(sweeper.count == 0)
        clock.advance(by: .milliseconds(100), loop: loop)
        #expect(expiries.value == 1)
    }

    /// An exchange that ended before its deadline is never expired.
    @Test func endedExchangeIsNeverExpired() {
        let loop = EmbeddedEventLoop()
        let clock = ManualClock()
        let sweeper = DeadlineSweeper(eventLoop: loop, now: { clock.now })
        let expiries = Expiries()
        let id = sweeper.watch(until: clock.now + .milliseconds(15)) { expiries.record() }
        clock.advance(by: DeadlineSweeper.interval, loop: loop)
        sweeper.end(id)
        clock.advance(by: .milliseconds(100), loop: loop)
        #expect(expiries.value == 0)
        #expect(sweeper.count == 0)
    }

    /// Only the exchanges past their deadline are expired; the others stay watched.
    @Test func expiresOnlyThoseDue() {
        let loop = EmbeddedEventLoop()
        let clock = ManualClock()
        let sweeper = DeadlineSweeper(eventLoop: loop, now: { clock.now })
        let early = Expiries()
        let late = Expiries()
        _ = sweeper.watch(until: clock.now + .milliseconds(5)) { early.record() }
        _ = sweeper.watch(until: clock.now + .seconds(5)) { late.record() }
        clock.advance(by: DeadlineSweeper.interval, loop: loop)
        #expect(early.value == 1)
        #expect(late.value == 0)
        #expect(sweeper.count == 1)
        #expect(sweeper.isChecking)
    }

    /// The sweeper checks only while something is watched, and starts again with the next exchange.
    @Test func checksOnlyWhileWatching() {
        let loop = EmbeddedEventLoop()
        let clock = ManualClock()
        let sweeper = DeadlineSweeper(eventLoop: loop, now: { clock.now })
        #expect(!sweeper.isChecking)
        let id = sweeper.watch(until: clock.now + .seconds(5)) {}
        #expect(sweeper.isChecking)
        sweeper.end(id)
        clock.advance(by: DeadlineSweeper.interval, loop: loop)
        #expect(!sweeper.isChecking)
        let expiries = Expiries()
        _ = sweeper.watch(until: clock.now + .milliseconds(1)) { expiries.record() }
        #expect(sweeper.isChecking)
        clock.advance(by: DeadlineSweeper.interval, loop: loop)
        #expect(expiries.value == 1)
        #expect(!sweeper.isChecking)
    }
}
