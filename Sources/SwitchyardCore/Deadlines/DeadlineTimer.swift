import Synchronization

/// The one timer behind every deadline: a call's deadline (the client cancels the call) and a
/// transport's exchange deadline (the transport fails the exchange) are both entries of a
/// ``DeadlineTimer``, on ``CallClock``.
///
/// A timer per deadline costs a task (or an event-loop timer) per call, started and cancelled
/// whether the deadline passes or not. This one keeps the deadlines in a table instead — a lock and
/// an insertion per watch — and checks it from one sleeping task that runs only while the table is
/// not empty: every ``interval`` at most, and as soon as the earliest deadline is due when that is
/// sooner. A deadline is met at most one interval late.
package final class DeadlineTimer: Sendable {
    /// The longest wait between two checks while deadlines are watched.
    package static let interval: Duration = .milliseconds(10)

    /// The timer the client keeps call deadlines with.
    package static let shared = DeadlineTimer()

    private struct Entry {
        let due: Duration
        let expire: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        /// Whether a check is scheduled; it reschedules itself until the table is empty.
        var ticking = false
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> Duration
    private let schedule: @Sendable (Duration, @escaping @Sendable () -> Void) -> Void

    /// A timer that reads the time from `now` (``CallClock/now`` unless a test passes its own) and
    /// runs its checks through `schedule`, which calls its closure after the given delay (a sleeping
    /// task unless a test passes its own).
    package init(
        now: @escaping @Sendable () -> Duration = { CallClock.now },
        schedule: @escaping @Sendable (Duration, @escaping @Sendable () -> Void) -> Void = DeadlineTimer.sleeping
    ) {
        self.now = now
        self.schedule = schedule
    }

    /// Runs `body` after `delay`, from a task that sleeps on the continuous clock.
    package static func sleeping(_ delay: Duration, _ body: @escaping @Sendable () -> Void) {
        Task {
            try? await Task.sleep(for: delay)
            body()
        }
    }

    /// Calls `expire` once the time passes `due` (a ``CallClock`` offset), unless ``end(_:)`` is
    /// called first.
    ///
    /// - Returns: the watch's id, to end it with.
    package func watch(until due: Duration, expire: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, starts) = state.withLock { state in
            state.nextID &+= 1
            state.entries[state.nextID] = Entry(due: due, expire: expire)
            let starts = !state.ticking
            state.ticking = true
            return (state.nextID, starts)
        }
        if starts { scheduleCheck(after: min(Self.interval, max(.zero, due - now()))) }
        return id
    }

    /// Stops a watch (its work ended before the deadline, or it was expired already).
    package func end(_ id: UInt64) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    /// The watches kept now.
    package var count: Int { state.withLock { $0.entries.count } }

    /// Whether a check is scheduled (none is while nothing is watched).
    package var isChecking: Bool { state.withLock { $0.ticking } }

    private func scheduleCheck(after delay: Duration) {
        schedule(delay) { self.check() }
    }

    /// Expires the watches past their deadline outside the lock, and schedules the next check
    /// while any remain.
    private func check() {
        let now = self.now()
        let (expired, next) = state.withLock { state -> ([@Sendable () -> Void], Duration?) in
            // The ids first, then the removals: removing while iterating would copy the table.
            var earliest: Duration?
            var ids: [UInt64] = []
            for (id, entry) in state.entries {
                if entry.due <= now {
                    ids.append(id)
                } else if earliest.map({ entry.due < $0 }) ?? true {
                    earliest = entry.due
                }
            }
            let expired = ids.compactMap { state.entries.removeValue(forKey: $0)?.expire }
            state.ticking = !state.entries.isEmpty
            return (expired, state.ticking ? min(Self.interval, max(.zero, (earliest ?? now) - now)) : nil)
        }
        for expire in expired { expire() }
        if let next { scheduleCheck(after: next) }
    }
}
