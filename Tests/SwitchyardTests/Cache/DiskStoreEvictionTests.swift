import Foundation
import Switchyard
import Testing

/// The disk tier's size budget: least recently used entries go first, a hit counts as a use, and
/// files already in the directory when a store opens are counted.
@Suite("Response cache: disk eviction")
struct DiskStoreEvictionTests {
    private static func entry(_ index: Int) -> CachedResponse {
        CachedResponse(
            key: CacheKey(serviceID: "users", endpoint: "item", identity: "GET /items/\(index)", partition: .public),
            status: 200,
            headerFields: [.contentType: "application/json"],
            body: Data(repeating: 0x61, count: 1_000)
        )
    }

    /// A budget that holds `count` of the test's entries and not one more.
    private static func budget(holding count: Int) throws -> Int {
        let directory = CacheStageTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let probe = try DiskResponseStore(directory: directory, budget: 1 << 20)
        probe.store(entry(0))
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
        let size = try #require(attributes[.size] as? Int)
        return count * size + size / 2
    }

    /// Stores entry `index` and returns the name of the file it wrote.
    private static func store(_ index: Int, in store: DiskResponseStore, at directory: URL) throws -> String {
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        store.store(entry(index))
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        return try #require(after.subtracting(before).first)
    }

    private static func entryFiles(in directory: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".entry") }.count
    }

    @Test("a write over the budget evicts the least recently used entry; a hit counts as a use")
    func leastRecentlyUsedGoesFirst() throws {
        let directory = CacheStageTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DiskResponseStore(directory: directory, budget: try Self.budget(holding: 3))
        for index in 0..<3 { store.store(Self.entry(index)) }
        #expect(store.entry(for: Self.entry(0).key) != nil)  // 0 is now more recent than 1 and 2
        store.store(Self.entry(3))
        #expect(try Self.entryFiles(in: directory) == 3)
        #expect(store.entry(for: Self.entry(1).key) == nil)
        for index in [0, 2, 3] { #expect(store.entry(for: Self.entry(index).key) != nil) }
    }

    @Test("files already in the directory when a store opens count against its budget")
    func existingFilesCount() throws {
        let directory = CacheStageTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let budget = try Self.budget(holding: 3)
        let first = try DiskResponseStore(directory: directory, budget: budget)
        let names = try (0..<3).map { try Self.store($0, in: first, at: directory) }
        // Last uses a minute apart, oldest first, whatever the file system's time resolution.
        for (index, name) in names.enumerated() {
            let used = Date(timeIntervalSinceNow: Double(index - 3) * 60)
            try FileManager.default.setAttributes([.modificationDate: used], ofItemAtPath: directory.appendingPathComponent(name).path)
        }
        let second = try DiskResponseStore(directory: directory, budget: budget)
        second.store(Self.entry(3))
        #expect(try Self.entryFiles(in: directory) == 3)
        #expect(second.entry(for: Self.entry(0).key) == nil)
        for index in 1...3 { #expect(second.entry(for: Self.entry(index).key) != nil) }
    }

    @Test("an entry written again replaces its size in the count instead of adding to it")
    func rewriteReplacesItsSize() throws {
        let directory = CacheStageTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DiskResponseStore(directory: directory, budget: try Self.budget(holding: 3))
        for _ in 0..<5 { store.store(Self.entry(0)) }
        store.store(Self.entry(1))
        store.store(Self.entry(2))
        #expect(try Self.entryFiles(in: directory) == 3)
        for index in 0..<3 { #expect(store.entry(for: Self.entry(index).key) != nil) }
    }

    @Test("an entry whose file disappeared behind the store's back stops counting against the budget")
    func vanishedFileIsForgotten() throws {
        let directory = CacheStageTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DiskResponseStore(directory: directory, budget: try Self.budget(holding: 3))
        let vanished = try Self.store(0, in: store, at: directory)
        for index in 1..<3 { store.store(Self.entry(index)) }
        #expect(store.entry(for: Self.entry(0).key) != nil)  // 0 is now the most recently used
        try FileManager.default.removeItem(at: directory.appendingPathComponent(vanished))
        #expect(store.entry(for: Self.entry(0).key) == nil)
        store.store(Self.entry(3))
        // Had 0 still counted, 1 (the least recently used) would have been evicted to make room.
        #expect(try Self.entryFiles(in: directory) == 3)
        for index in 1...3 { #expect(store.entry(for: Self.entry(index).key) != nil) }
    }
}
