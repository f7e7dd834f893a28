import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("Response cache")
struct CacheStageTests {
    /// Counts calls and answers with the count, so a cached answer is recognisable.
    static func countingTransport() -> (MockTransport, Locked<Int>) {
        let count = Locked(0)
        let transport = MockTransport { request, _ in
            let n = count.withLock {
                $0 += 1
                return $0
            }
            return Response(
                status: .ok,
                headerFields: [.contentType: "application/json"],
                body: Data(#"{"n":\#(n),"path":"\#(request.pathWithoutQuery)"}"#.utf8)
            )
        }
        return (transport, count)
    }

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-cache-tests-\(UUID().uuidString)")
    }

    /// Stores the responses for `paths` in a disk cache over `directory`, through a cache that is
    /// gone when this returns, so that what a later cache finds there was read from the files.
    static func fill(_ directory: URL, paths: [String], transport: MockTransport, policy: CachePolicy) async throws {
        let client = try makeClient(stages: [CacheStage(cache: try ResponseCache(directory: directory))], transport: transport)
        for path in paths { _ = try await client.send(.users, .get, path, options: options(policy, token: nil)) }
    }

    /// A call under `policy` with `token` as its bearer token; `nil` for a public call (what an unsealed
    /// disk tier keeps: it writes no private entry).
    static func options(_ policy: CachePolicy, token: String? = "t1") -> CallOptions {
        var options = CallOptions(headerFields: token.map { [.authorization: "Bearer \($0)"] } ?? [:])
        options.cache(policy)
        return options
    }

    @Test("cache else network: memory hit within max age, network again after it; sources say where values came from")
    func ttl() async throws {
        let (transport, count) = Self.countingTransport()
        let cache = try ResponseCache()
        let client = try makeClient(stages: [CacheStage(cache: cache)], transport: transport)
        let policy = CachePolicy.cacheElseNetwork(maxAge: .milliseconds(150))
        #expect(try await client.send(.users, .get, "/a", options: Self.options(policy)).source == .network)
        let hit = try await client.send(.users, .get, "/a", options: Self.options(policy))
        #expect(hit.source == .memoryCache)
        #expect(hit.value.bodyText == #"{"n":1,"path":"/a"}"#)
        try await Task.sleep(for: .milliseconds(200))
        #expect(try await client.send(.users, .get, "/a", options: Self.options(policy)).source == .network)
        #expect(count.withLock { $0 } == 2)
        // The default policy is network only: nothing read.
        #expect(try await client.send(.users, .get, "/a").source == .network)
        #expect(count.withLock { $0 } == 3)
    }

