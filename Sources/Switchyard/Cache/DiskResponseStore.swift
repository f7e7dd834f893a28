public import Foundation
import HTTPTypes
import SwitchyardSupport
import Synchronization

/// The disk tier of a ``ResponseCache``: one file per entry, written to a temporary file and renamed into place (so a
/// reader never sees half an entry), least-recently-used files evicted beyond the size budget, and
/// optional sealing at rest. A file that is truncated, corrupt, sealed with another key or stored
/// under another key is deleted and counted, never returned.
///
/// The directory is created `0700` (an existing one is tightened) and every entry `0600`. An entry of a
/// private ``CredentialPartition`` is kept only when its partition was digested with the sealing's
/// ``CacheSealing/digest`` (a ``ResponseCache`` over this store does that); any other stays in the
/// faster tiers only.
public final class DiskResponseStore: ResponseStore {
    /// Where the entries are kept.
    public let directory: URL
    /// The most bytes the entry files may take.
    public let budget: Int
    /// How entries are sealed at rest, if at all.
    public let sealing: CacheSealing?
    private let corrupt = Atomic<Int>(0)
    /// The entry files' sizes and last uses, read from the directory by the first write that needs
    /// them; the lock every eviction holds.
    private let ledger = Mutex<DiskStoreLedger?>(nil)

    /// Opens (or creates) a store in `directory`.
    ///
    /// - Parameters:
    ///   - directory: where the entries are kept.
    ///   - budget: the most bytes the entry files may take.
    ///   - sealing: how entries are sealed at rest; `nil` to keep them in the clear.
    /// - Throws: ``SwitchyardError/Code/storage`` when the directory cannot be created.
    public init(directory: URL, budget: Int, sealing: CacheSealing? = nil) throws(SwitchyardError) {
        self.directory = directory
        self.budget = max(0, budget)
        self.sealing = sealing
        do {
            try PrivateFiles.createDirectory(at: directory)
        } catch {
            throw SwitchyardError(
                code: .storage,
                message: "the cache directory \(directory.path) cannot be created: \(error)",
                underlyingError: error
            )
        }
    }

    /// ``ResponseSource/diskCache``.
    public var source: ResponseSource { .diskCache }

    /// How many corrupt or foreign entries have been dropped.
    public var corruptEntriesDropped: Int { corrupt.load(ordering: .relaxed) }

    private func file(for key: CacheKey) -> URL { directory.appendingPathComponent(key.digest + ".entry") }

