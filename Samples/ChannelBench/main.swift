// Round trips over a channel against the raw swift-websocket client, on the same loopback server (the
// Python `websockets` echo of Tests/Channels/ws_server.py, in a process of its own), and the peak
// memory of a channel whose reader is slower than its server.
//
// Usage: switchyard-channel-bench [round-trips] [flood-messages] [cancel-rounds]
// Prints, per client: messages per second and this process's CPU time per round trip; then the
// resident-memory high-water mark before and after the slow-reader flood; then how long a cancellation
// by tag takes to reach the server as a close frame.
import Foundation
import Logging
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardChannels
import WSClient

let arguments = CommandLine.arguments
let roundTrips = arguments.count > 1 ? Int(arguments[1]) ?? 20000 : 20000
let floodCount = arguments.count > 2 ? Int(arguments[2]) ?? 50000 : 50000
let cancelRounds = arguments.count > 3 ? Int(arguments[3]) ?? 200 : 200

/// CPU seconds this process used so far (user + system).
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// A line of /proc/self/status, in KiB.
func status(_ field: String) -> Int {
    let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty }.map { String($0).trimmingCharacters(in: .whitespaces) } ?? "")
        ?? 0
}

// The server.
let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Tests/Channels/ws_server.py")
    .standardized
let server = Process()
server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
server.arguments = ["python3", script.path]
let input = Pipe()
let output = Pipe()
server.standardInput = input
server.standardOutput = output
try server.run()
var ready = Data()
while !ready.contains(UInt8(ascii: "\n")) {
    let chunk = output.fileHandleForReading.availableData
    if chunk.isEmpty { break }
    ready.append(chunk)
}
struct Ready: Decodable { let port: Int }
let port = try JSONDecoder().decode(Ready.self, from: ready).port
let base = "http://127.0.0.1:\(port)"
let text = String(repeating: "x", count: 64)

struct Measure {
    let name: String
    let seconds: Double
    let cpu: Double
    var line: String {
        String(
            format: "%@: %d round trips in %.3f s = %.0f msg/s, CPU %.1f µs per round trip",
            name,
            roundTrips,
            seconds,
            Double(roundTrips) / seconds,
            cpu / Double(roundTrips) * 1e6
        )
    }
}

func measure(_ name: String, _ body: () async throws -> Void) async throws -> Measure {
    let cpu = cpuSeconds()
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    return Measure(
        name: name,
        seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
        cpu: cpuSeconds() - cpu
    )
}

let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
let live = ServiceID("live")
try registry.register(Service(live, baseURL: base, transport: AsyncHTTPClientTransport()))
let client = APIClient(registry: registry)
let echo = DynamicEndpoint<NoContent>(service: live, method: .get, path: "/echo", as: NoContent.self)

/// Progress on standard error.
func note(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

func switchyardRun() async throws -> Measure {
    note("switchyard: opening")
    let channel = try await client.channel(echo)
    note("switchyard: open")
    var messages = channel.messages.makeAsyncIterator()
    _ = try await messages.next()
    let result = try await measure("Switchyard channel") {
        for _ in 0..<roundTrips {
            try await channel.send(.text(text))
            _ = try await messages.next()
        }
    }
    note("switchyard: closing")
    await channel.close()
    note("switchyard: closed")
    return result
}

func rawRun() async throws -> Measure {
    let box = ResultBox()
    try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/echo", logger: Logger(label: "raw")) { inbound, outbound, _ in
        var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
        _ = try await messages.next()
        box.value = try await measure("raw WSClient") {
            for _ in 0..<roundTrips {
                try await outbound.write(.text(text))
                _ = try await messages.next()
            }
        }
    }
    return box.value!
}

final class ResultBox: @unchecked Sendable { var value: Measure? }

// Warm up both, then alternate three runs each.
_ = try await switchyardRun()
_ = try await rawRun()
var ours: [Measure] = []
var raw: [Measure] = []
for _ in 0..<3 {
    raw.append(try await rawRun())
    ours.append(try await switchyardRun())
}
for line in (raw + ours).map(\.line) { print(line) }
let best = { (runs: [Measure]) in runs.map { Double(roundTrips) / $0.seconds }.max()! }
print(String(format: "throughput ratio (best of 3): %.3f", best(ours) / best(raw)))

// The slow reader: the server floods 1 KiB messages; the reader pauses 1 ms every 100.
let before = status("VmHWM")
let flood = try await client.channel(
    DynamicEndpoint<NoContent>(
        service: live,
        method: .get,
        path: "/flood",
        parameters: ["n": .int(floodCount)],
        encoding: .query,
        as: NoContent.self
    ),
    configuration: ChannelConfiguration(inboundBuffer: 16)
)
var received = 0
for try await _ in flood.messages {
    received += 1
    if received % 100 == 0 { try await Task.sleep(for: .milliseconds(1)) }
}
print(
    "slow reader: \(received) messages of 1 KiB; peak waiting \(flood.bufferPeak); VmHWM \(before) KiB before, \(status("VmHWM")) KiB after"
)

// Cancellation latency: a channel on /hold cancelled by tag, timed from `cancel` to the moment the server
// recorded the close frame (its wall clock and ours are the same machine's). The issue's bound is 100 ms.
struct HoldReport: Decodable {
    let close_code: Int?
    let closed_at: Double?
}
func hold(_ path: String, _ id: String) -> DynamicEndpoint<NoContent> {
    DynamicEndpoint<NoContent>(
        service: live,
        method: .get,
        path: path,
        parameters: ["id": .string(id)],
        encoding: .query,
        as: NoContent.self
    )
}
func holdReport(_ id: String) async throws -> HoldReport {
    let channel = try await client.channel(hold("/report", id))
    var messages = channel.messages.makeAsyncIterator()
    let message = try await messages.next()
    await channel.close()
    return try message!.decode(HoldReport.self)
}
var latencies: [Double] = []
var codes: Set<Int> = []
for round in 0..<cancelRounds {
    let id = "cancel-\(round)"
    let channel = try await client.channel(hold("/hold", id), options: CallOptions(tags: ["bench"]))
    var messages = channel.messages.makeAsyncIterator()
    try await channel.send(.text("x"))
    _ = try await messages.next()
    let cancelledAt = Date().timeIntervalSince1970
    _ = client.cancel(.tag("bench"))
    var report = try await holdReport(id)
    while report.closed_at == nil {
        try await Task.sleep(for: .milliseconds(5))
        report = try await holdReport(id)
    }
    latencies.append((report.closed_at! - cancelledAt) * 1000)
    codes.insert(report.close_code ?? -1)
}
latencies.sort()
let rank = { (q: Double) in latencies[min(latencies.count - 1, Int(q * Double(latencies.count)))] }
print(
    String(
        format: "cancel by tag → close frame seen by the server, %d channels: median %.2f ms, p99 %.2f ms, max %.2f ms; close codes %@",
        latencies.count,
        rank(0.5),
        rank(0.99),
        latencies.last!,
        codes.sorted().map(String.init).joined(separator: ",")
    )
)
try? input.fileHandleForWriting.close()
server.waitUntilExit()
