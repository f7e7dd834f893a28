import Synchronization

/// A gate a mock transport waits at until the test opens it — so a test holds calls in flight and
/// knows when they have arrived, without sleeping. Waiting honours task cancellation (the call then
/// throws `CancellationError`, as a real transport stops on cancellation).
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var arrivals = 0
        var passers: [Int: CheckedContinuation<Void, any Error>] = [:]
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    /// How many calls have reached the gate.
    var arrivals: Int { state.withLock { $0.arrivals } }

    /// Counts an arrival and waits until the gate is open; throws when the task is cancelled first.
    func pass() async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Decided once, under the lock: either the continuation is stored (and only `open()` or
                // the cancellation handler resumes it) or it is resumed here — never both.
                let (open, stored, watchers) = state.withLock { state -> (Bool, Bool, [CheckedContinuation<Void, Never>]) in
                    state.arrivals += 1
                    let arrived = state.arrivals
                    let ready = state.watchers.filter { $0.count <= arrived }.map(\.continuation)
                    state.watchers.removeAll { $0.count <= arrived }
                    let store = !state.isOpen && !Task.isCancelled
                    if store { state.passers[id] = continuation }
                    return (state.isOpen, store, ready)
                }
                for watcher in watchers { watcher.resume() }
                if stored { return }
                if open {
                    continuation.resume()
                } else {
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let passer = state.withLock { $0.passers.removeValue(forKey: id) }
            passer?.resume(throwing: CancellationError())
        }
    }

    /// Opens the gate: every waiting call and every later one passes.
    func open() {
        let passers = state.withLock { state in
            state.isOpen = true
            defer { state.passers.removeAll() }
            return Array(state.passers.values)
        }
        for passer in passers { passer.resume() }
    }

    /// Returns once `count` calls have reached the gate.
    func arrivals(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.arrivals >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}
