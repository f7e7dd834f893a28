import Synchronization

/// The sample modules' state, shared by every connection: the shop's tokens and the hit counters of
/// the control routes.
final class SampleState: Sendable {
    /// The shop module's valid access token and how many times it was refreshed.
    let shopTokens = Mutex(ShopTokens())

    /// Hits per key for the control routes (`/flaky`, `/counter`, `/pages`, `/etag`).
    private let hits = Mutex<[String: Int]>([:])

    /// Counts a hit on `key` and returns the count so far.
    func hit(_ key: String) -> Int {
        self.hits.withLock { hits in
            hits[key, default: 0] += 1
            return hits[key]!
        }
    }

    /// The hits on `key` so far.
    func hitCount(_ key: String) -> Int {
        self.hits.withLock { $0[key] ?? 0 }
    }

    /// The shop module's token state.
    struct ShopTokens {
        /// The token the shop accepts now.
        var current = "shop-token-1"
        /// How many refreshes `POST /shop-api/token` has made.
        var refreshes = 0
        /// Refreshes left to refuse (for tests of a failing refresh).
        var refusals = 0
    }
}
