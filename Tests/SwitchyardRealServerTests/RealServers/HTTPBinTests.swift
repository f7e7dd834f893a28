import Foundation
import HTTPTypes
import Switchyard
import SwitchyardMultipart
import SwitchyardTestSupport
import Testing

/// What httpbin's `/anything`, `/get`, `/gzip`, `/brotli` and `/headers` report.
private struct HTTPBinEcho: Decodable, Sendable {
    let headers: [String: String]
    let form: [String: String]?
    let files: [String: String]?
    let gzipped: Bool?
    let deflated: Bool?
    let brotli: Bool?
    let args: [String: String]?
}

@Suite(
    "httpbin (PyPI, under gunicorn): redirects, statuses, delays, content coding, Basic auth, multipart, headers",
    .enabled(if: RealServers.enabled, "nginx, gunicorn and httpbin are needed: apt-get install nginx; pip install httpbin gunicorn"),
    .timeLimit(.minutes(2))
)
struct HTTPBinTests {
    @Test("relative redirects are followed to the end, same origin, and the result counts them", arguments: RealServers.transports)
    func redirects(transport: String) async throws {
        let servers = try await RealServers.require()
        let result = try await RealServers.client(servers.httpbin, transport: transport).send(
            .utility,
            .get,
            "/redirect/3",
            as: HTTPBinEcho.self
        )
        #expect(result.redirectCount == 3)
        #expect(result.finalURL?.path == "/get")
    }

