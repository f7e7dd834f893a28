import Foundation
public import Switchyard

extension Outbox {
    /// How an outbox stores and sends its calls.
    public struct Configuration: Sendable {
        /// The backoff between attempts of a call that failed transiently (its ``RetryPolicy/baseDelay``,
        /// ``RetryPolicy/multiplier``, ``RetryPolicy/maxDelay`` and ``RetryPolicy/jitter``; a server's
        /// `Retry-After` when ``RetryPolicy/honorsRetryAfter``). Its ``RetryPolicy/maxAttempts`` is not
        /// used: a queued call is tried until it succeeds, dies or grows older than ``maxAge``.
        public var retryPolicy: RetryPolicy
        /// How old a call may grow before it becomes a dead letter (``SwitchyardError/Code/expired``)
        /// instead of being tried again.
        public var maxAge: Duration
        /// The deadline of each attempt (``CallOptions/deadline``), so that a stalled attempt gives
        /// way to the next.
        public var attemptDeadline: Duration
        /// Seals the stored calls and outcomes at rest — the app's cache-sealing (for example
        /// `CacheSealing.aesGCM(key:)` from SwitchyardCrypto); with a digest, accounts are stored as
        /// keyed digests. `nil` stores them in a file private to the user.
        public var sealing: CacheSealing?
        /// A limit on the store's size in SQLite pages: a full disk, for tests.
        var maxPageCount: Int?
        /// The wall clock: when a call was enqueued, when it may be tried again.
        var now: @Sendable () -> Date = { Date() }

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - retryPolicy: the backoff between attempts; by default 200 ms doubling up to 30 s, half jittered.
        ///   - maxAge: how old a call may grow; 3 days by default.
        ///   - attemptDeadline: each attempt's deadline; 60 seconds by default.
        ///   - sealing: seals what is stored; `nil` for none.
        public init(
            retryPolicy: RetryPolicy = RetryPolicy(maxDelay: .seconds(30)),
            maxAge: Duration = .seconds(3 * 24 * 3600),
            attemptDeadline: Duration = .seconds(60),
            sealing: CacheSealing? = nil
        ) {
            self.retryPolicy = retryPolicy
            self.maxAge = maxAge
            self.attemptDeadline = attemptDeadline
            self.sealing = sealing
        }
    }
}
