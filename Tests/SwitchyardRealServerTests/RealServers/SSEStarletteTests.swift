import Foundation
import Switchyard
import SwitchyardTestSupport
import Testing

/// The feed `name` of `Tests/RealServers/sse_app.py`: `total` events, the connection ended after
/// `per` of them — broken (`abort`) or closed normally (`close`).
private func feed(_ name: String, total: Int, per: Int, drop: String) -> DynamicEndpoint<ResponseStream> {
    DynamicEndpoint<ResponseStream>(
        service: .utility,
        method: .get,
        path: "/feed/{name}",
        pathParameters: ["name": name],
        parameters: ["total": .int(total), "per": .int(per), "drop": .string(drop)],
        encoding: .query
    )
}

/// The reconnections the tests allow in a row, waiting the feed's own `retry` (20 ms) between them.
private let reconnect = RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(20), jitter: 0)

@Suite(
    "sse-starlette (PyPI, under uvicorn): an event stream resumes dropped connections with Last-Event-ID",
    .enabled(if: RealServers.enabled, "nginx, gunicorn and the Python servers are needed: see .ci/run"),
    .timeLimit(.minutes(2))
)
struct SSEStarletteTests {
    /// The `Last-Event-ID` each request of feed `name` carried, as the server logged it ("" for none).
    private func sentIDs(_ name: String, client: APIClient) async throws -> [String] {
        try await client.send(.utility, .get, "/log/\(name)", as: [String].self).value
    }

    @Test(
        "a feed whose connections end every 3 events resumes where it left off: each id once, in order, then 204 ends it",
        arguments: ["abort", "close"]
    )
    func resumesWhereItLeftOff(drop: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.sse, transport: "AsyncHTTPClient")
        let name = "resume-\(drop)-\(UUID().uuidString)"
        let events = try await client.events(feed(name, total: 10, per: 3, drop: drop), reconnect: reconnect)
        var ids: [String] = []
        var data: [String] = []
        for try await event in events.value {
            ids.append(event.id ?? "")
            data.append(event.data)
        }
        #expect(ids == (1...10).map(String.init))
        #expect(data == (1...10).map { "event \($0)" })
        // Each reconnection sent the last id delivered, so the ids sent rise from none to the last.
        // A closed connection ends after its third event; a broken one (the server's generator
        // raises) loses what the server had not yet written, so it may resume earlier.
        let sent = try await sentIDs(name, client: client)
        #expect(sent.first == "" && sent.last == "10")
        let resumed = sent.dropFirst().map { Int($0) ?? -1 }
        #expect(resumed == resumed.sorted())
        if drop == "close" { #expect(sent == ["", "3", "6", "9", "10"]) }
        #expect(client.callsInFlight.isEmpty)
    }

    @Test("without reconnecting, a broken connection ends the events with .transport after its events")
    func brokenWithoutReconnect() async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.sse, transport: "AsyncHTTPClient")
        let name = "broken-\(UUID().uuidString)"
        let events = try await client.events(feed(name, total: 10, per: 3, drop: "abort"))
        var ids: [String] = []
        let error = await #expect(throws: SwitchyardError.self) {
            for try await event in events.value { ids.append(event.id ?? "") }
        }
        #expect(error?.code == .transport)
        // Worded as a break in the middle of the answer, not as a connection that never answered.
        #expect(error?.message.contains("before answering") == false)
        #expect(error?.message.contains("/feed/") == true)
        // The events arrive in order before the error. Which of the three arrive depends on what the
        // client had read when the connection broke: a reset discards what the kernel held unread, and
        // AsyncHTTPClient what it reads past a full read-ahead buffer (a stream of ours
        // delivers everything it was handed first: `StreamedCallTests` and the conformance case
        // `stream-break-delivers-what-arrived`).
        #expect(ids == Array(["1", "2", "3"].prefix(ids.count)))
        #expect(try await sentIDs(name, client: client) == [""])
    }
}
