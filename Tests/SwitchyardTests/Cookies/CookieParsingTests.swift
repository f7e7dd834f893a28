import Foundation
import Testing

@testable import Switchyard

/// RFC 6265 §5.1–5.3: the library's own `Set-Cookie` parser, dates, and domain and path matching.
@Suite("Cookies: parsing, dates, domain and path matching (RFC 6265 §5)")
struct CookieParsingTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    private func parse(_ field: String, from url: String = "https://www.example.com/app/login", size: Int = 4096) -> Cookie? {
        Cookie.parse(field, from: URL(string: url)!, now: now, maximumSize: size)
    }

    @Test("name and value are trimmed of white space; a value may hold '=' and be empty")
    func nameAndValue() throws {
        let cookie = try #require(parse(" sid = a=b==  ; Path=/"))
        #expect(cookie.name == "sid" && cookie.value == "a=b==")
        #expect(try #require(parse("empty=")).value == "")
    }

    @Test("a field without '=' in its first pair, or with an empty name, is ignored")
    func invalidPairsIgnored() {
        #expect(parse("novalue; Path=/") == nil)
        #expect(parse("=value") == nil)
        #expect(parse("") == nil)
    }

    @Test("without Domain the cookie is host-only for the request's host, lower-cased")
    func hostOnly() throws {
        let cookie = try #require(parse("a=1", from: "https://WWW.Example.com/x"))
        #expect(cookie.hostOnly && cookie.domain == "www.example.com")
        #expect(cookie.matches(URL(string: "https://www.example.com/")!, host: "www.example.com", now: now))
        #expect(!cookie.matches(URL(string: "https://sub.www.example.com/")!, host: "sub.www.example.com", now: now))
    }

    @Test("Domain (leading dot ignored) covers the domain and its subdomains, when the host is within it")
    func domainAttribute() throws {
        let cookie = try #require(parse("a=1; Domain=.Example.COM"))
        #expect(!cookie.hostOnly && cookie.domain == "example.com")
        // Its path is the default one, /app.
        for host in ["example.com", "www.example.com", "a.b.example.com"] {
            #expect(cookie.matches(URL(string: "https://\(host)/app/x")!, host: host, now: now), "\(host)")
        }
        for host in ["badexample.com", "example.com.evil.org", "other.org"] {
            #expect(!cookie.matches(URL(string: "https://\(host)/app/x")!, host: host, now: now), "\(host)")
        }
    }

    @Test("a Domain the host is not within, or a single-label one, rejects the cookie")
    func foreignDomainRejected() {
        #expect(parse("a=1; Domain=other.org") == nil)
        #expect(parse("a=1; Domain=ww.example.com") == nil)
        #expect(parse("a=1; Domain=com") == nil)
        #expect(parse("a=1; Domain=sub.www.example.com") == nil)
    }

    @Test("domain matching: identical, or a dot-separated suffix of a host name, never of an IP address")
    func domainMatching() {
        #expect(Cookie.domainMatches("example.com", "example.com"))
        #expect(Cookie.domainMatches("a.example.com", "example.com"))
        #expect(!Cookie.domainMatches("aexample.com", "example.com"))
        #expect(!Cookie.domainMatches("example.com", "a.example.com"))
        #expect(Cookie.domainMatches("10.0.0.1", "10.0.0.1"))
        #expect(!Cookie.domainMatches("10.0.0.1", "0.0.1"))
    }

    @Test("path matching goes by segments: /docs matches /docs, /docs/ and /docs/x, not /docsx")
    func pathMatching() {
        #expect(Cookie.pathMatches("/docs", "/docs"))
        #expect(Cookie.pathMatches("/docs/", "/docs"))
        #expect(Cookie.pathMatches("/docs/web", "/docs"))
        #expect(Cookie.pathMatches("/docs/web", "/docs/"))
        #expect(!Cookie.pathMatches("/docsets", "/docs"))
        #expect(!Cookie.pathMatches("/", "/docs"))
        #expect(Cookie.pathMatches("/anything", "/"))
    }

    @Test("the default path is the request's directory; a Path not starting with / falls back to it")
    func defaultPath() throws {
        #expect(try #require(parse("a=1")).path == "/app")
        #expect(try #require(parse("a=1", from: "https://www.example.com/login")).path == "/")
        #expect(try #require(parse("a=1", from: "https://www.example.com")).path == "/")
        #expect(try #require(parse("a=1; Path=relative")).path == "/app")
        #expect(try #require(parse("a=1; Path=/a/b")).path == "/a/b")
    }

    @Test("Secure is kept from https, and an http response cannot set a Secure cookie")
    func secure() throws {
        let cookie = try #require(parse("a=1; Secure"))
        #expect(cookie.secureOnly)
        #expect(!cookie.matches(URL(string: "http://www.example.com/app")!, host: "www.example.com", now: now))
        #expect(cookie.matches(URL(string: "https://www.example.com/app")!, host: "www.example.com", now: now))
        #expect(parse("a=1; Secure", from: "http://www.example.com/") == nil)
    }

    @Test("Max-Age sets the expiry from now and wins over Expires; zero or negative expires at once")
    func maxAge() throws {
        let cookie = try #require(parse("a=1; Expires=Wed, 09 Jun 2100 10:18:14 GMT; Max-Age=60"))
        #expect(cookie.expiry == now.addingTimeInterval(60))
        #expect(try #require(parse("a=1; Max-Age=0")).isExpired(at: now))
        #expect(try #require(parse("a=1; Max-Age=-5")).isExpired(at: now))
        // Not digits: ignored, so the cookie is a session cookie.
        #expect(try #require(parse("a=1; Max-Age=10s")).expiry == nil)
    }

    @Test("Expires is parsed leniently (§5.1.1) and an unparseable date is ignored")
    func expires() throws {
        let expected = Date(timeIntervalSince1970: 1_717_928_294)  // 2024-06-09 10:18:14 UTC
        for text in ["Sun, 09 Jun 2024 10:18:14 GMT", "Sunday, 09-Jun-24 10:18:14 GMT", "Sun Jun  9 10:18:14 2024", "9 june 2024 10:18:14"]
        {
            #expect(CookieDate.parse(text) == expected, "\(text)")
        }
        for text in ["tomorrow", "31 Feb 2024 10:00:00", "09 Jun 1600 10:18:14", "09 Jun 2024 24:00:00", "09 Jun 2024"] {
            #expect(CookieDate.parse(text) == nil, "\(text)")
        }
        #expect(try #require(parse("a=1; Expires=not a date")).expiry == nil)
    }

    @Test("no cookie lives longer than 400 days")
    func longestLife() throws {
        let cookie = try #require(parse("a=1; Max-Age=999999999"))
        #expect(cookie.expiry == now.addingTimeInterval(400 * 86_400))
    }

    @Test("a Set-Cookie value longer than the size limit is ignored")
    func sizeLimit() {
        let long = "a=" + String(repeating: "x", count: 100)
        #expect(parse(long, size: 102) != nil)
        #expect(parse(long, size: 101) == nil)
    }
}
