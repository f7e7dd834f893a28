import Synchronization

/// The memory tier of a ``ResponseCache``: least-recently-used entries are evicted once the entries'
/// bytes exceed the budget.
public final class MemoryResponseStore: ResponseStore {
    private struct State {
        var entries: [CacheKey: (entry: CachedResponse, lastUse: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// The most bytes (bodies and header fields) the store keeps.
    public let budget: Int
    private let state = Mutex(State())

    /// Creates an empty store.
    ///
    /// - Parameter budget: the most bytes kept.
    public init(budget: Int) {
        self.budget = max(0, budget)
    }

    /// ``ResponseSource/memoryCache``.
    public var source: ResponseSource { .memoryCache }

    /// The entry for `key`, marked as just used.
    public func entry(for key: CacheKey) -> CachedResponse? {
        state.withLock { state in
            guard let index = state.entries.index(forKey: key) else { return nil }
            state.clock += 1
            state.entries.values[index].lastUse = state.clock
            return state.entries.values[index].entry
        }
    }

    /// Stores `entry`, evicting the least recently used entries beyond the budget; an entry larger
    /// than the whole budget is not kept, and removes the older version of its key.
    public func store(_ entry: CachedResponse) {
        state.withLock { state in
            guard entry.cost <= budget else {
                // Too large to keep: the older, smaller version must not outlive it.
                state.bytes -= state.entries.removeValue(forKey: entry.key)?.entry.cost ?? 0
                return
            }
            if let old = state.entries[entry.key] { state.bytes -= old.entry.cost }
            state.clock += 1
            state.entries[entry.key] = (entry, state.clock)
            state.bytes += entry.cost
            guard state.bytes > budget else { return }
            for (key, value) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where state.bytes > budget {
                state.entries[key] = nil
                state.bytes -= value.entry.cost
            }
        }
    }

    /// Removes every entry whose key matches.
    public func remove(where matches: (CacheKey) -> Bool) {
        state.withLock { state in
            for key in state.entries.keys where matches(key) {
                state.bytes -= state.entries.removeValue(forKey: key)?.entry.cost ?? 0
            }
        }
    }

    /// The bytes the entries cost now.
    public var byteCount: Int { state.withLock { $0.bytes } }
}