    @Test("keys: a timestamp change keeps the key; parameter order never matters; other credentials, environment or page do not match")
    func keys() async throws {
        let (transport, count) = Self.countingTransport()
        let cache = try ResponseCache()
        let registry = makeRegistry(environment: .develop)
        try registry.register(
            Service(
                .users,
                baseURLs: [.develop: "https://dev.example.com", .test: "https://test.example.com"],
                stages: [CacheStage(cache: cache)],
                transport: transport
            )
        )
        let client = APIClient(registry: registry)
        let policy = CachePolicy.cacheElseNetwork(maxAge: .seconds(60))
        _ = try await client.send(.users, .get, "/list?b=2&a=1&ts=100&access_token=x", options: Self.options(policy, token: "t1"))
        let same = try await client.send(.users, .get, "/list?a=1&b=2&ts=999&access_token=x", options: Self.options(policy, token: "t1"))
        #expect(same.source == .memoryCache)
        // Other credentials are another user's partition: never the same entry.
        #expect(
            try await client.send(.users, .get, "/list?a=1&b=2&access_token=y", options: Self.options(policy, token: "t1")).source
                == .network
        )
        #expect(
            try await client.send(.users, .get, "/list?a=1&b=2&access_token=x", options: Self.options(policy, token: "t2")).source
                == .network
        )
        #expect(try await client.send(.users, .get, "/list?a=1&b=3&access_token=x", options: Self.options(policy)).source == .network)
        try registry.switchEnvironment(to: .test)
        #expect(try await client.send(.users, .get, "/list?a=1&b=2&access_token=x", options: Self.options(policy)).source == .network)
        #expect(count.withLock { $0 } == 5)
    }

    @Test("a new cache over the same directory reads what an earlier one wrote; corrupt and truncated files are dropped and counted")
    func diskSurvivesAndCorruption() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (transport, count) = Self.countingTransport()
        let policy = CachePolicy.cacheElseNetwork(maxAge: .seconds(60))
        try await Self.fill(directory, paths: ["/a", "/b", "/c"], transport: transport, policy: policy)
        let reopened = try ResponseCache(directory: directory)
        let client = try makeClient(stages: [CacheStage(cache: reopened)], transport: transport)
        let fromDisk = try await client.send(.users, .get, "/a", options: Self.options(policy, token: nil))
        #expect(fromDisk.source == .diskCache)
        #expect(fromDisk.value.bodyText == #"{"n":1,"path":"/a"}"#)
        #expect(try await client.send(.users, .get, "/a", options: Self.options(policy, token: nil)).source == .memoryCache)

        // Damage /b's file (flip a body byte) and truncate /c's.
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".entry") }
        #expect(files.count == 3)
        var damaged = 0
        for name in files {
            let url = directory.appendingPathComponent(name)
            var data = try Data(contentsOf: url)
            guard !String(decoding: data, as: UTF8.self).contains("\"path\":\"/a\"") else { continue }
            if damaged == 0 { data[data.count - 3] ^= 0xFF } else { data = data.prefix(data.count / 2) }
            try data.write(to: url)
            damaged += 1
        }
        let third = try ResponseCache(directory: directory)
        let client3 = try makeClient(stages: [CacheStage(cache: third)], transport: transport)
        #expect(try await client3.send(.users, .get, "/b", options: Self.options(policy, token: nil)).source == .network)
        #expect(try await client3.send(.users, .get, "/c", options: Self.options(policy, token: nil)).source == .network)
        #expect(third.corruptEntriesDropped == 2)
        #expect(count.withLock { $0 } == 5)
    }

    @Test("a disk entry whose status no response can carry is dropped as corrupt, not served and not a crash")
    func diskEntryWithForeignStatus() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (transport, count) = Self.countingTransport()
        let policy = CachePolicy.cacheElseNetwork(maxAge: .seconds(60))
        try await Self.fill(directory, paths: ["/a"], transport: transport, policy: policy)
        // Rewrite the status in place (same length, still valid JSON): 200 becomes -99, outside 0...999.
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasSuffix(".entry") })
        let url = directory.appendingPathComponent(name)
        var data = try Data(contentsOf: url)
        let status = try #require(data.range(of: Data(#""status":200"#.utf8)))
        data.replaceSubrange(status, with: Data(#""status":-99"#.utf8))
        try data.write(to: url)
        let reopened = try ResponseCache(directory: directory)
        let client = try makeClient(stages: [CacheStage(cache: reopened)], transport: transport)
        #expect(try await client.send(.users, .get, "/a", options: Self.options(policy, token: nil)).source == .network)
        #expect(reopened.corruptEntriesDropped == 1)
        #expect(count.withLock { $0 } == 2)
    }

    @Test("many concurrent readers and writers on one key never see a torn entry")
    func concurrency() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = CacheKey(serviceID: "users", endpoint: "x", identity: "same", partition: .public)
        let bodies = (0..<4).map { n in Data(String(repeating: String(n), count: 50_000).utf8) }
        let writer = try ResponseCache(memoryBudget: 0, directory: directory)  // disk only: every read hits a file
        let torn = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    if index % 2 == 0 {
                        writer.store(CachedResponse(key: key, status: 200, headerFields: [:], body: bodies[index % 4]))
                    } else if let found = writer.entry(for: key)?.entry.body, !bodies.contains(found) {
                        torn.withLock { $0 += 1 }
                    }
                }
            }
        }
        #expect(torn.withLock { $0 } == 0)
        #expect(writer.corruptEntriesDropped == 0)
        #expect(bodies.contains(try #require(writer.entry(for: key)?.entry.body)))
    }

    @Test("a newer version too large for a tier removes the older one there; an invalidation during a fetch is not undone")
    func staleVersions() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try ResponseCache(memoryBudget: 1_000, directory: directory)
        let key = CacheKey(serviceID: "users", endpoint: "x", identity: "k", partition: .public)
        cache.store(CachedResponse(key: key, status: 200, headerFields: [:], body: Data("small".utf8)))
        let large = Data(repeating: UInt8(ascii: "L"), count: 5_000)
        cache.store(CachedResponse(key: key, status: 200, headerFields: [:], body: large))
        let found = try #require(cache.entry(for: key))
        #expect(found.entry.body == large)
        #expect(found.source == .diskCache)

        let gate = Locked(false)
        let transport = gatedTransport(gate, body: "stale")
        let memoryOnly = try ResponseCache()
        let client = try makeClient(stages: [CacheStage(cache: memoryOnly)], transport: transport)
        let fetch = Task { try await client.send(.users, .get, "/a", options: Self.options(.cacheElseNetwork(maxAge: .seconds(60)))) }
        for _ in 0..<2500 where transport.requests.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
        memoryOnly.invalidateAll()
        gate.withLock { $0 = true }
        #expect(try await fetch.value.value.bodyText == "stale")
        let again = try await client.send(.users, .get, "/a", options: Self.options(.cacheElseNetwork(maxAge: .seconds(60))))
        #expect(again.source == .network)
    }

    @Test("network else cache falls back to the stored response when the network fails, and only then")
    func offlineFallback() async throws {
        let online = Locked(true)
        let transport = MockTransport { _, _ in
            guard online.withLock({ $0 }) else { throw SwitchyardError(code: .transport, message: "offline") }
            return Response(status: .ok, body: Data("fresh".utf8))
        }
        let client = try makeClient(stages: [CacheStage(cache: try ResponseCache())], transport: transport)
        #expect(try await client.send(.users, .get, "/a", options: Self.options(.networkElseCache)).source == .network)
        online.withLock { $0 = false }
        let fallback = try await client.send(.users, .get, "/a", options: Self.options(.networkElseCache))
        #expect(fallback.source == .memoryCache)
        #expect(fallback.value.bodyText == "fresh")
        await #expect(throws: SwitchyardError.self) {
            try await client.send(.users, .get, "/other", options: Self.options(.networkElseCache))
        }
    }

    @Test("cache then network delivers the stored value first and the fresh one after")
    func cacheThenNetwork() async throws {
        let (transport, _) = Self.countingTransport()
        let client = try makeClient(stages: [CacheStage(cache: try ResponseCache())], transport: transport)
        let endpoint = DynamicEndpoint<Response>(service: .users, method: .get, path: "/feed")
        var first: [ResponseSource] = []
        for try await result in client.sendCacheThenNetwork(endpoint) { first.append(result.source) }
        #expect(first == [.network])
        var second: [(ResponseSource, String?)] = []
        for try await result in client.sendCacheThenNetwork(endpoint) { second.append((result.source, result.value.bodyText)) }
        #expect(second.map(\.0) == [.memoryCache, .network])
        #expect(second.map(\.1) == [#"{"n":1,"path":"/feed"}"#, #"{"n":2,"path":"/feed"}"#])
    }

    @Test("invalidation by key, endpoint, service and everything; a successful write invalidates what it names")
    func invalidation() async throws {
        let (transport, count) = Self.countingTransport()
        let cache = try ResponseCache()
        let stage = CacheStage(cache: cache)
        let client = try makeClient(stages: [stage], transport: transport)
        let policy = CachePolicy.cacheElseNetwork(maxAge: .seconds(60))
        func get(_ path: String, name: String) async throws -> ResponseSource {
            try await client.send(
                DynamicEndpoint<Response>(service: .users, method: .get, path: path, options: Self.options(policy), name: name)
            ).source
        }
        _ = try await get("/a", name: "A")
        _ = try await get("/b", name: "B")
        #expect(try await get("/a", name: "A") == .memoryCache)
        cache.invalidate(service: .users, endpoint: "A")
        #expect(try await get("/a", name: "A") == .network)
        #expect(try await get("/b", name: "B") == .memoryCache)
        var write = CallOptions()
        write.invalidateCache(onSuccess: [(service: .users, endpoint: nil)])
        _ = try await client.send(.users, .post, "/b", options: write)
        #expect(try await get("/b", name: "B") == .network)
        cache.invalidateAll()
        #expect(try await get("/a", name: "A") == .network)
        let key = try await stage.key(
            for: try .fixture(.get, "https://api.example.com/a", headerFields: [.authorization: "Bearer t1"]),
            context: CallContext(serviceID: .users, endpointName: "A", environment: .develop)
        )
        cache.invalidate(key)
        #expect(try await get("/a", name: "A") == .network)
        #expect(count.withLock { $0 } == 7)
    }
}
