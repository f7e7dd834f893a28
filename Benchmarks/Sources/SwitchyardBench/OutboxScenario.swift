import ArgumentParser
import BenchSampleBackend
import Foundation
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardOutbox

/// `outbox`: what a durable call costs beside a plain one, against the sample backend on 127.0.0.1
/// (`POST /echo/orders`, a 20-byte JSON order, one call at a time): `send` is a plain
/// `APIClient.send`; `enqueue` stores the call in an outbox (SQLite, WAL, `synchronous=FULL`: one
/// `fsync` a call) without sending it; `drained` enqueues it and drains it — the store's insert, the
/// send through the same pipeline with its `Idempotency-Key`, and the outcome recorded. Then
/// `throughput`: `--drain` calls enqueued with the outbox stopped, then drained, in calls per second.
struct OutboxScenario: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "A plain send, an enqueue and a drained call; drain throughput over loopback."
    )

    @Option(help: "Calls per contender per round.") var calls = 300
    @Option(help: "Rounds per contender (the median is reported).") var rounds = 3
    @Option(help: "Calls queued, then drained, for the throughput figure (0 skips it).") var drain = 2_000
    @OptionGroup var alone: ContenderOptions

    /// The contenders, in the order they run in a round, by the names the scenario prints.
    static let contenders = ["send", "enqueue", "drained"]

    func validate() throws { try alone.validate(among: Self.contenders) }

    func run() async throws {
        let backend = try await SampleBackend.start()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-bench-outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
        let service = ServiceID("orders")
        try registry.register(Service(service, baseURL: backend.baseURL, transport: AsyncHTTPClientTransport()))
        let client = APIClient(registry: registry)
        let order = Data(#"{"order":"bench-1"}"#.utf8)
        let call = OutboxCall(service, .post, "/echo/orders", body: .data(order, contentType: "application/json"), queue: "orders")
        // One call reaches the server whatever the contender, so its thread is known to a per-thread count.
        _ = try await client.send(service, .post, "/echo/orders", body: .data(order, contentType: "application/json"))

        let queued = try await Outbox(file: directory.appendingPathComponent("queued.sqlite"), client: client)
        let drained = try await Outbox(file: directory.appendingPathComponent("drained.sqlite"), client: client)
        // Nanoseconds per call over `count` calls of contender `index`.
        func measure(_ index: Int, _ count: Int) async throws -> Double {
            let start = ContinuousClock.now
            for _ in 0..<count {
                switch index {
                case 0:
                    let result = try await client.send(service, .post, "/echo/orders", body: .data(order, contentType: "application/json"))
                    guard result.status == .ok else { throw ValidationError("send answered \(result.status)") }
                case 1:
                    try await queued.enqueue(call)
                default:
                    try await drained.enqueue(call)
                    try await drained.drain()
                }
            }
            return Statistics.seconds(ContinuousClock.now - start) * 1e9 / Double(count)
        }
        if let contender = alone.contender, let index = Self.contenders.firstIndex(of: contender) {
            try await ContenderOptions.run(contender, warmup: alone.warmup, calls: calls) { try await measure(index, $0) }
        } else {
            var times: [[Double]] = [[], [], []]
            for _ in 0..<rounds {
                for index in Self.contenders.indices { times[index].append(try await measure(index, calls)) }
            }
            for (index, name) in Self.contenders.enumerated() {
                print("\(name) \(Statistics.format(Statistics.median(times[index]))) ns/call")
            }
            guard try await drained.counts().delivered == rounds * calls else {
                throw ValidationError("not every drained call was delivered")
            }
            if drain > 0 {
                try await measureThroughput(client: client, call: call, file: directory.appendingPathComponent("throughput.sqlite"))
            }
        }
        await queued.close()
        await drained.close()
        try await backend.shutdown()
    }

    /// Queues `drain` calls with the outbox stopped, then drains them all and prints calls per second.
    private func measureThroughput(client: APIClient, call: OutboxCall, file: URL) async throws {
        let outbox = try await Outbox(file: file, client: client)
        for _ in 0..<drain { try await outbox.enqueue(call) }
        let start = ContinuousClock.now
        try await outbox.drain()
        let seconds = Statistics.seconds(ContinuousClock.now - start)
        guard try await outbox.counts().delivered == drain else { throw ValidationError("not every queued call was delivered") }
        print(
            "throughput \(drain) calls drained in \(Statistics.format(seconds * 1000)) ms: \(Statistics.format(Double(drain) / seconds)) calls/s"
        )
        await outbox.close()
    }
}
