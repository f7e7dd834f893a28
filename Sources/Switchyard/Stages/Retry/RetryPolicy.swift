public import HTTPTypes

/// When and how ``RetryStage`` retries a call.
///
/// Transient failures are retried: connection errors (``SwitchyardError/Code/transport``), an
/// attempt's timeout, and the statuses in ``retryableStatuses`` (408, 429, 500, 502, 503, 504).
/// Only idempotent methods (GET, HEAD, OPTIONS, PUT, DELETE, TRACE) are retried unless the policy
/// or the call (``CallOptions/allowRetryingNonIdempotent()``) says otherwise — a POST that reached
/// the server may have had its effect. Business failures, cancellation and client errors are never
/// retried.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included; 1 disables retries.
    public var maxAttempts: Int
    /// The delay before the first retry; later ones multiply by ``multiplier``.
    public var baseDelay: Duration
    /// The longest delay between attempts, `Retry-After` included.
    public var maxDelay: Duration
    /// The growth factor between successive delays.
    public var multiplier: Double
    /// How much of each delay is random: 0 waits exactly, 1 waits anywhere from nothing to the full
    /// delay ("full jitter"). The default, 0.5, waits between half and all of it.
    public var jitter: Double
    /// Statuses that mark a transient failure.
    public var retryableStatuses: Set<Int>
    /// Whether a server's `Retry-After` (seconds or an HTTP date) replaces the computed delay.
    public var honorsRetryAfter: Bool
    /// Whether non-idempotent methods (POST, PATCH) are retried for every call.
    public var retriesNonIdempotent: Bool

    /// Creates a policy.
    public init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(200),
        maxDelay: Duration = .seconds(10),
        multiplier: Double = 2,
        jitter: Double = 0.5,
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504],
        honorsRetryAfter: Bool = true,
        retriesNonIdempotent: Bool = false
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = max(.zero, baseDelay)
        self.maxDelay = max(.zero, maxDelay)
        self.multiplier = max(1, multiplier)
        self.jitter = min(1, max(0, jitter))
        self.retryableStatuses = retryableStatuses
        self.honorsRetryAfter = honorsRetryAfter
        self.retriesNonIdempotent = retriesNonIdempotent
    }

    /// The delay before retry number `retry` (1 for the first retry), before jitter.
    public func backoff(beforeRetry retry: Int) -> Duration {
        var delay = baseDelay
        for _ in 1..<max(1, retry) {
            delay = delay * multiplier
            if delay >= maxDelay { return maxDelay }
        }
        return min(delay, maxDelay)
    }

    /// Whether `method` is idempotent by RFC 9110.
    public static func isIdempotent(_ method: HTTPRequest.Method) -> Bool {
        switch method {
        case .get, .head, .options, .put, .delete, .trace: true
        default: false
        }
    }
}