    @Test("an absolute redirect to httpbin's own origin is followed; one to another origin is refused", arguments: RealServers.transports)
    func absoluteRedirects(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.httpbin, transport: transport)
        let own = (servers.httpbin + "/get").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(try await client.send(.utility, .get, "/redirect-to?url=\(own)").redirectCount == 1)
        let away = (servers.nginx + "/page.json").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.utility, .get, "/redirect-to?url=\(away)") }
        #expect(error?.code == .redirect)
    }

    @Test("a 503 is retried by the retry stage and ends as httpStatus 503 after every attempt", arguments: RealServers.transports)
    func retries503(transport: String) async throws {
        let servers = try await RealServers.require()
        let retry = RetryStage(RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10), jitter: 0), sleep: { _ in })
        let client = try RealServers.client(servers.httpbin, transport: transport, stages: [retry])
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.send(.utility, .get, "/status/503") }
        #expect(error?.code == .httpStatus)
        #expect(error?.status?.code == 503)
    }

    @Test("a sub-second timeout on /delay ends as .timeout, not at once and long before the answer", arguments: RealServers.transports)
    func subSecondTimeout(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.httpbin, transport: transport)
        let start = ContinuousClock.now
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(.utility, .get, "/delay/10", options: CallOptions(timeout: .milliseconds(400)))
        }
        let elapsed = ContinuousClock.now - start
        #expect(error?.code == .timeout)
        // Bounds that hold on a loaded machine: not before the timeout, and well before the 10 s answer.
        #expect(elapsed >= .milliseconds(350), "fired after \(elapsed)")
        #expect(elapsed < .seconds(8), "fired after \(elapsed)")
    }

    @Test("cancelling a call waiting on /delay ends it as .cancelled promptly", arguments: RealServers.transports)
    func cancellation(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.httpbin, transport: transport)
        let task = Task { try await client.send(.utility, .get, "/delay/10") }
        try await Task.sleep(for: .milliseconds(300))
        let start = ContinuousClock.now
        task.cancel()
        let error = await #expect(throws: SwitchyardError.self) { _ = try await task.value }
        #expect(error?.code == .cancelled)
        #expect(ContinuousClock.now - start < .seconds(8), "the call ended before the 10 s answer")
    }

    @Test("/gzip and /deflate are decoded, and the decoded response carries no Content-Encoding", arguments: RealServers.transports)
    func contentCoding(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.httpbin, transport: transport)
        let gzipped = try await client.send(.utility, .get, "/gzip", as: HTTPBinEcho.self)
        #expect(gzipped.value.gzipped == true)
        #expect(gzipped.headerFields[.contentEncoding] == nil)
        let deflated = try await client.send(.utility, .get, "/deflate", as: HTTPBinEcho.self)
        #expect(deflated.value.deflated == true)
        #expect(deflated.headerFields[.contentEncoding] == nil)
    }

    @Test(
        "/brotli: URLSession decodes it; AsyncHTTPClient, which cannot, refuses it as .invalidResponse",
        arguments: RealServers.transports
    )
    func brotli(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.httpbin, transport: transport)
        guard transport == "AsyncHTTPClient" else {
            let decoded = try await client.send(.utility, .get, "/brotli", as: HTTPBinEcho.self)
            #expect(decoded.value.brotli == true)
            #expect(decoded.headerFields[.contentEncoding] == nil)
            return
        }
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await client.send(.utility, .get, "/brotli", as: HTTPBinEcho.self)
        }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("br content coding") == true, "\(String(describing: error))")
        #expect(error?.status?.code == 200 && error?.response?.headerFields[.contentEncoding] == "br")
    }

    @Test("Basic authentication: the right pair is accepted, a wrong one returns its 401 promptly", arguments: RealServers.transports)
    func basicAuthentication(transport: String) async throws {
        let servers = try await RealServers.require()
        let right = try RealServers.client(
            servers.httpbin,
            transport: transport,
            stages: [AuthorizationStage.basic(BasicCredentials(user: "ada", password: "s3cret"))]
        )
        _ = try await right.send(.utility, .get, "/basic-auth/ada/s3cret")
        let wrong = try RealServers.client(
            servers.httpbin,
            transport: transport,
            stages: [AuthorizationStage.basic(BasicCredentials(user: "ada", password: "wrong"))]
        )
        let start = ContinuousClock.now
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await wrong.send(.utility, .get, "/basic-auth/ada/s3cret", options: CallOptions(timeout: .seconds(20)))
        }
        #expect(error?.code == .httpStatus)
        #expect(error?.status?.code == 401)
        #expect(ContinuousClock.now - start < .seconds(15), "the 401 came back, not the 20 s timeout")
    }

    @Test("a multipart form sent to /anything is parsed by httpbin exactly: fields and file contents", arguments: RealServers.transports)
    func multipart(transport: String) async throws {
        let servers = try await RealServers.require()
        var form = MultipartBody()
        form.append(field: "title", "Grüße & \"quotes\"")
        form.append(field: "empty", "")
        let file = String(repeating: "line of text\r\n", count: 2000)
        form.append(file: Data(file.utf8), field: "upload", fileName: "notes.txt", contentType: "text/plain")
        let client = try RealServers.client(servers.httpbin, transport: transport)
        let echo = try await client.send(.utility, .post, "/anything", body: try form.streamedRequestBody(), as: HTTPBinEcho.self).value
        #expect(echo.form == ["title": "Grüße & \"quotes\"", "empty": ""])
        #expect(echo.files == ["upload": file])
    }

    @Test("/headers shows the client's User-Agent and the Accept a JSON output asks for", arguments: RealServers.transports)
    func headers(transport: String) async throws {
        let servers = try await RealServers.require()
        let echo = try await RealServers.client(servers.httpbin, transport: transport).send(
            .utility,
            .get,
            "/headers",
            as: HTTPBinEcho.self
        )
        #expect(echo.value.headers["User-Agent"] == UserAgent.default.value)
        #expect(echo.value.headers["Accept"] == "application/json")
    }

    @Test(
        "/headers: a client made with userAgent nil sends no User-Agent; Accept-Encoding names only what the transport decodes",
        arguments: RealServers.transports
    )
    func noUserAgent(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.httpbin, transport: transport, userAgent: nil)
        let echo = try await client.send(.utility, .get, "/headers", as: HTTPBinEcho.self).value
        #expect(echo.headers["User-Agent"] == nil, "sent User-Agent: \(echo.headers["User-Agent"] ?? "")")
        #expect(echo.headers["Accept-Encoding"] == ContentCoding.defaultAcceptEncoding)
    }

    @Test("GET parameters go in the query even when the service's default is a form body", arguments: RealServers.transports)
    func getParameters(transport: String) async throws {
        let servers = try await RealServers.require()
        let client = try RealServers.client(servers.httpbin, transport: transport, defaults: ServiceDefaults(parameterEncoding: .form))
        let echo = try await client.send(.utility, .get, "/get", parameters: ["page": 2], as: HTTPBinEcho.self)
        #expect(echo.value.args == ["page": "2"])
    }
}
