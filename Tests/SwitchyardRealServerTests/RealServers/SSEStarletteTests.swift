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
        // Each reconnection sent the last id delivered. A broken connection's events arrive before
        // its error, so both ways of ending resume at the same ids.
        #expect(try await sentIDs(name, client: client) == ["", "3", "6", "9", "10"])
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
        // The events the connection read before it broke all arrive before its error.
        #expect(ids == ["1", "2", "3"])
        #expect(try await sentIDs(name, client: client) == [""])
    }
}
