import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// A clock the test moves by hand: no sleeps.
private final class TestClock: Sendable {
    private let instant = Locked(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { instant.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { instant.withLock { $0 += seconds } }
}

/// A server whose answers carry the header fields a case gives, a `Date` from the test clock, and
/// the count of requests it has answered; it answers `304` to a matching `If-None-Match` when asked to.
private struct Server: Sendable {
    let transport: MockTransport
    let count = Locked(0)

    init(clock: TestClock, fields: HTTPFields, notModified: Bool = false, failing: Locked<Bool> = Locked(false)) {
        let count = self.count
        transport = MockTransport { request, _ in
            let n = count.withLock {
                $0 += 1
                return $0
            }
            if failing.withLock({ $0 }) { return Response(status: .serviceUnavailable) }
            var headers = fields
            headers[.date] = Server.httpDate(clock.now)
            if notModified, let tag = request.headerFields[.ifNoneMatch], tag == fields[.eTag] {
                return Response(status: .notModified, headerFields: headers)
            }
            return Response(status: .ok, headerFields: headers, body: Data("answer \(n)".utf8))
        }
    }

    var requests: Int { count.withLock { $0 } }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

@Suite("RFC 9111 directives in the cache stage, judged by an injected clock")
struct CacheDirectiveTests {
    private let clock = TestClock()

    private func client(_ server: Server, heuristic: Bool = false) throws -> APIClient {
        let clock = self.clock
        let stage = CacheStage(cache: try ResponseCache(), heuristicFreshness: heuristic, now: { clock.now })
        return try makeClient(stages: [stage], transport: server.transport)
    }

    private func get(
        _ client: APIClient,
        _ policy: CachePolicy = .standard,
        fields: HTTPFields = [:],
        path: String = "/items"
    ) async throws -> CallResult<Response> {
        var options = CallOptions()
        options.cache(policy)
        return try await client.send(.users, .get, path, headerFields: fields, options: options)
    }

    /// Calls once, moves the clock by `seconds`, calls again; returns how many reached the server.
    private func requests(after seconds: TimeInterval, fields: HTTPFields, policy: CachePolicy = .standard) async throws -> Int {
        let server = Server(clock: clock, fields: fields)
        let client = try client(server)
        _ = try await get(client, policy)
        clock.advance(seconds)
        _ = try await get(client, policy)
        return server.requests
    }

    @Test(
        "freshness: max-age, Expires and Age decide whether the second call needs the network",
        arguments: [
            ("max-age=60, 30 s later", [HTTPField.Name.cacheControl: "max-age=60"], 30.0, 1),
            ("max-age=60, 61 s later", [.cacheControl: "max-age=60"], 61, 2),
            ("Age 50 of max-age=60, 11 s later", [.cacheControl: "max-age=60", .age: "50"], 11, 2),
            ("Age 50 of max-age=60, 5 s later", [.cacheControl: "max-age=60", .age: "50"], 5, 1),
            ("Expires Date+60, 30 s later", [.expires: Server.httpDate(Date(timeIntervalSince1970: 1_800_000_060))], 30, 1),
            ("Expires Date+60, 61 s later", [.expires: Server.httpDate(Date(timeIntervalSince1970: 1_800_000_060))], 61, 2),
            ("an invalid Expires is already expired", [.expires: "0"], 1, 2),
            ("max-age wins over Expires", [.cacheControl: "max-age=10", .expires: "Thu, 01 Jan 2099 00:00:00 GMT"], 11, 2),
            ("no freshness at all: the network each time", [:], 1, 2),
            ("no-store is never stored", [.cacheControl: "no-store, max-age=60"], 1, 2),
            ("no-cache is stored but never served unrevalidated", [.cacheControl: "no-cache, max-age=60"], 1, 2),
            ("s-maxage is for shared caches only", [.cacheControl: "s-maxage=60"], 1, 2),
        ] as [(String, HTTPFields, TimeInterval, Int)]
    )
    func freshness(_ name: String, fields: HTTPFields, after seconds: TimeInterval, expected: Int) async throws {
        #expect(try await requests(after: seconds, fields: fields) == expected, "\(name)")
    }

    @Test(
        "cacheElseNetwork: maxAge stands in only when the server gives no freshness",
        arguments: [
            ([:], 30.0, 1), ([:], 61, 2), ([HTTPField.Name.cacheControl: "max-age=10"], 11, 2), ([.cacheControl: "max-age=600"], 120, 1),
            ([.cacheControl: "no-cache"], 1, 2),
        ] as [(HTTPFields, TimeInterval, Int)]
    )
    func appLifetime(fields: HTTPFields, after seconds: TimeInterval, expected: Int) async throws {
        #expect(try await requests(after: seconds, fields: fields, policy: .cacheElseNetwork(maxAge: .seconds(60))) == expected)
    }

    @Test("heuristic freshness only when the stage turns it on: 10% of the time since Last-Modified")
    func heuristic() async throws {
        let modified = Server.httpDate(clock.now.addingTimeInterval(-10 * 3600))  // one hour of heuristic lifetime
        for (allowed, expected) in [(false, 2), (true, 1)] {
            let server = Server(clock: clock, fields: [.lastModified: modified])
            let client = try client(server, heuristic: allowed)
            _ = try await get(client)
            clock.advance(1800)
            _ = try await get(client)
            #expect(server.requests == expected, "heuristic allowed: \(allowed)")
        }
    }

    @Test("a stale entry with an ETag is revalidated; the 304 answers with the stored body and refreshes it")
    func revalidation() async throws {
        let server = Server(clock: clock, fields: [.cacheControl: "max-age=60", .eTag: #""v1""#], notModified: true)
        let client = try client(server)
        let first = try await get(client)
        clock.advance(61)
        let second = try await get(client)
        #expect(second.source == .revalidated)
        #expect(second.value.bytes == first.value.bytes)
        #expect(server.transport.requests.last?.headerFields[.ifNoneMatch] == #""v1""#)
        clock.advance(30)  // fresh again for 60 s from the 304
        let third = try await get(client)
        #expect(third.source == .memoryCache)
        #expect(server.requests == 2)
    }

    @Test("a 304 replaces the stored header fields it carries (a new max-age), not those of the body")
    func notModifiedUpdatesFields() async throws {
        let count = Locked(0)
        let clock = self.clock
        let transport = MockTransport { request, _ in
            let n = count.withLock {
                $0 += 1
                return $0
            }
            let date = Server.httpDate(clock.now)
            if n == 1 {
                return Response(
                    status: .ok,
                    headerFields: [.cacheControl: "max-age=10", .eTag: "\"a\"", .contentType: "text/plain", .date: date],
                    body: Data("body".utf8)
                )
            }
            return Response(
                status: .notModified,
                headerFields: [.cacheControl: "max-age=3600", .contentType: "application/x-other", .date: date]
            )
        }
        let client = try makeClient(stages: [CacheStage(cache: try ResponseCache(), now: { clock.now })], transport: transport)
        _ = try await get(client)
        clock.advance(11)
        let revalidated = try await get(client)
        #expect(revalidated.headerFields[.cacheControl] == "max-age=3600")
        #expect(revalidated.headerFields[.contentType] == "text/plain")
        clock.advance(600)
        _ = try await get(client)
        #expect(count.withLock { $0 } == 2)
    }

    @Test("Vary: a request that differs in a varying field goes to the network; the same values are served")
    func vary() async throws {
        let server = Server(clock: clock, fields: [.cacheControl: "max-age=60", .vary: "Accept-Language"])
        let client = try client(server)
        _ = try await get(client, fields: [.acceptLanguage: "en"])
        #expect(try await get(client, fields: [.acceptLanguage: "en"]).source == .memoryCache)
        #expect(try await get(client, fields: [.acceptLanguage: "de"]).source == .network)
        #expect(try await get(client).source == .network)
        #expect(server.requests == 3)
    }

    @Test("Vary: * is never served from the cache")
    func varyStar() async throws {
        #expect(try await requests(after: 1, fields: [.cacheControl: "max-age=60", .vary: "*"]) == 2)
    }

    @Test("a request's no-cache revalidates; its no-store keeps the answer out of the cache")
    func requestDirectives() async throws {
        let server = Server(clock: clock, fields: [.cacheControl: "max-age=60"])
        let client = try client(server)
        _ = try await get(client, fields: [.cacheControl: "no-store"])
        _ = try await get(client)
        _ = try await get(client, fields: [.cacheControl: "no-cache"])
        #expect(server.requests == 3)
        #expect(try await get(client).source == .memoryCache)
    }

    @Test(
        "networkElseCache serves a stale entry when the server fails, unless it says must-revalidate",
        arguments: [
            ("max-age=10", true), ("max-age=10, must-revalidate", false), ("no-cache", false),
        ]
    )
    func offlineFallback(control: String, served: Bool) async throws {
        let failing = Locked(false)
        let server = Server(clock: clock, fields: [.cacheControl: control], failing: failing)
        let client = try client(server)
        _ = try await get(client, .networkElseCache)
        clock.advance(60)
        failing.withLock { $0 = true }
        if served {
            #expect(try await get(client, .networkElseCache).value.bytes == Data("answer 1".utf8))
        } else {
            let error = await #expect(throws: SwitchyardError.self) { _ = try await get(client, .networkElseCache) }
            #expect(error?.status == .serviceUnavailable)
        }
    }

    @Test("cacheOnly serves a stale entry: an explicit offline read")
    func cacheOnlyServesStale() async throws {
        let server = Server(clock: clock, fields: [.cacheControl: "max-age=1"])
        let client = try client(server)
        _ = try await get(client)
        clock.advance(3600)
        #expect(try await get(client, .cacheOnly).source == .memoryCache)
    }

    @Test("POST is cached only when the call opts in, keyed by its body")
    func postReads() async throws {
        let server = Server(clock: clock, fields: [.cacheControl: "max-age=60"])
        let client = try client(server)
        func post(_ query: String, optIn: Bool) async throws -> CallResult<Response> {
            var options = CallOptions()
            options.cache(.standard)
            if optIn { options.cacheReadsWithPOST() }
            return try await client.send(.users, .post, "/search", body: .text(query), options: options)
        }
        _ = try await post("a", optIn: false)
        _ = try await post("a", optIn: false)
        #expect(server.requests == 2)
        _ = try await post("a", optIn: true)
        #expect(try await post("a", optIn: true).source == .memoryCache)
        #expect(try await post("b", optIn: true).source == .network)
        #expect(server.requests == 4)
    }
}

@Suite("HTTP dates and Cache-Control parsing")
struct CacheControlParsingTests {
    @Test("the three HTTP date forms name the same instant; anything else is not a date")
    func dates() {
        let instant = Date(timeIntervalSince1970: 784_111_777)
        let fields: [HTTPFields] = [
            [.expires: "Sun, 06 Nov 1994 08:49:37 GMT"], [.expires: "Sunday, 06-Nov-94 08:49:37 GMT"],
            [.expires: "Sun Nov  6 08:49:37 1994"],
        ]
        for field in fields {
            let entry = CachedResponse(
                key: key,
                status: 200,
                headerFields: field.merging([.date: "Sun, 06 Nov 1994 08:49:37 GMT"]),
                body: Data(),
                storedAt: instant
            )
            #expect(entry.freshness(at: instant).lifetime == 0, "\(field)")
        }
        let later = CachedResponse(
            key: key,
            status: 200,
            headerFields: [.date: "Sun, 06 Nov 1994 08:49:37 GMT", .expires: "Sun, 06 Nov 1994 08:50:37 GMT"],
            body: Data(),
            storedAt: instant
        )
        #expect(later.freshness(at: instant).lifetime == 60)
    }

    @Test("directives are read in any case, with arguments, across fields; bad numbers are ignored")
    func directives() {
        let control = CacheControl([.cacheControl: "Max-Age=120, NO-CACHE", .cacheControl: "private, max-stale, min-fresh=x"])
        #expect(control.maxAge == 120)
        #expect(control.noCache && control.isPrivate)
        #expect(control.maxStale == Int.max)
        #expect(control.minFresh == nil)
        #expect(CacheControl([.cacheControl: #"max-age="30""#]).maxAge == 30)
    }

    private var key: CacheKey { CacheKey(serviceID: "s", endpoint: "e", identity: "i", partition: .public) }
}

extension HTTPFields {
    fileprivate func merging(_ other: HTTPFields) -> HTTPFields {
        var fields = self
        for field in other { fields.append(field) }
        return fields
    }
}
