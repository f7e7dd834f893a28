import Switchyard

/// What a ``ResourceLoader`` loads and how — its endpoint, client and options, the endpoint's type
/// erased — and which call each kind of load makes under the cache policy.
struct ResourceSource<Output: Sendable>: Sendable {
    private let sendOnce: @Sendable (CallOptions?) async throws(SwitchyardError) -> CallResult<Output>
    private let storedThenFresh: @Sendable (CallOptions?) -> AsyncThrowingStream<CallResult<Output>, any Error>
    private let policy: @Sendable () -> CachePolicy?
    private let options: CallOptions?

    init<E: Endpoint>(_ endpoint: E, client: APIClient, options: CallOptions?) where E.Output == Output {
        self.sendOnce = { (options: CallOptions?) async throws(SwitchyardError) -> CallResult<Output> in
            try await client.send(endpoint, options: options)
        }
        self.storedThenFresh = { client.sendCacheThenNetwork(endpoint, options: $0) }
        self.policy = { client.cachePolicy(of: endpoint, options: options) }
        self.options = options
    }

    /// The stored value and then the network's, when the policy is `CachePolicy.cacheThenNetwork`
    /// and the loader shows no value yet; `nil` when the load is one call.
    func cacheThenNetwork(_ kind: ResourceLoader<Output>.Kind, hasValue: Bool) -> AsyncThrowingStream<CallResult<Output>, any Error>? {
        guard !hasValue, policy() == .cacheThenNetwork else { return nil }
        return storedThenFresh(options)
    }

    /// Makes the load's one call: as the policy says for a load; for a reload, revalidating what a
    /// policy would otherwise serve from the store without asking the network.
    func send(_ kind: ResourceLoader<Output>.Kind) async throws(SwitchyardError) -> CallResult<Output> {
        guard kind == .reload, let policy = policy() else { return try await sendOnce(options) }
        switch policy {
        case .standard, .cacheElseNetwork, .cacheThenNetwork:
            var revalidating = options ?? CallOptions()
            revalidating.cache(.revalidate)
            return try await sendOnce(revalidating)
        case .networkOnly, .networkElseCache, .revalidate, .cacheOnly:
            return try await sendOnce(options)
        }
    }
}
