import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestSupport
import Synchronization
import Testing

/// A clock the test moves by hand, starting at the real time (the servers' `Date` fields are real).
private final class ShiftedClock: Sendable {
    private let shift = Mutex(0.0)
    var now: Date { Date().addingTimeInterval(shift.withLock { $0 }) }
    func advance(_ seconds: TimeInterval) { shift.withLock { $0 += seconds } }
}

@Suite(
    "RFC 9111 caching against nginx and httpbin: real 304s, max-age, Expires, no-store, Vary",
    .enabled(if: RealServers.enabled, "nginx, gunicorn and httpbin are needed: apt-get install nginx; pip install httpbin gunicorn"),
    .timeLimit(.minutes(2))
)
struct RealServerCacheTests {
    private let clock = ShiftedClock()

    private func client(_ baseURL: String, transport: String) throws -> APIClient {
        let clock = self.clock
        return try RealServers.client(baseURL, transport: transport, stages: [CacheStage(cache: try ResponseCache(), now: { clock.now })])
    }

    private func get(
        _ client: APIClient,
        _ path: String,
        _ policy: CachePolicy = .standard,
        fields: HTTPFields = [:]
    ) async throws
        -> CallResult<Response>
    {
        var options = CallOptions()
        options.cache(policy)
        return try await client.send(.utility, .get, path, headerFields: fields, options: options)
    }

    @Test("nginx answers a revalidation with a real 304, by ETag and by Last-Modified alone", arguments: RealServers.transports)
    func revalidation(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try client(servers.nginx, transport: transport)
        for path in ["/page.json", "/lm/page.json"] {
            let first = try await get(client, path, .revalidate)
            #expect(first.source == .network)
            let second = try await get(client, path, .revalidate)
            #expect(second.source == .revalidated, "\(path)")
            #expect(second.value.bytes == first.value.bytes)
        }
    }

    @Test("a response with neither freshness nor a policy lifetime is revalidated, not served blindly", arguments: RealServers.transports)
    func noFreshnessRevalidates(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try client(servers.nginx, transport: transport)
        _ = try await get(client, "/page.json")
        #expect(try await get(client, "/page.json").source == .revalidated)
    }

    @Test("httpbin's max-age keeps a response fresh until it runs out", arguments: RealServers.transports)
    func maxAge(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try client(servers.httpbin, transport: transport)
        _ = try await get(client, "/cache/60")
        clock.advance(30)
        #expect(try await get(client, "/cache/60").source == .memoryCache)
        clock.advance(31)
        #expect(try await get(client, "/cache/60").source == .network)
    }

    @Test("an Expires field from the server keeps a response fresh until that instant", arguments: RealServers.transports)
    func expires(transport: String) async throws {
        let servers = try await RealServers.require()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let expires = formatter.string(from: Date().addingTimeInterval(60)).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let client = try client(servers.httpbin, transport: transport)
        let path = "/response-headers?Expires=\(expires)"
        _ = try await get(client, path)
        clock.advance(20)
        #expect(try await get(client, path).source == .memoryCache)
        clock.advance(60)
        #expect(try await get(client, path).source == .network)
    }

    @Test("no-store from the server is never stored, even under an app lifetime", arguments: RealServers.transports)
    func noStore(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try client(servers.httpbin, transport: transport)
        _ = try await get(client, "/response-headers?Cache-Control=no-store", .cacheElseNetwork(maxAge: .seconds(600)))
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await get(client, "/response-headers?Cache-Control=no-store", .cacheOnly)
        }
        #expect(error?.code == .cacheMiss)
    }

    @Test("Vary: another Accept-Language goes to the network, the same one is served", arguments: RealServers.transports)
    func vary(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try client(servers.httpbin, transport: transport)
        let path = "/response-headers?Cache-Control=max-age%3D60&Vary=Accept-Language"
        _ = try await get(client, path, fields: [.acceptLanguage: "en"])
        #expect(try await get(client, path, fields: [.acceptLanguage: "en"]).source == .memoryCache)
        #expect(try await get(client, path, fields: [.acceptLanguage: "fr"]).source == .network)
    }
}
