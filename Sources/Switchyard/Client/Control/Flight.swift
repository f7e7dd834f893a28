import Synchronization

/// One run of a pipeline shared by identical calls (the same-request policies that coalesce, refuse
/// or replace them), and the calls waiting for its response. A waiter can leave early (cancelled, past its deadline) without
/// disturbing the others; when the last one leaves, the run itself is cancelled.
final class Flight: Sendable {
    /// Why a waiter left before the response.
    typealias Departure = CallControl.Reason

    private struct State {
        var waiters: [RequestID: CheckedContinuation<Response, any Error>] = [:]
        var departed: [RequestID: Departure] = [:]
        var result: Result<Response, SwitchyardError>?
        var task: Task<Void, Never>?
        var expected = 0
        /// Its last waiter left and its task was cancelled: nobody may join it any more.
        var abandoned = false
    }

    /// The identity it runs under, for coalescing; `nil` when identical calls may not join it.
    let key: String?
    private let state = Mutex(State())
    /// Cleared when the run's request reached the transport with a credential its identity does not
    /// account for (``CredentialPrediction``): its answer is then its first caller's alone.
    private let shareable = Atomic<Bool>(true)

    /// Whether callers that joined the run may take its answer; read once the answer is in.
    var isShareable: Bool { shareable.load(ordering: .acquiring) }

    /// Marks the run's answer as its first caller's alone; call it before the run ends.
    func markUnshareable() { shareable.store(false, ordering: .releasing) }

    init(key: String?) {
        self.key = key
    }

    /// Starts the run; `finished` is called once, after every waiter has been answered.
    ///
    /// The run is a task of its own, so that it can be cancelled without cancelling any caller. It
    /// starts immediately on the caller's thread where the runtime allows (`Task.immediate`), so a
    /// pipeline that answers without suspending costs no thread hop.
    func start(_ operation: @escaping @Sendable () async throws(SwitchyardError) -> Response, finished: @escaping @Sendable () -> Void) {
        let run: @Sendable () async -> Void = { [self] in
            let result: Result<Response, SwitchyardError>
            do throws(SwitchyardError) {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            let waiters = state.withLock { state in
                state.result = result
                defer { state.waiters.removeAll() }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume(with: result.mapError { $0 as any Error }) }
            finished()
        }
        let task = ImmediateTask.start(run)
        state.withLock { $0.task = task }
    }

    /// Announces a waiter before it waits, so that the run is not cancelled while it joins; returns
    /// `false` when the run has been abandoned (its last waiter left), so the caller starts a new one.
    func join(_ id: RequestID) -> Bool {
        state.withLock { state in
            guard !state.abandoned else { return false }
            state.expected += 1
            return true
        }
    }

    /// Whether the run was abandoned by its last waiter.
    var isAbandoned: Bool { state.withLock { $0.abandoned } }

    /// Waits for the response as `id`. Task cancellation makes this waiter leave with `cancelled`.
    func wait(_ id: RequestID) async throws -> Response {
        // Fast path: the run already ended (it started immediately and never suspended).
        let ready: Result<Response, SwitchyardError>? = state.withLock { state in
            guard let result = state.result, state.departed[id] == nil else { return nil }
            state.expected -= 1
            return result
        }
        if let ready { return try ready.get() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Response, any Error>) in
                enum Now {
                    case wait
                    case answer(Result<Response, SwitchyardError>)
                    case leave(Departure, Task<Void, Never>?)
                }
                let now: Now = state.withLock { state in
                    state.expected -= 1
                    if let departure = state.departed.removeValue(forKey: id) {
                        let orphaned = state.result == nil && state.waiters.isEmpty && state.expected == 0 ? state.task : nil
                        if orphaned != nil { state.abandoned = true }
                        return .leave(departure, orphaned)
                    }
                    if let result = state.result { return .answer(result) }
                    state.waiters[id] = continuation
                    return .wait
                }
                switch now {
                case .wait: break
                case .answer(let result): continuation.resume(with: result.mapError { $0 as any Error })
                case .leave(let departure, let orphaned):
                    continuation.resume(throwing: Self.error(for: departure))
                    orphaned?.cancel()
                }
            }
        } onCancel: {
            leave(id, .cancelled("the caller's task was cancelled"))
        }
    }

    /// Makes waiter `id` leave now; the run is cancelled if nobody else waits for it.
    func leave(_ id: RequestID, _ departure: Departure) {
        let (continuation, orphaned): (CheckedContinuation<Response, any Error>?, Task<Void, Never>?) = state.withLock { state in
            guard state.result == nil else { return (nil, nil) }
            guard let waiter = state.waiters.removeValue(forKey: id) else {
                state.departed[id] = departure  // not waiting yet: it leaves as soon as it arrives
                return (nil, nil)
            }
            let orphaned = state.waiters.isEmpty && state.expected == 0 ? state.task : nil
            if orphaned != nil { state.abandoned = true }
            return (waiter, orphaned)
        }
        continuation?.resume(throwing: Self.error(for: departure))
        orphaned?.cancel()
    }

    private static func error(for departure: Departure) -> SwitchyardError {
        CallControl.error(for: departure)
    }
}
