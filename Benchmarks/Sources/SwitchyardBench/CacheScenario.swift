import ArgumentParser
import BenchSampleBackend
import Foundation
import Switchyard
import SwitchyardAsyncHTTPClient

/// `cache`: one `APIClient.send` answered from the memory tier, from the disk tier (memory budget
/// zero, so every read opens, checks and decodes the entry's file), and from the network (a loopback
/// call to the sample backend's `/bench`), sequentially, rounds interleaved.
struct CacheScenario: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "A call answered from memory, from disk and from the network."
    )

    @Option(help: "Calls per contender per round.") var calls = 2_000
    @Option(help: "Rounds per contender (the median is reported).") var rounds = 5
    @Flag(help: "Only the memory hit (for profiling it alone).") var memoryOnly = false
    @OptionGroup var alone: ContenderOptions

    /// The contenders, in the order they run in a round, by the names the scenario prints.
    static let contenders = ["memory-hit", "disk-hit", "network"]

    func validate() throws { try alone.validate(among: Self.contenders) }

    func run() async throws {
        let backend = try await SampleBackend.start()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-bench-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        let memory: ServiceID = "memory"
        let disk: ServiceID = "disk"
        try registry.register(
            Service(
                memory,
                baseURL: backend.baseURL,
                stages: [CacheStage(cache: try ResponseCache())],
                transport: AsyncHTTPClientTransport()
            )
        )
        try registry.register(
            Service(
                disk,
                baseURL: backend.baseURL,
                stages: [CacheStage(cache: try ResponseCache(memoryBudget: 0, directory: directory))],
                transport: AsyncHTTPClientTransport()
            )
        )
        let client = APIClient(registry: registry)
        var cached = CallOptions()
        cached.cache(.cacheElseNetwork(maxAge: .seconds(3600)))
        let options = cached
        let expectations: [(ServiceID, CallOptions, ResponseSource)] = [
            (memory, options, .memoryCache), (disk, options, .diskCache), (memory, CallOptions(), .network),
        ]
        for (service, options, _) in expectations { _ = try await client.send(service, .get, "/bench", options: options) }
        // Nanoseconds per call over `count` calls of contender `index`.
        func measure(_ index: Int, _ count: Int) async throws -> Double {
            let (service, options, source) = expectations[index]
            let start = ContinuousClock.now
            for _ in 0..<count {
                let result = try await client.send(service, .get, "/bench", options: options)
                guard result.source == source else { throw ValidationError("expected \(source), got \(result.source)") }
            }
            return Statistics.seconds(ContinuousClock.now - start) * 1e9 / Double(count)
        }
        if let contender = alone.contender, let index = Self.contenders.firstIndex(of: contender) {
            try await ContenderOptions.run(contender, warmup: alone.warmup, calls: calls) { try await measure(index, $0) }
            try await backend.shutdown()
            return
        }
        var rates: [[Double]] = [[], [], []]
        for _ in 0..<rounds {
            for index in expectations.indices where !memoryOnly || index == 0 {
                rates[index].append(try await measure(index, calls))
            }
        }
        print("memory-hit \(Statistics.format(Statistics.median(rates[0]))) ns/op")
        if !memoryOnly {
            print("disk-hit \(Statistics.format(Statistics.median(rates[1]))) ns/op")
            print("network \(Statistics.format(Statistics.median(rates[2]))) ns/op")
        }
        try await backend.shutdown()
    }
}
