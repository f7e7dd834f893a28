import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import Switchyard
import SwitchyardAsyncHTTPClient

/// `stream`: a large Server-Sent Events stream read by raw AsyncHTTPClient and by Switchyard's
/// streamed call, each contender in a process of its own, for every size asked for: events per
/// second, CPU per event and the process's resident memory before and after.
///
/// The events come from `Benchmarks/Scripts/event_feed.py`, a separate process (so neither its CPU
/// nor its memory is the client's), as fast as the loopback carries them. The contenders:
/// `raw-ahc` reads `HTTPClient.execute`'s body and counts the events by their blank lines;
/// `raw-ahc-decode` decodes that body with `HandWrittenEventParser`, the least an app reading events
/// with AsyncHTTPClient alone would write (each event's data, id and type made strings);
/// `switchyard-bytes` does the same with the chunks of a streamed call through a service's pipeline
/// (`client.send` of an endpoint whose output is `ResponseStream`); `switchyard-events` decodes the
/// same call's body with `serverSentEvents()` into `ServerSentEvent`s (every field parsed, the data
/// made a `String`). With `--slow` every consumer sleeps 2 ms after each 256 KiB it reads, so the
/// feed outruns it and only backpressure keeps the memory bounded.
struct EventStreamScenario: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Events per second and memory of a large event stream."
    )

    static let contenders = ["raw-ahc", "raw-ahc-decode", "switchyard-bytes", "switchyard-events"]

    @Option(help: "Sizes in MB (10^6 bytes), comma-separated.") var sizes = "10,100,1000"
    @Option(help: "Contenders, comma-separated: raw-ahc, raw-ahc-decode, switchyard-bytes, switchyard-events.")
    var contenders = "raw-ahc,raw-ahc-decode,switchyard-bytes,switchyard-events"
    @Option(help: "Rounds: each contender runs once per round, in turn; the median is reported.") var rounds = 3
    @Option(help: "Bytes per event (64...4096).") var eventSize = 128
    @Flag(help: "A slow consumer: sleep 2 ms after each 256 KiB read.") var slow = false
    @Option(help: "The event feed script.") var feed = "Benchmarks/Scripts/event_feed.py"
    @Option(help: "Run one contender in this process against this feed URL (used by the parent).") var url: String?
    @Option(help: "The contender for --url.") var child = "raw-ahc"
    @Option(help: "The size for --url, in MB.") var megabytes = 10

    func run() async throws {
        if let url {
            try await runChild(url: url)
            return
        }
        let names = contenders.split(separator: ",").map(String.init)
        if let unknown = names.first(where: { !Self.contenders.contains($0) }) {
            throw ValidationError("unknown contender \(unknown); the contenders are \(Self.contenders.joined(separator: ", "))")
        }
        let (server, base) = try Self.startFeed(feed)
        // SIGKILL: the feed's Python inherits this process's blocked signals, SIGTERM among them.
        defer { kill(server.processIdentifier, SIGKILL) }
        print(
            "stream  contender          size      events      events/s     MB/s    cpu-ns/event  baseline-rss  peak-rss    growth"
        )
        for size in sizes.split(separator: ",").compactMap({ Int($0) }) {
            var rates: [String: [Double]] = [:]
            for round in 0..<rounds {
                // Each round starts with the next contender, so none always runs first.
                for offset in names.indices {
                    let name = names[(offset + round) % names.count]
                    let line = try runProcess(name, size: size, base: base)
                    print(line)
                    rates[name, default: []].append(Double(line.split(separator: " ", omittingEmptySubsequences: true)[5]) ?? 0)
                }
            }
            let raw = rates["raw-ahc"].map(Statistics.median) ?? 0
            for name in names {
                let median = Statistics.median(rates[name] ?? [])
                let ratio = raw > 0 ? " (\(Statistics.format(median / raw, decimals: 2))× raw-ahc)" : ""
                print("median  \(name) \(size) MB: \(Statistics.format(median, decimals: 0)) events/s\(ratio)")
            }
        }
    }

    /// Starts the feed on a free loopback port; its process and base URL.
    private static func startFeed(_ script: String) throws -> (Process, String) {
        let portFile = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-bench-feed-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--port-file", portFile.path]
        try process.run()
        for _ in 0..<200 {
            if let port = try? String(contentsOf: portFile, encoding: .utf8), !port.isEmpty {
                try? FileManager.default.removeItem(at: portFile)
                return (process, "http://127.0.0.1:\(port)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.terminate()
        throw ValidationError("the event feed (\(script)) did not start; run from the repository's root or pass --feed")
    }

    private func runProcess(_ name: String, size: Int, base: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        var arguments = [
            "stream", "--url", "\(base)/events?bytes=\(size * 1_000_000)&size=\(eventSize)", "--child", name, "--megabytes", "\(size)",
        ]
        if slow { arguments.append("--slow") }
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ValidationError("the \(name) child failed: \(text)") }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func runChild(url: String) async throws {
        // Read once: an `@Option`'s value is looked up through ArgumentParser's generic storage on each
        // read, which cost the events contender ~330 instructions per event in its loop.
        let eventSize = self.eventSize
        let expected = megabytes * 1_000_000 / eventSize * eventSize
        var consumer = Consumer(pauses: slow)
        let baseline: Int
        let cpuBefore: Double
        let start: ContinuousClock.Instant
        switch child {
        case "raw-ahc", "raw-ahc-decode":
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            // A warm-up request on the same client; then the measured one.
            _ = try await client.execute(
                HTTPClientRequest(url: url.replacingOccurrences(of: "bytes=", with: "bytes=1&_=")),
                timeout: .seconds(30)
            )
            .body.collect(upTo: 1 << 20)
            baseline = TransferScenario.peakResidentKiB()
            cpuBefore = Self.cpuSeconds()
            start = .now
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(3600))
            if child == "raw-ahc-decode" {
                var parser = HandWrittenEventParser()
                for try await buffer in response.body {
                    buffer.withUnsafeReadableBytes { bytes in
                        parser.take(bytes) { consumer.count(event: eventSize, data: $0.data.utf8.count) }
                    }
                    try await consumer.pauseIfDue()
                }
            } else {
                for try await buffer in response.body {
                    buffer.withUnsafeReadableBytes { consumer.take($0) }
                    try await consumer.pauseIfDue()
                }
            }
            try await client.shutdown()
        default:
            let service: ServiceID = "feed"
            let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
            var origin = URLComponents(string: url)!
            (origin.path, origin.query) = ("", nil)
            try registry.register(Service(service, baseURL: origin.string!, transport: AsyncHTTPClientTransport()))
            let client = APIClient(registry: registry)
            let query = URLComponents(string: url)!.queryItems ?? []
            func endpoint(_ items: [URLQueryItem]) -> DynamicEndpoint<ResponseStream> {
                DynamicEndpoint<ResponseStream>(
                    service: service,
                    method: .get,
                    path: "/events",
                    parameters: Parameters(items.map { ($0.name, ParameterValue.string($0.value ?? "")) }),
                    encoding: .query,
                    options: CallOptions(timeout: .seconds(3600))
                )
            }
            for try await _ in try await client.send(endpoint([URLQueryItem(name: "bytes", value: "1")])).value {}
            baseline = TransferScenario.peakResidentKiB()
            cpuBefore = Self.cpuSeconds()
            start = .now
            let stream = try await client.send(endpoint(query)).value
            if child == "switchyard-events" {
                for try await event in stream.serverSentEvents() {
                    consumer.count(event: eventSize, data: event.data.utf8.count)
                    try await consumer.pauseIfDue()
                }
            } else {
                for try await chunk in stream {
                    chunk.withUnsafeBytes { consumer.take($0) }
                    try await consumer.pauseIfDue()
                }
            }
        }
        let seconds = Statistics.seconds(ContinuousClock.now - start)
        let cpu = Self.cpuSeconds() - cpuBefore
        let peak = TransferScenario.peakResidentKiB()
        guard consumer.events == expected / eventSize else {
            throw ValidationError("\(child) read \(consumer.events) events; the feed sent \(expected / eventSize)")
        }
        if child == "raw-ahc-decode" || child == "switchyard-events", consumer.dataBytes == 0 {
            throw ValidationError("\(child) decoded events without data")
        }
        let line = [
            "stream ",
            child.padding(toLength: 18, withPad: " ", startingAt: 0),
            "\(megabytes) MB".padding(toLength: 9, withPad: " ", startingAt: 0),
            "\(consumer.events)".padding(toLength: 11, withPad: " ", startingAt: 0),
            Statistics.format(Double(consumer.events) / seconds, decimals: 0).padding(toLength: 12, withPad: " ", startingAt: 0),
            Statistics.format(Double(expected) / 1e6 / seconds).padding(toLength: 8, withPad: " ", startingAt: 0),
            Statistics.format(cpu * 1e9 / Double(consumer.events)).padding(toLength: 13, withPad: " ", startingAt: 0),
            TransferScenario.mib(baseline).padding(toLength: 13, withPad: " ", startingAt: 0),
            TransferScenario.mib(peak).padding(toLength: 11, withPad: " ", startingAt: 0),
            TransferScenario.mib(peak - baseline),
        ]
        print(line.joined(separator: " "))
    }

    /// The process's user and system CPU time so far, in seconds.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// What every contender does with what it reads: counts the events (by the blank line that ends
    /// each, for the byte contenders) and, when slow, sleeps 2 ms after each 256 KiB.
    struct Consumer {
        let pauses: Bool
        var events = 0
        private(set) var dataBytes = 0
        private var previous: UInt8 = 0
        private var sinceLastPause = 0

        init(pauses: Bool) { self.pauses = pauses }

        /// Counts the events ending in `bytes` by their blank lines (a LF right after a LF, the pair
        /// perhaps split between two reads), finding each LF with libc's `memchr`, as a careful raw
        /// reader would: a loop over every byte cost the byte contenders 5 to 9 instructions a byte,
        /// more than all else they did, and flattered the events contender beside them. Not inlined,
        /// so both byte contenders run this one compiled loop.
        @inline(never)
        mutating func take(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            let count = bytes.count
            var events = previous == 0x0A && bytes[0] == 0x0A ? 1 : 0
            var offset = 0
            while offset < count, let found = memchr(base + offset, 0x0A, count - offset) {
                let index = base.distance(to: UnsafeRawPointer(found))
                if index + 1 < count, bytes[index + 1] == 0x0A { events += 1 }
                offset = index + 1
            }
            previous = bytes[count - 1]
            self.events += events
            sinceLastPause += count
        }

        /// Counts a decoded event of `bytes` bytes on the wire whose data has `data` bytes (summed, so
        /// that no decoder's strings can be optimized away).
        mutating func count(event bytes: Int, data: Int) {
            events += 1
            dataBytes &+= data
            sinceLastPause += bytes
        }

        mutating func pauseIfDue() async throws {
            guard pauses, sinceLastPause >= 256 << 10 else { return }
            sinceLastPause = 0
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
