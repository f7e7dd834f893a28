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

    func run() async throws {
        let backend = try await SampleBackend.start()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-bench-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        let memory = ServiceID("memory")!
        let disk = ServiceID("disk")!
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
        var rates: [[Double]] = [[], [], []]
        for _ in 0..<rounds {
            for (index, (service, options, source)) in expectations.enumerated() where !memoryOnly || index == 0 {
                let start = ContinuousClock.now
                for _ in 0..<calls {
                    let result = try await client.send(service, .get, "/bench", options: options)
                    guard result.source == source else { throw ValidationError("expected \(source), got \(result.source)") }
                }
                rates[index].append(Statistics.seconds(ContinuousClock.now - start) * 1e9 / Double(calls))
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
