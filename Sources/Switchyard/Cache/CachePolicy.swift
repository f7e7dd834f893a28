/// How a call uses the ``CacheStage`` — per endpoint (in its ``Endpoint/options``) or per call with
/// ``CallOptions/cache(_:)``.
public enum CachePolicy: Sendable, Hashable {
    /// The network only; nothing is read or stored (the default).
    case networkOnly
    /// A stored response younger than `maxAge` answers without the network; otherwise the network
    /// answers and its response is stored.
    case cacheElseNetwork(maxAge: Duration)
    /// The network answers and is stored; when it fails (connection error, timeout, 5xx) a stored
    /// response answers instead — the offline fallback.
    case networkElseCache
    /// The network is asked with the stored response's validators (`If-None-Match`,
    /// `If-Modified-Since`); a `304` is answered with the stored body and refreshes its freshness.
    case revalidate
    /// A stored response answers, or the call fails with a cache miss; never the network. Used by
    /// ``APIClient/sendCacheThenNetwork(_:options:)`` for its first value.
    case cacheOnly
}
