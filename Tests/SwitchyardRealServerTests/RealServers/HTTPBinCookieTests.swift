import Foundation
import Switchyard
import SwitchyardTestSupport
import Testing

/// What httpbin's `/cookies` (and `/cookies/set`, which redirects there) reports.
private struct HTTPBinCookies: Decodable, Sendable {
    let cookies: [String: String]
}

private func account(_ name: String) -> CallOptions {
    var options = CallOptions()
    options.account = name
    return options
}

@Suite(
    "httpbin (PyPI, under gunicorn): the cookie stage over both transports",
    .enabled(if: RealServers.enabled, "nginx, gunicorn and httpbin are needed: apt-get install nginx; pip install httpbin gunicorn"),
    .timeLimit(.minutes(2))
)
struct HTTPBinCookieTests {
    @Test(
        "/cookies/set stores the cookie through its redirect and /cookies gets it back, for that account only, until sign-out",
        arguments: RealServers.transports
    )
    func cookieStage(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.httpbin, transport: transport, stages: [CookieStage()])
        let ada = account("ada")
        // httpbin answers /cookies/set with a 302 to /cookies carrying Set-Cookie: the hop already sends it.
        let set = try await client.send(.utility, .get, "/cookies/set?flavour=oat", options: ada, as: HTTPBinCookies.self)
        #expect(set.redirectCount == 1)
        #expect(set.value.cookies == ["flavour": "oat"])
        #expect(
            try await client.send(.utility, .get, "/cookies", options: ada, as: HTTPBinCookies.self).value.cookies == ["flavour": "oat"]
        )
        #expect(try await client.send(.utility, .get, "/cookies", options: account("bob"), as: HTTPBinCookies.self).value.cookies == [:])
        #expect(try await client.send(.utility, .get, "/cookies", as: HTTPBinCookies.self).value.cookies == [:])
        // httpbin deletes with an expired Set-Cookie.
        _ = try await client.send(.utility, .get, "/cookies/set?other=1", options: ada)
        _ = try await client.send(.utility, .get, "/cookies/delete?other", options: ada)
        #expect(
            try await client.send(.utility, .get, "/cookies", options: ada, as: HTTPBinCookies.self).value.cookies == ["flavour": "oat"]
        )
        await client.endSession(account: "ada")
        #expect(try await client.send(.utility, .get, "/cookies", options: ada, as: HTTPBinCookies.self).value.cookies == [:])
    }

    @Test("without a cookie stage the transport keeps no cookie", arguments: RealServers.transports)
    func noStageNoCookies(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.httpbin, transport: transport)
        #expect(try await client.send(.utility, .get, "/cookies/set?flavour=oat", as: HTTPBinCookies.self).value.cookies == [:])
        #expect(try await client.send(.utility, .get, "/cookies", as: HTTPBinCookies.self).value.cookies == [:])
    }
}
