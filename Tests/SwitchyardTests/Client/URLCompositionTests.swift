import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite("URL composition")
struct URLCompositionTests {
    /// Sends `path` with `pathParameters` against `baseURL` and returns the request the transport saw.
    private func target(
        base baseURL: String,
        path: String,
        pathParameters: [String: String] = [:],
        parameters: Parameters = [:],
        options: CallOptions? = nil
    ) async throws -> Request {
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(baseURL: baseURL, transport: transport)
        _ = try await client.send(.users, .get, path, pathParameters: pathParameters, parameters: parameters, options: options)
        return try #require(transport.requests.first)
    }

    @Test(
        "base URLs with and without a trailing slash or path prefix join paths with exactly one slash",
        arguments: [
            ("https://api.example.com", "/users", "/users"),
            ("https://api.example.com/", "/users", "/users"),
            ("https://api.example.com", "users", "/users"),
            ("https://api.example.com/v1", "/users", "/v1/users"),
            ("https://api.example.com/v1/", "/users", "/v1/users"),
            ("https://api.example.com/v1//", "users/", "/v1/users/"),
            ("https://api.example.com/v1", "", "/v1"),
            ("https://api.example.com", "", "/"),
            ("https://API.Example.com:8443/a/b", "/c", "/a/b/c"),
        ]
    )
    func joining(base: String, path: String, expected: String) async throws {
        let request = try await target(base: base, path: path)
        #expect(request.path == expected)
        #expect(request.head.scheme == "https")
    }

    @Test("the authority keeps the port and lower-cases the host; IPv6 hosts stay bracketed")
    func authority() async throws {
        #expect(try await target(base: "https://API.Example.com:8443", path: "/").head.authority == "api.example.com:8443")
        #expect(try await target(base: "http://[::1]:8080/api", path: "/x").head.authority == "[::1]:8080")
    }

    @Test(
        "path parameters are percent-encoded as one segment: spaces, slashes, non-ASCII, reserved characters",
        arguments: [
            ("hello world", "/files/hello%20world"),
            ("a/b", "/files/a%2Fb"),
            ("张衡", "/files/%E5%BC%A0%E8%A1%A1"),
            ("café", "/files/caf%C3%A9"),
            ("50%", "/files/50%25"),
            ("a?b#c", "/files/a%3Fb%23c"),
            ("a+b&c=d", "/files/a%2Bb%26c%3Dd"),
            ("...", "/files/..."),
            ("~user_1-2.3", "/files/~user_1-2.3"),
        ]
    )
    func pathParameterEncoding(value: String, expected: String) async throws {
        let request = try await target(base: "https://api.example.com", path: "/files/{name}", pathParameters: ["name": value])
        #expect(request.path == expected)
    }

    @Test("several placeholders, including adjacent text, are all replaced")
    func severalPlaceholders() async throws {
        let request = try await target(
            base: "https://api.example.com/v2",
            path: "/users/{user}/posts/{post}.json",
            pathParameters: ["user": "7", "post": "x y"]
        )
        #expect(request.path == "/v2/users/7/posts/x%20y.json")
    }

    @Test("literal template text is written unencoded and encoded on the way out; valid escapes are kept")
    func literalText() async throws {
        #expect(try await target(base: "https://a.example", path: "/my files/über").path == "/my%20files/%C3%BCber")
        #expect(try await target(base: "https://a.example", path: "/a%20b").path == "/a%20b")
    }

    @Test("query items in the base URL and in the template are kept, and parameters are appended")
    func existingQueryItems() async throws {
        let request = try await target(
            base: "https://api.example.com/v1?appKey=k%201&lang=zh",
            path: "/search?type=all",
            parameters: ["q": "swift & nio", "page": 2]
        )
        #expect(request.path == "/v1/search?appKey=k%201&lang=zh&type=all&q=swift%20%26%20nio&page=2")
        #expect(request.query == "appKey=k%201&lang=zh&type=all&q=swift%20%26%20nio&page=2")
        #expect(request.pathWithoutQuery == "/v1/search")
    }

    @Test("an absolute URL in the path overrides the service's base URL (on another origin, when the call allows it)")
    func absoluteOverride() async throws {
        var foreign = CallOptions()
        foreign.allowsForeignOrigin = true
        let request = try await target(
            base: "https://api.example.com/v1",
            path: "https://cdn.example.net:444/assets/{id}?v=1",
            pathParameters: ["id": "a b"],
            options: foreign
        )
        #expect(request.head.authority == "cdn.example.net:444")
        #expect(request.path == "/assets/a%20b?v=1")
    }

    @Test(
        "template mistakes are invalidRequest errors that say what is wrong",
        arguments: [
            ("/users/{id}", [String: String](), "needs a value for {id}"),
            ("/users/{id}", ["id": ""], "is empty"),
            ("/users/{id", ["id": "1"], "without a matching '}'"),
            ("/users/id}", [String: String](), "without a matching '{'"),
            ("/users/{}", [String: String](), "empty placeholder"),
            ("/users/{id}/avatar", ["id": ".."], "dot segment"),
            ("/users/{id}", ["id": "."], "dot segment"),
            ("/a}/{id}", ["id": "1"], "without a matching '{'"),
            ("/a/{b{c}", ["b": "1"], "without a matching '}'"),
            ("/users", ["id": "1"], "no placeholder for {id}"),
        ]
    )
    func templateErrors(path: String, parameters: [String: String], fragment: String) async throws {
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(transport: transport)
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(.users, .get, path, pathParameters: parameters)
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
        #expect(error?.serviceID == .users)
        #expect(transport.requestCount == 0)
    }

