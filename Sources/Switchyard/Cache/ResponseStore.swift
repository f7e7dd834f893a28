/// Where a ``ResponseCache`` keeps entries: one tier of it.
///
/// ``MemoryResponseStore`` and ``DiskResponseStore`` are the two built in; conform your own type to
/// keep entries elsewhere (a database, an app group container). A store only keeps and finds entries
/// by ``CacheKey``: the cache decides what is stored and when it may be served, and orders writes
/// against invalidations. Implementations must be safe to call from any task.
///
/// ```swift
/// let cache = ResponseCache(tiers: [MemoryResponseStore(budget: 4 << 20), MyDatabaseStore()])
/// ```
public protocol ResponseStore: Sendable {
    /// Where an entry found here says the response came from (``ResponseSource/memoryCache``, …).
    var source: ResponseSource { get }
    /// The entry stored under `key`, if any.
    func entry(for key: CacheKey) -> CachedResponse?
    /// Stores `entry` under its key, replacing any older one.
    func store(_ entry: CachedResponse)
    /// Removes every entry whose key matches.
    func remove(where matches: (CacheKey) -> Bool)
}
