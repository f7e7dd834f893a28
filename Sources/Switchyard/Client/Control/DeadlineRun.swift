import Synchronization

/// How a call with a deadline runs its pipeline: in a task of its own, which the call's caller
/// leaves as soon as the call is cancelled (its deadline passed, or a cancel API took it).
///
/// The task is cancelled, so that work which observes task cancellation (a `Task.sleep`, a
/// transport's exchange) stops; but the caller does not wait for it, so a stage that waits on
/// something nothing cancels — a continuation nobody resumes, another library's call — cannot keep
/// the call from ending on time. Whatever the abandoned task produces later is dropped.
enum DeadlineRun {
    /// Runs `operation` in a task; returns its response, or throws `CancellationError` once the
    /// call is cancelled, whichever comes first.
    static func run(
        control: CallControl,
        _ operation: @escaping @Sendable () async throws -> Response
    ) async throws -> Response {
        let outcome = Outcome()
        let task = ImmediateTask.start {
            do {
                outcome.settle(.success(try await operation()))
            } catch {
                outcome.settle(.failure(error))
            }
        }
        return try await control.withCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in outcome.wait(continuation) }
        } onCancel: {
            task.cancel()
            outcome.settle(.failure(CancellationError()))
        }
    }

    /// The first result to arrive — the pipeline's, or the cancellation's — handed to the caller
    /// once, whether it arrives before or after the caller starts waiting.
    private final class Outcome: Sendable {
        private enum State {
            case pending
            case waiting(CheckedContinuation<Response, any Error>)
            case settled(Result<Response, any Error>)
            case delivered
        }

        private let state = Mutex(State.pending)

        /// Settles the outcome with `result` unless it is settled already.
        func settle(_ result: Result<Response, any Error>) {
            let waiter: CheckedContinuation<Response, any Error>? = state.withLock { state in
                switch state {
                case .pending:
                    state = .settled(result)
                    return nil
                case .waiting(let continuation):
                    state = .delivered
                    return continuation
                case .settled, .delivered:
                    return nil
                }
            }
            waiter?.resume(with: result)
        }

        /// Waits for the outcome with `continuation`, resumed at once if it is settled.
        func wait(_ continuation: CheckedContinuation<Response, any Error>) {
            let ready: Result<Response, any Error>? = state.withLock { state in
                switch state {
                case .settled(let result):
                    state = .delivered
                    return result
                case .pending:
                    state = .waiting(continuation)
                    return nil
                case .waiting, .delivered:
                    preconditionFailure("a deadline run is waited for once")
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
