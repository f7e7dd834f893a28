import Foundation
import HTTPTypes

/// Retries transient failures by a ``RetryPolicy``: exponential backoff with jitter, `Retry-After`
/// honoured, idempotent methods only unless a call opts in, an optional shared ``RetryBudget``, and
/// never past the call's ``CallContext/deadline``.
///
/// Every attempt passes again through the stages registered *inside* this one, with
/// ``CallContext/attempt`` counting up — so register it before common parameters, the token and
/// signing, and each attempt gets a fresh timestamp, token and nonce.
///
/// When retries run out (attempts, budget or deadline), the call ends with the last attempt's
/// outcome: its error, or its response (a 503 the stages inside let through).
public struct RetryStage: Stage {
    /// The context key under which ``CallOptions/allowRetryingNonIdempotent()`` marks a call.
    public enum NonIdempotentAllowed: CallOptionKey {
        /// Whether the call may be retried although its method is not idempotent.
        public typealias Value = Bool
        /// The option's name in errors.
        public static let name = "allowRetryingNonIdempotent()"
        /// ``StageID/retry``.
        public static let stage = StageID.retry
    }

    /// The context key under which ``CallOptions/retry(maxAttempts:)`` sets a call's own attempt limit.
    public enum MaxAttempts: CallOptionKey {
        /// The most attempts for the call, the first included.
        public typealias Value = Int
        /// The option's name in errors.
        public static let name = "retry(maxAttempts:)"
        /// ``StageID/retry``.
        public static let stage = StageID.retry
    }

    /// The policy.
    public let policy: RetryPolicy
    /// The budget shared with other stages, if any.
    public let budget: RetryBudget?
    private let sleep: @Sendable (Duration) async throws -> Void

    /// ``StageID/retry``.
    public var id: StageID { .retry }

    /// Outside the stages that stamp an attempt, so each attempt gets them afresh (advice).
    public var orderRules: [StageOrderRule] {
        [
            .outside(
                .commonParameters,
                .authorization,
                strength: .advice,
                because: "each attempt must pass them again: fresh timestamps and nonces, a refreshed token"
            )
        ]
    }

    /// Creates the stage.
    ///
    /// - Parameters:
    ///   - policy: how many attempts, which failures are retried, and the backoff between them.
    ///   - budget: a budget shared by calls that limits retries when many fail at once; `nil` for none.
    ///   - sleep: waits between attempts; tests pass one that records the delays.
    public init(
        _ policy: RetryPolicy = RetryPolicy(),
        budget: RetryBudget? = nil,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.policy = policy
        self.budget = budget
        self.sleep = sleep
    }

    /// Sends the call, retrying transient failures.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        let allowed = policy.retriesNonIdempotent || context[NonIdempotentAllowed.self] == true || RetryPolicy.isIdempotent(request.method)
        let maxAttempts = context[MaxAttempts.self] ?? policy.maxAttempts
        var attempt = context
        var retries = 0
        while true {
            let outcome: Result<Response, any Error>
            do {
                outcome = .success(try await next(request, attempt))
            } catch {
                outcome = .failure(error)
            }
            guard allowed, retries + 1 < maxAttempts, let hint = transientHint(outcome, context: attempt) else {
                if retries == 0, case .success = outcome { budget?.deposit() }
                return try outcome.get()
            }
            retries += 1
            let delay = hint.retryAfter.map { min($0, policy.maxDelay) } ?? jittered(policy.backoff(beforeRetry: retries))
            if let deadline = attempt.deadline, ContinuousClock.now + delay >= deadline { return try outcome.get() }
            if let budget, !budget.withdraw() { return try outcome.get() }
            do {
                try await sleep(delay)
            } catch {
                throw SwitchyardError(code: .cancelled, message: "the call was cancelled while waiting to retry", underlyingError: error)
            }
            attempt = attempt.nextAttempt()
        }
    }

    /// A failure worth retrying, with the wait the server asked for.
    private struct Transient {
        let retryAfter: Duration?
    }

    /// Why an outcome may be retried, with the server's `Retry-After`; `nil` when it may not.
    private func transientHint(_ outcome: Result<Response, any Error>, context: CallContext) -> Transient? {
        switch outcome {
        case .success(let response):
            guard policy.retryableStatuses.contains(response.status.code) else { return nil }
            return Transient(retryAfter: retryAfter(response.headerFields))
        case .failure(let error):
            guard let failure = error as? SwitchyardError else { return nil }
            switch failure.code {
            case .transport:
                return Transient(retryAfter: nil)
            case .timeout:
                return context.isPastDeadline ? nil : Transient(retryAfter: nil)
            case .httpStatus, .business:
                // A business failure carried by an HTTP error status (a 503 with an envelope) is
                // retried on its status like a bare one; a business failure under a 2xx is not.
                guard let status = failure.status, policy.retryableStatuses.contains(status.code) else { return nil }
                return Transient(retryAfter: failure.response.flatMap { retryAfter($0.headerFields) })
            default:
                return nil
            }
        }
    }

    /// The server's `Retry-After`, in seconds or as an HTTP date, if the policy honours it.
    private func retryAfter(_ fields: HTTPFields) -> Duration? {
        guard policy.honorsRetryAfter, let value = fields[.retryAfter]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
        guard let date = HTTPDate.parse(value) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSinceNow * 1000)))
    }

    private func jittered(_ delay: Duration) -> Duration {
        guard policy.jitter > 0, delay > .zero else { return delay }
        return delay * (1 - policy.jitter * Double.random(in: 0...1))
    }
}

extension CallOptions {
    /// Sets this call's attempt limit (the first attempt included), replacing the ``RetryStage``
    /// policy's ``RetryPolicy/maxAttempts``; `1` turns retries off for the call. Backoff, budget and
    /// idempotency rules stay the policy's. Without a `RetryStage` in the service, nothing is retried.
    public mutating func retry(maxAttempts: Int) {
        self[option: RetryStage.MaxAttempts.self] = max(1, maxAttempts)
    }

    /// Lets ``RetryStage`` retry this call although its method (POST, PATCH) is not idempotent —
    /// for calls the backend deduplicates, for example by an idempotency key.
    public mutating func allowRetryingNonIdempotent() {
        self[option: RetryStage.NonIdempotentAllowed.self] = true
    }
}
