/// How a call uses the ``CacheStage`` — per endpoint (in its ``Endpoint/options``) or per call with
/// ``CallOptions/cache(_:version:)``.
///
/// Every policy that stores keeps RFC 9111's rules about *what* may be stored and *to whom* it may
/// be served: `no-store` (on the response or the request) is never stored, an entry is served only to
/// a request with the same credentials (``CredentialPartition``) and the same values of the fields
/// its `Vary` names, and a `304` refreshes the stored header fields and freshness. The policies
/// differ in *when* the network is asked:
///
/// | policy | a stored response is used without the network when | otherwise |
/// | --- | --- | --- |
/// | ``standard`` | it is fresh by the server's `Cache-Control: max-age`, `Expires` and `Age` (or a heuristic lifetime, if the stage allows one), and neither side said `no-cache` | a conditional request (`If-None-Match`, `If-Modified-Since`) when it has validators, else a plain one |
/// | ``cacheElseNetwork(maxAge:)`` | as ``standard``, but a response whose server gave no freshness at all is fresh for `maxAge` | as ``standard`` |
/// | ``networkElseCache`` | the network failed (connection, timeout, 5xx) — unless the entry is stale and says `must-revalidate`, or says `no-cache` | the network's answer |
/// | ``revalidate`` | the server answers `304` to a conditional request | the network's answer |
/// | ``cacheThenNetwork`` | as ``revalidate`` for a call that returns one value; a `ResourceLoader` shows the stored response first | the network's answer |
/// | ``cacheOnly`` | always, fresh or stale (an explicit offline read) | a cache miss |
public enum CachePolicy: Sendable, Hashable {
    /// The network only; nothing is read or stored (the default).
    case networkOnly
    /// HTTP caching as RFC 9111 defines it for a private cache: the server's directives alone decide.
    case standard
    /// As ``standard``, with `maxAge` as the lifetime of responses whose server says nothing about
    /// freshness (no `max-age`, no `Expires`) — the app's choice for backends that send no cache
    /// headers. A server's explicit lifetime, `no-cache` and `must-revalidate` still win.
    case cacheElseNetwork(maxAge: Duration)
    /// The network answers and is stored; when it fails (connection error, timeout, 5xx) a stored
    /// response answers instead — the offline fallback — unless RFC 9111 forbids serving it stale
    /// (`must-revalidate` once stale, `no-cache` always).
    case networkElseCache
    /// The network is asked with the stored response's validators (`If-None-Match`,
    /// `If-Modified-Since`); a `304` is answered with the stored body and refreshes its header fields
    /// and freshness.
    case revalidate
    /// A stored response answers, fresh or stale, or the call fails with a cache miss; never the
    /// network. Used by ``APIClient/sendCacheThenNetwork(_:options:)`` for its first value.
    case cacheOnly
    /// The stored response first, fresh or stale, then the network's (asked with the stored
    /// validators, as ``revalidate``) — for screens that show something at once and then refresh it.
    ///
    /// Only a caller that can take two values gets both: a `ResourceLoader` whose endpoint (or
    /// options) chooses this policy shows the stored value and then the fresh one, through
    /// ``APIClient/sendCacheThenNetwork(_:options:)``. A call that returns one value
    /// (``APIClient/send(_:options:)``) gets the network's, exactly as with ``revalidate``.
    case cacheThenNetwork
}