    @Test("placeholders in a template's literal query are expanded and encoded as components")
    func placeholdersInQuery() async throws {
        let request = try await target(
            base: "https://a.example",
            path: "/search/{kind}?owner={id}&x=1",
            pathParameters: ["kind": "all", "id": "a&b c"]
        )
        #expect(request.path == "/search/all?owner=a%26b%20c&x=1")
    }

    @Test("Request(method:url:) keeps a trailing slash and drops a fragment")
    func requestKeepsTrailingSlash() throws {
        #expect(Request(method: .get, url: URL(string: "https://x.example/users/")!)?.path == "/users/")
        #expect(Request(method: .get, url: URL(string: "https://x.example")!)?.path == "/")
        #expect(Request(method: .get, url: URL(string: "https://x.example/a?b=1#top")!)?.path == "/a?b=1")
        #expect(Request(method: .get, url: URL(string: "https://u:p@x.example/")!) == nil)
    }

    @Test("a percent-encoded host is rejected rather than decoded into another authority")
    func encodedHost() throws {
        let registry = makeRegistry()
        let error = #expect(throws: SwitchyardError.self) {
            try registry.register(Service(.users, baseURL: "http://a%2Fb.example", transport: MockTransport(.status(.ok))))
        }
        #expect(error?.code == .invalidBaseURL)
    }

    @Test("a malformed absolute URL in the path is an invalidBaseURL error")
    func malformedAbsolute() async throws {
        let client = try makeClient(transport: MockTransport(.status(.ok)))
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.users, .get, "https://") }
        #expect(error?.code == .invalidBaseURL)
    }

    @Test("Request(method:url:) and Request.url agree")
    func requestURL() throws {
        let request = try #require(Request(method: .get, url: URL(string: "https://example.com/a%20b?x=1")!))
        #expect(request.url?.absoluteString == "https://example.com/a%20b?x=1")
        var appended = request
        appended.appendQuery("y=2")
        #expect(appended.path == "/a%20b?x=1&y=2")
    }

    /// A body that cannot be encoded.
    private struct Unencodable: Encodable, Sendable {
        struct Refusal: Error {}
        func encode(to encoder: any Encoder) throws { throw Refusal() }
    }

    @Test("a bad template is the error a call reports, even when its body cannot be encoded either")
    func templateErrorsComeFirst() async throws {
        let transport = MockTransport(.status(.ok))
        let client = try makeClient(baseURL: "https://api.example.com", transport: transport)
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(.users, .post, "/users/{id}", body: .json(Unencodable()))
        }
        #expect(error?.code == .invalidRequest)
        #expect(transport.requests.isEmpty)
    }

    @Test("a path parameter with a query and parameters: the target is written once, in order")
    func targetWithEveryPart() async throws {
        let request = try await target(
            base: "https://api.example.com/v1?k=1",
            path: "/users/{id}/files/{name}?view={name}",
            pathParameters: ["id": "7", "name": "a b/c"],
            parameters: ["page": 2]
        )
        #expect(request.path == "/v1/users/7/files/a%20b%2Fc?k=1&view=a%20b%2Fc&page=2")
    }

    @Test("a target longer than the room planning writes into is written in full, in order")
    func targetLongerThanThePlanningBuffer() async throws {
        let value = String(repeating: "a b/", count: 300)  // 1,200 bytes, 2,400 encoded
        let encoded = String(repeating: "a%20b%2F", count: 300)
        let request = try await target(
            base: "https://api.example.com/v1?k=1",
            path: "/files/{name}?view={name}",
            pathParameters: ["name": value],
            parameters: ["page": 2]
        )
        #expect(request.path == "/v1/files/\(encoded)?k=1&view=\(encoded)&page=2")
    }

    @Test("literal text that might not fit encoded, and does, is written in full")
    func longLiteralThatFits() async throws {
        let literal = String(repeating: "abcdefgh/", count: 50)  // 450 bytes: up to 1,350 encoded
        let request = try await target(base: "https://api.example.com", path: "/\(literal){id}", pathParameters: ["id": "7"])
        #expect(request.path == "/\(literal)7")
    }

    @Test(
        "targets at the planning buffer's edge, with a two-byte character straddling it, are written in full",
        arguments: 1_010...1_030
    )
    func targetAtThePlanningBufferEdge(length: Int) async throws {
        // "/x/" then `length - 3` bytes: plain letters, with "é" (encoded as 6 bytes) near the edge.
        let plain = String(repeating: "a", count: max(0, length - 3 - 6))
        let request = try await target(base: "https://api.example.com", path: "/x/{id}", pathParameters: ["id": plain + "\u{E9}"])
        #expect(request.path == "/x/\(plain)%C3%A9")
        #expect(request.path.utf8.count == 3 + plain.utf8.count + 6)
    }
}
