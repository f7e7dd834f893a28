import Foundation
import HTTPTypes
import InMemoryLogging
import Logging
import Switchyard
import SwitchyardTesting
import Synchronization
import Testing

/// A clock tests move by hand.
private final class ManualClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_700_000_000))
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0.addTimeInterval(seconds) } }
}

/// A transport that answers `/set?<Set-Cookie value>` with that `Set-Cookie` field and every other
/// path with `{}`, and records the `Cookie` field of each request.
private func cookieTransport() -> MockTransport {
    MockTransport { request, _ in
        var fields: HTTPFields = [.contentType: "application/json"]
        if request.path.hasPrefix("/set"), let query = request.url?.query?.removingPercentEncoding {
            for value in query.components(separatedBy: "&&") { fields.append(HTTPField(name: .setCookie, value: value)) }
        }
        return Response(status: .ok, headerFields: fields, body: Data("{}".utf8))
    }
}

/// The `Cookie` field of the transport's last request.
private func sentCookie(_ transport: MockTransport) -> String? {
    transport.requests.last?.headerFields[.cookie]
}

private func set(_ value: String) -> String {
    "/set?" + value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
}

private func account(_ name: String?) -> CallOptions {
    var options = CallOptions()
    options.account = name
    return options
}

@Suite("Cookies: the cookie stage stores, sends, expires, partitions and drops cookies")
struct CookieStageTests {
    @Test("a cookie the server sets is sent on the next call, after the request's own cookies")
    func roundTrip() async throws {
        let transport = cookieTransport()
        let client = try makeClient(stages: [CookieStage()], transport: transport)
        _ = try await client.send(.users, .get, set("sid=s-1; Path=/"))
        #expect(sentCookie(transport) == nil)
        _ = try await client.send(.users, .get, "/me")
        #expect(sentCookie(transport) == "sid=s-1")
        _ = try await client.send(.users, .get, "/me", headerFields: [.cookie: "own=1"])
        #expect(sentCookie(transport) == "own=1; sid=s-1")
    }

    @Test("without the stage no cookie is kept: cookies are opt-in")
    func optIn() async throws {
        let transport = cookieTransport()
        let client = try makeClient(transport: transport)
        _ = try await client.send(.users, .get, set("sid=s-1; Path=/"))
        _ = try await client.send(.users, .get, "/me")
        #expect(sentCookie(transport) == nil)
    }

    @Test("a cookie goes only to the paths its Path covers, longer paths first")
    func paths() async throws {
        let transport = cookieTransport()
        let client = try makeClient(stages: [CookieStage()], transport: transport)
        _ = try await client.send(.users, .get, set("a=1; Path=/users&&b=2; Path=/users/42&&c=3; Path=/"))
        _ = try await client.send(.users, .get, "/users/42/orders")
        #expect(sentCookie(transport) == "b=2; a=1; c=3")
        _ = try await client.send(.users, .get, "/usersx")
        #expect(sentCookie(transport) == "c=3")
    }

    @Test("a Secure cookie from an http service is not stored")
    func secureOverHTTP() async throws {
        let transport = cookieTransport()
        let client = try makeClient(baseURL: "http://api.example.com", stages: [CookieStage()], transport: transport)
        _ = try await client.send(.users, .get, set("s=1; Secure; Path=/&&p=2; Path=/"))
        _ = try await client.send(.users, .get, "/me")
        #expect(sentCookie(transport) == "p=2")
    }

    @Test("a cookie expires by Max-Age on the injected clock; Max-Age=0 deletes a stored one")
    func expiry() async throws {
        let clock = ManualClock()
        let transport = cookieTransport()
        let client = try makeClient(stages: [CookieStage(now: { clock.now })], transport: transport)
        _ = try await client.send(.users, .get, set("short=1; Max-Age=60; Path=/&&long=2; Path=/; Expires=Wed, 09 Jun 2100 10:18:14 GMT"))
        clock.advance(by: 59)
        _ = try await client.send(.users, .get, "/me")
        #expect(sentCookie(transport) == "short=1; long=2")
        clock.advance(by: 2)
        _ = try await client.send(.users, .get, "/me")
        #expect(sentCookie(transport) == "long=2")
        _ = try await client.send(.users, .get, set("long=gone; Max-Age=0; Path=/"))
        _ = try await client.send(.users, .get, "/me")
        #expect(sentCookie(transport) == nil)
    }

    @Test("one account's cookies are never sent for another, nor for calls that name none")
    func accounts() async throws {
        let transport = cookieTransport()
        let client = try makeClient(stages: [CookieStage()], transport: transport)
        _ = try await client.send(.users, .get, set("sid=ada-1; Path=/"), options: account("ada"))
        _ = try await client.send(.users, .get, set("sid=bob-1; Path=/"), options: account("bob"))
        _ = try await client.send(.users, .get, "/me", options: account("ada"))
        #expect(sentCookie(transport) == "sid=ada-1")
        _ = try await client.send(.users, .get, "/me", options: account("bob"))
        #expect(sentCookie(transport) == "sid=bob-1")
        _ = try await client.send(.users, .get, "/me", options: account("eve"))
        #expect(sentCookie(transport) == nil)
        _ = try await client.send(.users, .get, "/me")
        #expect(sentCookie(transport) == nil)
    }

