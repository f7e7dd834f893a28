import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// Answers every call with a public, cacheable profile that sets a session cookie, or `304` with
/// another cookie when the call revalidates.
private let cookieSetting = MockTransport { request, _ in
    if request.headerFields[.ifNoneMatch] != nil {
        return Response(status: .notModified, headerFields: [.setCookie: "sid=revalidated-COOKIE-2", .cacheControl: "max-age=0"])
    }
    return Response(
        status: .ok,
        headerFields: [
            .contentType: "application/json", .cacheControl: "max-age=0", .eTag: "\"v1\"", .setCookie: "sid=stored-COOKIE-1; HttpOnly",
            HTTPField.Name("Set-Cookie2")!: "legacy=stored-COOKIE-3",
        ],
        body: Data(#"{"id":1,"name":"ada"}"#.utf8)
    )
}

/// Every byte of every file under `directory`, as text.
private func contents(of directory: URL) throws -> String {
    let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
    return try files.filter { !$0.hasDirectoryPath }.map { String(decoding: try Data(contentsOf: $0), as: UTF8.self) }.joined()
}

@Suite("Response cache: a stored entry keeps no cookie an answer set")
struct StoredCookieTests {
    private func options(_ policy: CachePolicy) -> CallOptions {
        var options = CallOptions()
        options.cache(policy)
        return options
    }

    @Test("the network answer still carries Set-Cookie; the memory and disk entries do not, nor do the files")
    func setCookieNotStored() async throws {
        let directory = try TemporaryDirectory()
        let client = try makeClient(stages: [CacheStage(cache: try ResponseCache(directory: directory.url))], transport: cookieSetting)
        let fetched = try await client.send(.users, .get, "/me", options: options(.cacheElseNetwork(maxAge: .seconds(60))))
        #expect(fetched.source == .network)
        #expect(fetched.headerFields[.setCookie] == "sid=stored-COOKIE-1; HttpOnly")
        let fromMemory = try await client.send(.users, .get, "/me", options: options(.cacheOnly))
        #expect(fromMemory.source == .memoryCache)
        #expect(fromMemory.headerFields[.setCookie] == nil)
        #expect(fromMemory.headerFields[HTTPField.Name("Set-Cookie2")!] == nil)
        #expect(fromMemory.headerFields[.eTag] == "\"v1\"")
        let files = try contents(of: directory.url)
        #expect(!files.isEmpty)
        #expect(!files.contains("COOKIE"))
        let later = try makeClient(stages: [CacheStage(cache: try ResponseCache(directory: directory.url))], transport: cookieSetting)
        let fromDisk = try await later.send(.users, .get, "/me", options: options(.cacheOnly))
        #expect(fromDisk.source == .diskCache)
        #expect(fromDisk.headerFields[.setCookie] == nil)
    }

    @Test("a 304 that sets a cookie refreshes the entry without storing the cookie")
    func revalidationCookieNotStored() async throws {
        let directory = try TemporaryDirectory()
        let client = try makeClient(stages: [CacheStage(cache: try ResponseCache(directory: directory.url))], transport: cookieSetting)
        _ = try await client.send(.users, .get, "/me", options: options(.standard))
        let revalidated = try await client.send(.users, .get, "/me", options: options(.standard))
        #expect(revalidated.source == .revalidated)
        #expect(revalidated.headerFields[.setCookie] == nil)
        #expect(try await client.send(.users, .get, "/me", options: options(.cacheOnly)).headerFields[.setCookie] == nil)
        let files = try contents(of: directory.url)
        #expect(!files.contains("COOKIE"))
    }

    @Test("an entry a store is handed with Set-Cookie keeps none")
    func entryDropsSetCookie() {
        let key = CacheKey(serviceID: "users", endpoint: "GET /me", identity: "GET /me", partition: .public)
        let entry = CachedResponse(key: key, status: 200, headerFields: [.setCookie: "sid=x", .contentType: "text/plain"], body: Data())
        #expect(entry.headerFields[.setCookie] == nil)
        #expect(entry.headerFields[.contentType] == "text/plain")
        var changed = entry
        changed.headerFields[.setCookie] = "sid=y"
        #expect(changed.headerFields[.setCookie] == nil)
    }
}
