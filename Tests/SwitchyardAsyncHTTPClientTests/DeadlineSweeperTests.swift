import NIOCore
import NIOEmbedded
import Synchronization
import Testing

@testable import SwitchyardAsyncHTTPClient

/// A sweeper on an embedded event loop, and a clock the test moves by hand together with the loop's.
private struct SweeperUnderTest {
    private final class Clock: Sendable {
        let current = Mutex(NIODeadline.uptimeNanoseconds(1_000_000_000))
    }

    private let loop = EmbeddedEventLoop()
    private let clock = Clock()
    let sweeper: DeadlineSweeper

    init() {
        let clock = self.clock
        sweeper = DeadlineSweeper(eventLoop: loop, now: { clock.current.withLock { $0 } })
    }

    var now: NIODeadline { clock.current.withLock { $0 } }

    /// Moves the clock and the loop's by `amount` (one check interval unless told), running the
    /// checks that fall due.
    func advance(by amount: TimeAmount = DeadlineSweeper.interval) {
        clock.current.withLock { $0 = $0 + amount }
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
        let test = SweeperUnderTest()
        let sweeper = test.sweeper
        let expiries = Expiries()
        _ = sweeper.watch(until: test.now + .milliseconds(25)) { expiries.record() }
        test.advance()
        test.advance()
        #expect(expiries.value == 0)
        test.advance()
        #expect(expiries.value == 1)
        #expect(sweeper.count == 0)
        test.advance(by: .milliseconds(100))
        #expect(expiries.value == 1)
    }

    /// An exchange that ended before its deadline is never expired.
    @Test func endedExchangeIsNeverExpired() {
        let test = SweeperUnderTest()
        let sweeper = test.sweeper
        let expiries = Expiries()
        let id = sweeper.watch(until: test.now + .milliseconds(15)) { expiries.record() }
        test.advance()
        sweeper.end(id)
        test.advance(by: .milliseconds(100))
        #expect(expiries.value == 0)
        #expect(sweeper.count == 0)
    }

    /// Only the exchanges past their deadline are expired; the others stay watched.
    @Test func expiresOnlyThoseDue() {
        let test = SweeperUnderTest()
        let sweeper = test.sweeper
        let early = Expiries()
        let late = Expiries()
        _ = sweeper.watch(until: test.now + .milliseconds(5)) { early.record() }
        _ = sweeper.watch(until: test.now + .seconds(5)) { late.record() }
        test.advance()
        #expect(early.value == 1)
        #expect(late.value == 0)
        #expect(sweeper.count == 1)
        #expect(sweeper.isChecking)
    }

    /// The sweeper checks only while something is watched, and starts again with the next exchange.
    @Test func checksOnlyWhileWatching() {
        let test = SweeperUnderTest()
        let sweeper = test.sweeper
        #expect(!sweeper.isChecking)
        let id = sweeper.watch(until: test.now + .seconds(5)) {}
        #expect(sweeper.isChecking)
        sweeper.end(id)
        test.advance()
        #expect(!sweeper.isChecking)
        let expiries = Expiries()
        _ = sweeper.watch(until: test.now + .milliseconds(1)) { expiries.record() }
        #expect(sweeper.isChecking)
        test.advance()
        #expect(expiries.value == 1)
        #expect(!sweeper.isChecking)
    }
}
