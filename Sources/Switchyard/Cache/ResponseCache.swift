public import Foundation
import Synchronization

/// A tiered response cache — by default memory (LRU within a byte budget) over disk (one file per
/// entry, written atomically, LRU within a size budget, optionally sealed at rest) — shared by the
/// ``CacheStage``s that use it, with an invalidation API. The tiers are ``ResponseStore``s, so an
/// app can plug in its own.
///
/// Entries survive restarts when the disk tier is used: a new instance over the same directory reads
/// what an earlier one wrote. The disk tier keeps a private entry (one of a non-public
/// ``CredentialPartition``) only when it is sealed with a ``CacheSealing/digest``: the partition is
/// then a keyed digest that reveals no account or token; without one, private entries stay in memory.
public final class ResponseCache: Sendable {
    /// The tiers, fastest first: a read tries them in order and copies a hit into the faster ones;
    /// a write goes to all of them.
    public let tiers: [any ResponseStore]

    /// Versions that order reads against writes: `epoch` moves on every invalidation, a key's
    /// generation on every store of it. A disk read is copied into memory, and a fetched response
    /// stored, only if neither moved meanwhile — so a stale value never undoes a newer write or an
    /// invalidation.
    private struct Versions {
        var epoch: UInt64 = 0
        var generations: [CacheKey: UInt64] = [:]

        func of(_ key: CacheKey) -> Version { Version(epoch: epoch, generation: generations[key] ?? 0) }
    }

    private let versions = Mutex(Versions())

    /// How the cache digests partitions: with its disk tier's sealing when that has a digest (so that
    /// private entries are found again after a restart), else with this process's key (private
    /// entries then stay in memory).
    let partitionDigest: PartitionDigest

    /// The partitions of the entries stored for each account a credential source named (keyed by the
    /// account's own partition), so that ending that account's session finds them; in memory only.
    private let accountPartitions = Mutex<[CredentialPartition: Set<CredentialPartition>]>([:])

    /// Notes that `partition` holds entries of `accounts`.
    func note(_ partition: CredentialPartition, accounts: Set<String>) {
        guard !accounts.isEmpty else { return }
        let owners = accounts.map { CredentialPartition(account: $0, digest: partitionDigest) }
        accountPartitions.withLock { map in
            for owner in owners where owner != partition { map[owner, default: []].insert(partition) }
        }
    }

    /// The partitions whose entries belong to `account`: its own, and those noted for it.
    func partitions(ofAccount account: String) -> Set<CredentialPartition> {
        let own = CredentialPartition(account: account, digest: partitionDigest)
        return accountPartitions.withLock { $0.removeValue(forKey: own) ?? [] }.union([own])
    }

    /// The version of `key` now, to pass to ``store(_:ifUnchangedSince:)`` later.
    struct Version: Equatable {
        let epoch: UInt64
        let generation: UInt64
    }

    func version(of key: CacheKey) -> Version {
        versions.withLock { $0.of(key) }
    }

    /// Creates a cache.
    ///
    /// - Parameters:
    ///   - memoryBudget: bytes kept in memory (bodies and header fields).
    ///   - directory: where the disk tier keeps its files; `nil` for memory only. Use
    ///     ``defaultDirectory(app:)`` for the platform's caches directory.
    ///   - diskBudget: bytes kept on disk.
    ///   - sealing: how entries are sealed at rest, if at all.
    /// - Throws: ``SwitchyardError/Code/storage`` when the directory cannot be created.
    public convenience init(
        memoryBudget: Int = 8 << 20,
        directory: URL? = nil,
        diskBudget: Int = 64 << 20,
        sealing: CacheSealing? = nil
    ) throws(SwitchyardError) {
        var tiers: [any ResponseStore] = [MemoryResponseStore(budget: memoryBudget)]
        if let directory { tiers.append(try DiskResponseStore(directory: directory, budget: diskBudget, sealing: sealing)) }
        self.init(tiers: tiers)
    }

    /// Creates a cache over tiers of your choosing, fastest first.
    ///
    /// - Parameter tiers: the stores; a read tries them in order.
    public init(tiers: [any ResponseStore]) {
        self.tiers = tiers
        let digest = tiers.lazy.compactMap { ($0 as? DiskResponseStore)?.sealing?.digest }.first
        self.partitionDigest = digest.map(PartitionDigest.keyed) ?? .process
    }

    /// `<caches>/<app>/Switchyard/responses`: the user's caches directory (never the documents or
    /// application-support directory, which are backed up).
    public static func defaultDirectory(app: String) -> URL {
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first ?? FileManager.default.temporaryDirectory
        return caches.appendingPathComponent(app).appendingPathComponent("Switchyard").appendingPathComponent("responses")
    }

    /// The entry for `key` and the tier it came from; a hit in a slower tier is copied into the
    /// faster ones (unless the key was written or invalidated meanwhile).
    public func entry(for key: CacheKey) -> (entry: CachedResponse, source: ResponseSource)? {
        // Only a hit in a slower tier is copied, and only then is the version before the read needed.
        let before = tiers.count > 1 ? version(of: key) : nil
        for (index, tier) in tiers.enumerated() {
            guard let entry = tier.entry(for: key) else { continue }
            if index > 0, let before {
                versions.withLock { versions in
                    guard versions.of(key) == before else { return }
                    for faster in tiers[..<index] { faster.store(entry) }
                }
            }
            return (entry, tier.source)
        }
        return nil
    }

    /// Stores `entry` in every tier.
    public func store(_ entry: CachedResponse) {
        versions.withLock { $0.generations[entry.key, default: 0] += 1 }
        for tier in tiers { tier.store(entry) }
    }

    /// Stores `entry` unless the cache changed for its key since `version` (a newer store, or an
    /// invalidation while the response was being fetched); returns whether it stored.
    @discardableResult
    func store(_ entry: CachedResponse, ifUnchangedSince version: Version) -> Bool {
        let unchanged = versions.withLock { versions in
            guard versions.of(entry.key) == version else { return false }
            versions.generations[entry.key, default: 0] += 1
            return true
        }
        guard unchanged else { return false }
        for tier in tiers { tier.store(entry) }
        return true
    }

    /// Removes the entry for `key`.
    public func invalidate(_ key: CacheKey) { invalidate { $0 == key } }

    /// Removes every entry of `endpoint` in `service`.
    public func invalidate(service: ServiceID, endpoint: String) {
        invalidate { $0.serviceID == service.rawValue.lowercased() && $0.endpoint == endpoint }
    }

    /// Removes every entry of `service`.
    public func invalidate(service: ServiceID) { invalidate { $0.serviceID == service.rawValue.lowercased() } }

    /// Removes everything.
    public func invalidateAll() { invalidate { _ in true } }

    /// Removes the entries whose key matches.
    public func invalidate(where matches: @escaping (CacheKey) -> Bool) {
        versions.withLock { $0.epoch += 1 }
        for tier in tiers { tier.remove(where: matches) }
    }

    /// How many corrupt, truncated or foreign disk entries have been dropped.
    public var corruptEntriesDropped: Int {
        tiers.reduce(0) { $0 + (($1 as? DiskResponseStore)?.corruptEntriesDropped ?? 0) }
    }
}
