import Testing

@testable import Switchyard

@Suite("Logging stage: the plain paths and endpoint names it remembers")
struct RedactedNameCacheTests {
    @Test("a target canonically equal to a remembered one but of other bytes is shown as its own bytes, not the remembered text")
    func canonicalTwinNotShared() {
        let cache = RedactedNameCache()
        _ = cache.redactedCall(target: "/units/K", endpointName: "GET /units/K", by: .default)
        // U+212A KELVIN SIGN is canonically equivalent to "K": `==` says the two are equal.
        let kelvin = "/units/\u{212A}"
        let twin = cache.redactedCall(target: kelvin, endpointName: "GET /units/K", by: .default)
        #expect(twin.path.utf8.elementsEqual(kelvin.utf8))
        #expect(twin.whole.utf8.elementsEqual(kelvin.utf8))
    }

    @Test("non-ASCII paths and endpoint names are redacted on every call and never remembered")
    func nonASCIINotRemembered() {
        let cache = RedactedNameCache()
        let rendered = cache.redactedCall(target: "/caf\u{E9}/menu", endpointName: "GET /caf\u{E9}/menu", by: .default)
        #expect(rendered.path == "/caf\u{E9}/menu")
        #expect(cache.count == (0, 0))
    }

    @Test("a query that changes on every call is redacted each time and leaves one remembered path")
    func changingQueryOnePath() {
        let cache = RedactedNameCache()
        for call in 0..<600 {
            let rendered = cache.redactedCall(target: "/orders?ts=\(call)&token=t\(call)", endpointName: "ListOrders", by: .default)
            #expect(rendered.path == "/orders")
            #expect(rendered.whole == "/orders?ts=\(call)&token=<redacted>")
        }
        #expect(cache.count == (1, 1))
    }

    @Test("paths that change on every call never evict the remembered endpoint names")
    func changingPathsKeepNames() {
        let cache = RedactedNameCache()
        for call in 0..<(RedactedNameCache.limit + 10) {
            let rendered = cache.redactedCall(target: "/users/\(call)", endpointName: "GET /users/{id}", by: .default)
            #expect(rendered.path == "/users/\(call)")
            #expect(rendered.endpointName == "GET /users/{id}")
        }
        #expect(cache.count.names == 1)
        #expect(cache.count.paths <= RedactedNameCache.limit)
    }

    @Test("nothing is remembered for a redaction with a matching rule")
    func matchingRuleRemembersNothing() {
        var redaction = Redaction.default
        redaction.pathRules.append(.matching { _ in false })
        let cache = RedactedNameCache()
        _ = cache.redactedCall(target: "/a/b?x=1", endpointName: "Login", by: redaction)
        #expect(cache.count == (0, 0))
    }
}