    /// The entry for `key`; a file that is corrupt, truncated, sealed with another key or stored
    /// under another key is deleted and counted instead.
    public func entry(for key: CacheKey) -> CachedResponse? {
        guard key.partition.isPersistable else { return nil }
        let url = file(for: key)
        guard let data = try? Data(contentsOf: url) else {
            // Gone (evicted, removed, or deleted by someone else): no longer counted.
            ledger.withLock { $0?.remove(url.lastPathComponent) }
            return nil
        }
        guard let entry = decode(data), entry.key == key else {
            drop(url)
            return nil
        }
        let now = Date()
        try? FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: url.path)  // recency for LRU
        ledger.withLock { $0?.touch(url.lastPathComponent, at: now) }
        return entry
    }

    /// Writes `entry` atomically (a private temporary file renamed into place), then evicts the least
    /// recently used files beyond the budget.
    ///
    /// A write does not list the directory: the store keeps its files' sizes and last uses in memory,
    /// read from the directory once, by its first write. Files that another store — in this process
    /// or another — writes to the same directory after that are not counted against this store's
    /// budget; give each store a directory of its own. Once the files reach the budget, the least
    /// recently used go until they take nine tenths of it, so the next writes fit without sorting.
    public func store(_ entry: CachedResponse) {
        let target = file(for: entry.key)
        // Only a public entry, or one whose partition is the sealing's keyed digest, is written: no
        // other partition digest ever reaches the disk.
        guard entry.key.partition.isPersistable, let data = encode(entry), data.count <= budget else {
            try? FileManager.default.removeItem(at: target)  // the older version must not outlive it
            ledger.withLock { $0?.remove(target.lastPathComponent) }
            return
        }
        let temporary = directory.appendingPathComponent(".\(entry.key.digest).\(UUID().uuidString).tmp")
        do {
            try PrivateFiles.write(data, toNew: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        // The rename, its count and the evictions it causes happen under one lock: no eviction can
        // pick an entry between its rename and its count, nor count a file already removed.
        ledger.withLock { ledger in
            var book = ledger ?? DiskStoreLedger(scanning: entryFiles())
            // rename(2) replaces the target atomically: readers see the old entry or the new one.
            guard rename(temporary.path, target.path) == 0 else {
                try? FileManager.default.removeItem(at: temporary)
                ledger = book
                return
            }
            book.record(target.lastPathComponent, size: data.count, usedAt: Date())
            for name in book.evict(within: budget, downTo: budget - budget / 10) {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            }
            ledger = book
        }
    }

    /// Removes every entry whose key matches.
    public func remove(where matches: (CacheKey) -> Bool) {
        for url in entryFiles() {
            guard let data = try? Data(contentsOf: url) else { continue }
            guard let entry = decode(data) else {
                drop(url)
                continue
            }
            if matches(entry.key) {
                ledger.withLock { ledger in
                    try? FileManager.default.removeItem(at: url)
                    ledger?.remove(url.lastPathComponent)
                }
            }
        }
    }

    private func drop(_ url: URL) {
        let dropped = ledger.withLock { ledger in
            defer { ledger?.remove(url.lastPathComponent) }
            return (try? FileManager.default.removeItem(at: url)) != nil
        }
        if dropped { corrupt.add(1, ordering: .relaxed) }
    }

    private func entryFiles() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".entry") }.map { directory.appendingPathComponent($0) }
    }

    // MARK: - File format: "SYC1", UInt32 metadata length (big-endian), JSON metadata, body — the
    // whole blob sealed when a sealing is configured.

    private struct Metadata: Codable {
        let key: CacheKey
        let status: Int
        let fields: [[String]]
        let storedAt: Date
        let bodyLength: Int
        let bodyDigest: UInt64
        /// Absent in entries written before RFC 9111 freshness was kept.
        let requestedAt: Date?
        let varying: [String: String]?
    }

    private static let magic = Array("SYC1".utf8)

    private func encode(_ entry: CachedResponse) -> Data? {
        let metadata = Metadata(
            key: entry.key,
            status: entry.status,
            fields: entry.headerFields.map { [$0.name.rawName, $0.value] },
            storedAt: entry.storedAt,
            bodyLength: entry.body.count,
            bodyDigest: Self.digest(entry.body),
            requestedAt: entry.requestedAt,
            varying: entry.varyingFields
        )
        guard let json = try? JSONEncoder().encode(metadata) else { return nil }
        var blob = Data(Self.magic)
        let length = UInt32(json.count).bigEndian
        withUnsafeBytes(of: length) { blob.append(contentsOf: $0) }
        blob.append(json)
        blob.append(entry.body)
        guard let sealing else { return blob }
        return try? sealing.seal(blob)
    }

    private func decode(_ stored: Data) -> CachedResponse? {
        let blob: Data
        if let sealing {
            guard let opened = try? sealing.open(stored) else { return nil }
            blob = opened
        } else {
            blob = stored
        }
        let bytes = [UInt8](blob)
        guard bytes.count >= 8, Array(bytes[0..<4]) == Self.magic else { return nil }
        let length = Int(bytes[4]) << 24 | Int(bytes[5]) << 16 | Int(bytes[6]) << 8 | Int(bytes[7])
        guard length <= bytes.count - 8, let metadata = try? JSONDecoder().decode(Metadata.self, from: Data(bytes[8..<(8 + length)])) else {
            return nil
        }
        // A status no response can carry is a file this store did not write: serving it would trap.
        guard CachedResponse.statusRange.contains(metadata.status) else { return nil }
        let body = Data(bytes[(8 + length)...])
        guard body.count == metadata.bodyLength, Self.digest(body) == metadata.bodyDigest else { return nil }
        var fields = HTTPFields()
        for pair in metadata.fields where pair.count == 2 {
            guard let name = HTTPField.Name(pair[0]) else { return nil }
            fields.append(HTTPField(name: name, value: pair[1]))
        }
        return CachedResponse(
            key: metadata.key,
            status: metadata.status,
            headerFields: fields,
            body: body,
            storedAt: metadata.storedAt,
            requestedAt: metadata.requestedAt,
            varyingFields: metadata.varying ?? [:]
        )
    }

    private static func digest(_ data: Data) -> UInt64 { FNV1a.hash(data) }
}
