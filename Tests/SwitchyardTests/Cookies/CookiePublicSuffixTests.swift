import Foundation
import HTTPTypes
import SwitchyardTesting
import Testing

@testable import Switchyard

/// RFC 6265 §5.3 step 5: a `Domain` on a public suffix is refused, unless it is the host itself.
@Suite("Cookies: Domain on a public suffix")
struct CookiePublicSuffixTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    private func parse(_ field: String, from url: String = "https://www.example.com/app/login") -> Cookie? {
        Cookie.parse(field, from: URL(string: url)!, now: now, maximumSize: 4096)
    }

    @Test(
        "a Domain that is a public suffix, of either section of the list, rejects the cookie",
        arguments: [
            ("https://shop.example.co.uk/", "co.uk"), ("https://app.herokuapp.com/", "herokuapp.com"),
            ("https://a.b.test.ck/", "test.ck"), ("https://me.github.io/", "github.io"), ("https://x.example.com/", "com"),
        ]
    )
    func publicSuffixDomainRejected(url: String, domain: String) {
        #expect(parse("track=1; Domain=\(domain)", from: url) == nil)
        #expect(parse("track=1; Domain=.\(domain.uppercased())", from: url) == nil)
    }

    @Test("a Domain one label under a public suffix is kept as a domain cookie")
    func registrableDomainKept() throws {
        let cookie = try #require(parse("sid=1; Domain=example.co.uk", from: "https://shop.example.co.uk/"))
        #expect(!cookie.hostOnly && cookie.domain == "example.co.uk")
        let heroku = try #require(parse("sid=1; Domain=app.herokuapp.com", from: "https://api.app.herokuapp.com/"))
        #expect(!heroku.hostOnly && heroku.domain == "app.herokuapp.com")
    }

    @Test("a host that is itself a public suffix naming itself as Domain gets a host-only cookie")
    func publicSuffixHostIsHostOnly() throws {
        let cookie = try #require(parse("sid=1; Domain=herokuapp.com", from: "https://herokuapp.com/"))
        #expect(cookie.hostOnly && cookie.domain == "herokuapp.com")
        #expect(!cookie.matches(URL(string: "https://app.herokuapp.com/")!, host: "app.herokuapp.com", now: now))
    }

    @Test("a call redirected to another host that sets a cookie for a public suffix: later calls of the service do not carry it")
    func redirectedHostCannotSetPublicSuffixCookie() async throws {
        let transport = MockTransport { request, _ in
            switch (request.url?.host ?? "", request.path) {
            case ("shop.example.co.uk", "/login"):
                return Response(status: .found, headerFields: [.location: "https://tracker.elsewhere.co.uk/land"])
            case ("tracker.elsewhere.co.uk", _):
                var fields: HTTPFields = [.contentType: "application/json"]
                fields.append(HTTPField(name: .setCookie, value: "track=evil; Domain=co.uk; Path=/"))
                fields.append(HTTPField(name: .setCookie, value: "site=evil; Domain=elsewhere.co.uk; Path=/"))
                return Response(status: .ok, headerFields: fields, body: Data("{}".utf8))
            default:
                return Response(status: .ok, headerFields: [.contentType: "application/json"], body: Data("{}".utf8))
            }
        }
        let client = try makeClient(
            baseURL: "https://shop.example.co.uk",
            stages: [CookieStage()],
            defaults: ServiceDefaults(redirects: RedirectPolicy(crossOrigin: .followWithoutCredentials)),
            transport: transport
        )
        let redirected = try await client.send(.users, .get, "/login")
        #expect(redirected.redirectCount == 1)
        _ = try await client.send(.users, .get, "/me")
        _ = try await client.send(.users, .get, "/cart")
        #expect(
            transport.requests.map { $0.url?.host ?? "" } == [
                "shop.example.co.uk", "tracker.elsewhere.co.uk", "shop.example.co.uk", "shop.example.co.uk",
            ]
        )
        for request in transport.requests.suffix(2) { #expect(request.headerFields[.cookie] == nil) }
    }
}
