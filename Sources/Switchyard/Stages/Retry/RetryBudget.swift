import Synchronization

/// Limits retries across all the calls that share it, so a failing backend is not hammered: every
/// retry spends one token, every first attempt that succeeds earns ``ratio`` of one, and the balance
/// never exceeds ``capacity``. When the balance is below one, calls fail with their own error instead
/// of retrying, until successes earn it back.
///
/// With the defaults (capacity 10, ratio 0.2) a healthy service can retry one call in five, and a
/// dead one gets at most ten retries before every further call fails at once.
public final class RetryBudget: Sendable {
    /// The most tokens the budget holds (and starts with).
    public let capacity: Double
    /// What a successful first attempt earns.
    public let ratio: Double
    private let balance: Mutex<Double>

    /// Creates a budget.
    public init(capacity: Double = 10, ratio: Double = 0.2) {
        self.capacity = max(1, capacity)
        self.ratio = max(0, ratio)
        self.balance = Mutex(max(1, capacity))
    }

    /// The tokens available now.
    public var available: Double { balance.withLock { $0 } }

    /// Spends one token for a retry; `false` when the budget is exhausted.
    func withdraw() -> Bool {
        balance.withLock { balance in
            guard balance >= 1 else { return false }
            balance -= 1
            return true
        }
    }

    /// Records a first attempt that succeeded.
    func deposit() {
        balance.withLock { $0 = min(capacity, $0 + ratio) }
    }
}
