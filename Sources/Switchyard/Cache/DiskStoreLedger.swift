import Foundation

/// What a ``DiskResponseStore`` knows of its entry files without listing its directory: each file's
/// size and last use, and their total. Read from the directory once; kept current by the store's
/// own writes, hits and removals, so a write under the budget costs the same with ten entries or a
/// hundred thousand, and only a write that crosses the budget sorts them.
struct DiskStoreLedger {
    private var files: [String: (size: Int, used: Date)] = [:]
    /// The bytes the entry files take.
    private(set) var total = 0

    /// The ledger of the entry files at `urls`, read from the file system.
    init(scanning urls: [URL]) {
        let keys: Set<URLResourceKey> = [.fileSizeKey, .contentModificationDateKey]
        for url in urls {
            guard let values = try? url.resourceValues(forKeys: keys) else { continue }
            record(url.lastPathComponent, size: values.fileSize ?? 0, usedAt: values.contentModificationDate ?? .distantPast)
        }
    }

    /// How many entry files the ledger counts.
    var count: Int { files.count }

    /// Counts the file `name`, written (or replaced) with `size` bytes at `date`.
    mutating func record(_ name: String, size: Int, usedAt date: Date) {
        total += size - (files[name]?.size ?? 0)
        files[name] = (size, date)
    }

    /// Notes that the file `name` was read at `date`.
    mutating func touch(_ name: String, at date: Date) {
        files[name]?.used = date
    }

    /// Forgets the file `name`, removed.
    mutating func remove(_ name: String) {
        if let removed = files.removeValue(forKey: name) { total -= removed.size }
    }

    /// Once the files take more than `budget`, forgets the least recently used until the rest take
    /// at most `lowWater`, and returns their names for the store to delete; none while they fit
    /// (no sorting then).
    mutating func evict(within budget: Int, downTo lowWater: Int) -> [String] {
        guard total > budget else { return [] }
        var evicted: [String] = []
        for (name, file) in files.sorted(by: { $0.value.used < $1.value.used }) where total > lowWater {
            files[name] = nil
            total -= file.size
            evicted.append(name)
        }
        return evicted
    }
}
