import Foundation
import HTTPTypes
import SwitchyardTesting
import Testing

@testable import Switchyard

/// What the cookie jar refuses: an `http` answer touching a `Secure` cookie, names whose prefix
/// (`__Secure-`, `__Host-`) promises what the cookie does not hold, and one environment's cookies in
/// another.
@Suite("Cookies: Secure cookies, name prefixes and environments")
struct CookieSecurityTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    private func parse(_ field: String, from url: String = "https://www.example.com/app/login") -> Cookie? {
        Cookie.parse(field, from: URL(string: url)!, now: now, maximumSize: 4096)
    }

    private func makeJar() -> (CookieJar, CookieJar.Partition) {
        (
            CookieJar(limits: .init(cookieSize: 4096, perDomain: 50, total: 3000)),
            .init(service: .users, environment: .release, account: nil)
        )
    }

    // MARK: Secure cookies (RFC 6265bis §5.7, "Leave Secure cookies alone")

    @Test("an http answer can neither overwrite nor delete a Secure cookie; an https one can")
    func httpLeavesSecureCookiesAlone() {
        let (jar, partition) = makeJar()
        let https = URL(string: "https://www.example.com/")!
        let http = URL(string: "http://www.example.com/")!
        jar.store(["sid=secret; Secure; Path=/"], from: https, in: partition, now: now)
        jar.store(["sid=forged; Path=/"], from: http, in: partition, now: now)
        jar.store(["sid=; Path=/; Max-Age=0"], from: http, in: partition, now: now)
        jar.store(["sid=sub; Domain=example.com; Path=/app"], from: URL(string: "http://evil.example.com/")!, in: partition, now: now)
        #expect(jar.header(for: https, in: partition, now: now) == "sid=secret")
        #expect(jar.header(for: http, in: partition, now: now) == nil)
        jar.store(["sid=; Path=/; Max-Age=0"], from: https, in: partition, now: now)
        #expect(jar.header(for: https, in: partition, now: now) == nil)
    }

    @Test("an http answer still sets cookies of other names, and of the same name on an unrelated path")
    func httpSetsUnrelatedCookies() {
        let (jar, partition) = makeJar()
        jar.store(["sid=secret; Secure; Path=/account"], from: URL(string: "https://www.example.com/")!, in: partition, now: now)
        jar.store(
            ["theme=dark; Path=/", "sid=plain; Path=/public"],
            from: URL(string: "http://www.example.com/")!,
            in: partition,
            now: now
        )
        #expect(jar.header(for: URL(string: "http://www.example.com/public/x")!, in: partition, now: now) == "sid=plain; theme=dark")
    }

    // MARK: Name prefixes (RFC 6265bis §4.1.3)

    @Test("__Secure- cookies need Secure (and so an https answer), whatever the case of the prefix")
    func securePrefix() {
        #expect(parse("__Secure-sid=1; Secure; Path=/") != nil)
        #expect(parse("__Secure-sid=1; Path=/") == nil)
        #expect(parse("__secure-sid=1; Path=/") == nil)
        #expect(parse("__Secure-sid=1; Secure", from: "http://www.example.com/") == nil)
    }

    @Test("__Host- cookies need Secure, no Domain and Path=/, whatever the case of the prefix")
    func hostPrefix() throws {
        let cookie = try #require(parse("__Host-sid=1; Secure; Path=/"))
        #expect(cookie.hostOnly && cookie.path == "/")
        for field in [
            "__Host-sid=1; Path=/", "__Host-sid=1; Secure", "__Host-sid=1; Secure; Path=/app",
            "__Host-sid=1; Secure; Path=/; Domain=example.com", "__Host-sid=1; Secure; Path=/; Domain=www.example.com",
            "__HOST-sid=1; Path=/",
        ] {
            #expect(parse(field, from: "https://www.example.com/") == nil, "\(field)")
        }
    }

    // MARK: Environments

    @Test("a test server's cookie is not sent to production, and is there again back in the test environment")
    func environmentsPartitionTheJar() async throws {
        let transport = MockTransport { request, _ in
            var fields: HTTPFields = [.contentType: "application/json"]
            if request.path == "/login" { fields.append(HTTPField(name: .setCookie, value: "sid=from-test; Domain=example.com; Path=/")) }
            return Response(status: .ok, headerFields: fields, body: Data("{}".utf8))
        }
        let registry = makeRegistry(environment: .test)
        try registry.register(
            Service(
                .users,
                baseURLs: [.test: "https://test.example.com", .release: "https://api.example.com"],
                stages: [CookieStage()],
                transport: transport
            )
        )
        let client = APIClient(registry: registry)
        _ = try await client.send(.users, .get, "/login")
        try registry.switchEnvironment(to: .release)
        _ = try await client.send(.users, .get, "/me")
        #expect(transport.requests.last?.url?.host == "api.example.com")
        #expect(transport.requests.last?.headerFields[.cookie] == nil)
        try registry.switchEnvironment(to: .test)
        _ = try await client.send(.users, .get, "/me")
        #expect(transport.requests.last?.headerFields[.cookie] == "sid=from-test")
    }
}
