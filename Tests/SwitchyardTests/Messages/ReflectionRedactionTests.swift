import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

private let authToken = HTTPField.Name("X-Auth-Token")!

/// Answers with a cookie, a token header and a token in the body.
private let answering = MockTransport { _, _ in
    Response(
        status: .ok,
        headerFields: [.contentType: "application/json", .setCookie: "sid=cookie-SECRET-1; HttpOnly", authToken: "header-SECRET-2"],
        body: Data(#"{"access_token":"body-SECRET-3","name":"ada"}"#.utf8)
    )
}

private let secrets = ["cookie-SECRET-1", "header-SECRET-2", "body-SECRET-3", "bearer-SECRET-4", "query-SECRET-5", "param-SECRET"]

/// Every way a value is shown without being asked for a field: `print`, `debugPrint`, `dump` and a
/// walk over its `Mirror` (with each child's own description).
private func shown(_ value: Any) -> [String] {
    var dumped = ""
    dump(value, to: &dumped, maxDepth: 12)
    var mirrored: [String] = []
    func walk(_ subject: Any, depth: Int) {
        guard depth < 8 else { return }
        for child in Mirror(reflecting: subject).children {
            mirrored.append("\(child.label ?? "-")=\(child.value)")
            walk(child.value, depth: depth + 1)
        }
    }
    walk(value, depth: 0)
    return [String(describing: value), String(reflecting: value), dumped] + mirrored
}

private func expectNoSecret(in texts: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    for secret in secrets {
        let leaks = texts.filter { $0.contains(secret) }
        #expect(leaks.isEmpty, "\(secret) shown in \(leaks)", sourceLocation: sourceLocation)
    }
}

@Suite("Descriptions and reflection hide credentials and bodies")
struct ReflectionRedactionTests {
    @Test("print, debugPrint, dump and Mirror of a call's result show no cookie, token or body secret")
    func callResult() async throws {
        let client = try makeClient(transport: answering)
        let result = try await client.send(
            .users,
            .get,
            "/me?access_token=query-SECRET-5",
            headerFields: [.authorization: "Bearer bearer-SECRET-4"]
        )
        let texts = shown(result)
        expectNoSecret(in: texts)
        #expect(texts[0].contains("Set-Cookie: <redacted>"))
        #expect(texts[0].contains("Content-Type: application/json"))
        expectNoSecret(in: shown(try #require(result.sentRequest)))
        #expect(shown(try #require(result.sentRequest))[2].contains("Authorization: <redacted>"))
    }

    @Test("a response, and an error carrying one, show their fields redacted and their body's size only")
    func responseAndError() async throws {
        let response = try await answering.send(
            Request(head: HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/me")),
            context: CallContext(serviceID: .users)
        )
        let texts = shown(response)
        expectNoSecret(in: texts)
        #expect(
            texts[0] == "200 OK [Content-Type: application/json; Set-Cookie: <redacted>; X-Auth-Token: <redacted>] (45-byte body, network)"
        )
        let error = SwitchyardError(code: .httpStatus, message: "refused", response: response)
        expectNoSecret(in: shown(error))
    }

    @Test("stored entries, call options, service defaults and endpoints show no credential either")
    func storedOptionsAndEndpoints() {
        let entry = CachedResponse(
            key: CacheKey(serviceID: "users", endpoint: "GET /me", identity: "GET /me", partition: .public),
            status: 200,
            headerFields: [authToken: "header-SECRET-2"],
            body: Data("body-SECRET-3".utf8),
            varyingFields: ["authorization": "Bearer bearer-SECRET-4", "accept-language": "fr"]
        )
        expectNoSecret(in: shown(entry))
        #expect(shown(entry)[0].contains("fr"))
        let options = CallOptions(headerFields: [.authorization: "Bearer bearer-SECRET-4"])
        expectNoSecret(in: shown(options))
        var defaults = ServiceDefaults()
        defaults.headerFields[.authorization] = "Bearer bearer-SECRET-4"
        expectNoSecret(in: shown(defaults))
        #expect(shown(defaults)[0].contains("Authorization: <redacted>"))
        let endpoint = DynamicEndpoint<Response>(
            service: .users,
            method: .post,
            path: "/login",
            parameters: ["user": "ada", "password": "param-SECRET-6", "profile": ["client_secret": "param-SECRET-7"]],
            headerFields: [.authorization: "Bearer bearer-SECRET-4"],
            options: options
        )
        let texts = shown(endpoint)
        expectNoSecret(in: texts)
        #expect(texts[2].contains("ada"))
    }
}