    @Test("ending one account's session drops its cookies alone; signing out drops every cookie")
    func endSession() async throws {
        let transport = cookieTransport()
        let client = try makeClient(stages: [CookieStage()], transport: transport)
        for name in ["ada", "bob"] { _ = try await client.send(.users, .get, set("sid=\(name); Path=/"), options: account(name)) }
        _ = try await client.send(.users, .get, set("sid=device; Path=/"))
        await client.endSession(account: "ada")
        _ = try await client.send(.users, .get, "/me", options: account("ada"))
        #expect(sentCookie(transport) == nil)
        _ = try await client.send(.users, .get, "/me", options: account("bob"))
        #expect(sentCookie(transport) == "sid=bob")
        await client.endSession()
        _ = try await client.send(.users, .get, "/me", options: account("bob"))
        #expect(sentCookie(transport) == nil)
        _ = try await client.send(.users, .get, "/me")
        #expect(sentCookie(transport) == nil)
    }

    @Test("a redirect's Set-Cookie is stored and its cookie sent on the next hop")
    func redirectHops() async throws {
        let transport = MockTransport { request, _ in
            if request.path == "/login" {
                return Response(status: .found, headerFields: [.location: "/home", .setCookie: "sid=s-9; Path=/"])
            }
            return Response(status: .ok, headerFields: [.contentType: "application/json"], body: Data("{}".utf8))
        }
        let client = try makeClient(stages: [CookieStage()], transport: transport)
        let result = try await client.send(.users, .get, "/login")
        #expect(result.redirectCount == 1)
        #expect(transport.requests.map(\.path) == ["/login", "/home"])
        #expect(transport.requests.last?.headerFields[.cookie] == "sid=s-9")
    }

    @Test("an error response's cookies are stored, and the error's text names none")
    func errorResponse() async throws {
        let transport = MockTransport { request, _ in
            let status: HTTPResponse.Status = request.path == "/fail" ? .unauthorized : .ok
            return Response(status: status, headerFields: [.setCookie: "trap=SECRET-COOKIE-7; Path=/"], body: Data("{}".utf8))
        }
        let client = try makeClient(stages: [CookieStage()], transport: transport)
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.users, .get, "/fail") }
        #expect(error?.status?.code == 401)
        #expect(!"\(String(describing: error))".contains("SECRET-COOKIE-7"))
        _ = try await client.send(.users, .get, "/me")
        #expect(sentCookie(transport) == "trap=SECRET-COOKIE-7")
    }

    @Test("past the per-domain limit the least recently used cookie goes; an oversized one is ignored")
    func limits() async throws {
        let clock = ManualClock()
        let transport = cookieTransport()
        let stage = CookieStage(maximumCookieSize: 64, maximumCookiesPerDomain: 2, now: { clock.now })
        let client = try makeClient(stages: [stage], transport: transport)
        _ = try await client.send(.users, .get, set("a=1; Path=/a"))
        clock.advance(by: 1)
        _ = try await client.send(.users, .get, set("b=2; Path=/b"))
        clock.advance(by: 1)
        _ = try await client.send(.users, .get, "/a")  // a is now used more recently than b
        clock.advance(by: 1)
        _ = try await client.send(.users, .get, set("c=3; Path=/c&&big=" + String(repeating: "x", count: 80) + "; Path=/"))
        var sent: [String] = []
        for path in ["/a", "/b", "/c", "/"] {
            _ = try await client.send(.users, .get, path)
            sent.append(sentCookie(transport) ?? "-")
        }
        #expect(sent == ["a=1", "-", "c=3", "-"])
    }

    @Test("the logging stage inside the cookie stage shows neither Cookie nor Set-Cookie values")
    func logsHideCookies() async throws {
        var handler = InMemoryLogHandler()
        handler.logLevel = .trace
        let logger = Logger(label: "test", factory: { _ in handler })
        let transport = MockTransport(.json("{}", headerFields: [.setCookie: "sid=LOGGED-SECRET-1; Path=/"]))
        let client = try makeClient(stages: [CookieStage(), LoggingStage(logger: logger)], transport: transport)
        _ = try await client.send(.users, .get, "/login")
        _ = try await client.send(.users, .get, "/me")
        #expect(sentCookie(transport) == "sid=LOGGED-SECRET-1")
        let lines = handler.entries.map { "\($0.message) \($0.metadata)" }
        #expect(lines.count >= 4)
        #expect(!lines.contains { $0.contains("LOGGED-SECRET-1") }, "\(lines)")
    }

    @Test("as a credential source it names the account, or a fingerprint of the jar that holds no cookie value")
    func fingerprint() async throws {
        let stage = CookieStage()
        let client = try makeClient(stages: [stage], transport: cookieTransport())
        // The jar of the environment the client's calls go to (`makeClient`'s registry's).
        let context = CallContext(serviceID: .users, environment: .develop)
        #expect(try await stage.credentialFingerprint(for: context) == nil)
        _ = try await client.send(.users, .get, set("sid=PRINT-SECRET; Path=/"))
        let first = try #require(try await stage.credentialFingerprint(for: context))
        #expect(!first.contains("PRINT-SECRET"))
        _ = try await client.send(.users, .get, set("sid=other; Path=/"))
        #expect(try await stage.credentialFingerprint(for: context) != first)
        var named = context
        named.account = "ada"
        #expect(try await stage.credentialFingerprint(for: named) == "account:ada")
        #expect(stage.credentialNames == ["cookie"])
    }
}
