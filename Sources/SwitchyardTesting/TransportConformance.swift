import Foundation
import HTTPTypes
public import Switchyard

/// A conformance suite any ``Switchyard/Transport`` can run: the behaviours the pipeline relies on,
/// checked against a real HTTP/1.1 server on `127.0.0.1` that the suite starts for the run and stops
/// after it (SwiftNIO, on an event loop of its own), with the routes the cases need: `/echo`,
/// `/status/{code}`, `/delay/{ms}`, `/close`, `/redirect/{status}`, `/auth/{scheme}`,
/// `/precompressed`, `/gzip-bomb` and a ranged file route (`/files/blob/{bytes}` with `ETag`,
/// `Range`, `If-Range`, `X-Blob-Pace` and `watch`, read back from `/watch/{tag}`).
///
/// Besides plain calls it checks streamed uploads (``Switchyard/Request/Body/stream(_:)``) and downloads
/// to a file (``Switchyard/CallContext/downloadTarget``), including a resumed one, progress reported
/// as the bytes move (monotonic, with values strictly between nothing and the total, for uploads and
/// downloads of a few megabytes), redirects returned
/// unfollowed (and resent with their body by a client over the transport), the response-size and
/// decompressed-size limits, the content-coding rule of ``Switchyard/ContentCoding`` (a body in a coding
/// the transport cannot decode is refused), timeouts to the millisecond, a download's deadline, `401`
/// challenges returned as responses, reason phrases, and that a request without a `User-Agent` goes
/// out without one (a client made with `userAgent: nil`). Streamed answers
/// (``Switchyard/CallContext/streamBufferLimit``) are checked too: chunks arrive before the end, a
/// multi-megabyte body arrives whole, a consumer that does not read keeps the transport's intake
/// bounded, and cancelling the call or leaving the loop early ends the stream and closes the connection.
/// The timing cases take a few seconds and tolerate a loaded machine. Configure the transport under test
/// with a response limit of 4 MiB (at least 4 MiB so the large-body case fits, below 8 MiB so the
/// sample backend's 8 MiB gzip bomb exceeds it) and tell the suite the same number:
///
/// ```swift
/// let transport = MyTransport(maximumResponseBodySize: 4 << 20)
/// let outcomes = await TransportConformance().run(transport)
/// #expect(outcomes.filter { !$0.passed }.isEmpty)
/// ```
///
/// A case a transport cannot support can be skipped by name (``run(_:skipping:)``); the outcome then
/// says so, so the gap is visible rather than silent.
public struct TransportConformance: Sendable {
    /// One case's result.
    public struct Outcome: Sendable, CustomStringConvertible {
        /// The case's name.
        public let name: String
        /// Whether it passed (a skipped case did not).
        public let passed: Bool
        /// Why it failed, that it was skipped, or what a passing streaming case measured.
        public let detail: String

        /// `✔ name` (with what it measured, if anything) or `✘ name: detail`.
        public var description: String { passed ? (detail.isEmpty ? "✔ \(name)" : "✔ \(name): \(detail)") : "✘ \(name): \(detail)" }
    }

    /// The names of the cases, in the order they run.
    public static let caseNames = [
        "get-echo", "post-body-round-trip", "header-fields-both-ways", "error-status-is-a-response", "head-has-no-body",
        "large-body-round-trip", "timeout-is-typed", "cancellation-is-typed", "connection-refused-is-typed", "closed-connection-is-typed",
        "reports-start-and-download", "streamed-upload-from-file", "download-to-file", "download-resumes-from-offset",
        "download-error-status-stays-in-memory", "redirect-comes-back-unfollowed", "post-redirect-comes-back-unfollowed",
        "oversized-body-is-typed", "decompression-bomb-is-typed", "accept-encoding-default", "decoded-body-has-no-coding",
        "download-asks-for-identity", "encoded-download-is-decoded-not-resumed", "sub-second-timeout-is-accurate",
        "timeout-is-not-rounded", "download-deadline-ends-with-timeout", "unauthorized-challenge-is-a-response",
        "redirect-307-308-resend-method-and-body", "reason-phrase-is-kept", "no-user-agent-unless-given",
        "undecodable-coding-is-typed", "progress-is-intermediate", "stream-chunks-arrive-before-the-end", "stream-whole-body-matches",
        "stream-backpressure-bounds-buffered-bytes", "stream-break-delivers-what-arrived", "stream-cancel-closes-connection",
        "stream-early-exit-closes-connection",
    ]

    /// The base URL of a server that serves the suite's routes, such as `http://127.0.0.1:8080`;
    /// `nil` (the default) starts the suite's own server for each run.
    public let baseURL: String?
    /// The largest response body the transport under test keeps in memory: at least 4 MiB, so the
    /// other cases fit, and below 8 MiB, so the decompression-bomb case exceeds it; the limit cases
    /// ask for more.
    public let responseLimit: Int

    /// Creates the suite.
    ///
    /// - Parameters:
    ///   - baseURL: the base URL of a server with the suite's routes; `nil` to start the suite's own.
    ///   - responseLimit: the in-memory response limit the transport under test was configured with;
    ///     4 MiB unless you say otherwise.
    public init(baseURL: String? = nil, responseLimit: Int = 4 << 20) {
        self.baseURL = baseURL
        self.responseLimit = responseLimit
    }

    /// Runs every case not in `skipping` and returns all outcomes, in ``caseNames`` order.
    ///
    /// Without a ``baseURL`` it starts a loopback server first and stops it once the cases are done;
    /// when that server cannot start, every case fails saying why.
    public func run(_ transport: any Transport, skipping: Set<String> = []) async -> [Outcome] {
        guard self.baseURL != nil else {
            let server: LoopbackServer
            do {
                server = try await LoopbackServer.start()
            } catch {
                return Self.caseNames.map { Outcome(name: $0, passed: false, detail: "the loopback server did not start: \(error)") }
            }
            let outcomes = await TransportConformance(baseURL: server.baseURL, responseLimit: self.responseLimit).run(
                transport,
                skipping: skipping
            )
            try? await server.shutdown()
            return outcomes
        }
        var outcomes: [Outcome] = []
        for name in Self.caseNames {
            if skipping.contains(name) {
                outcomes.append(Outcome(name: name, passed: false, detail: "skipped: the transport does not support it"))
                continue
            }
            do {
                var measured = ""
                if Self.streamingCaseNames.contains(name) {
                    measured = try await checkStreaming(name, transport)
                } else {
                    try await check(name, transport)
                }
                outcomes.append(Outcome(name: name, passed: true, detail: measured))
            } catch {
                outcomes.append(Outcome(name: name, passed: false, detail: "\(error)"))
            }
        }
        return outcomes
    }

    /// The base URL the cases call.
    var root: String { self.baseURL ?? "" }

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    struct Echo: Decodable {
        let method: String
        let uri: String
        let headers: [String: String]
        let body: String?
        let bodyBase64: String?
    }

    func request(
        _ method: HTTPRequest.Method,
        _ target: String,
        fields: HTTPFields = [:],
        body: Data? = nil,
        base: String? = nil
    ) throws -> Request {
        guard let url = URL(string: (base ?? root) + target),
            let request = Request(method: method, url: url, headerFields: fields, body: body.map(Request.Body.bytes))
        else {
            throw Failed(description: "cannot make a request for \(target)")
        }
        return request
    }

    func context(timeout: Duration = .seconds(10)) -> CallContext {
        CallContext(serviceID: "conformance", endpointName: "conformance", timeout: timeout)
    }

    func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw Failed(description: message()) }
    }

    func expectError(_ code: SwitchyardError.Code, mentioning text: String? = nil, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as SwitchyardError {
            try expect(error.code == code, "expected \(code), got \(error.code): \(error.message)")
            if let text { try expect(error.message.contains(text), "expected the message to state \(text): \(error.message)") }
            return
        } catch {
            throw Failed(description: "expected a SwitchyardError \(code), got \(type(of: error)): \(error)")
        }
        throw Failed(description: "expected \(code), but the call succeeded")
    }

    func echo(_ response: Response) throws -> Echo {
        do { return try JSONDecoder().decode(Echo.self, from: response.bytes) } catch {
            throw Failed(description: "the echo is not JSON: \(String(decoding: response.bytes.prefix(200), as: UTF8.self))")
        }
    }

    private func check(_ name: String, _ transport: any Transport) async throws {
        switch name {
        case "get-echo":
            let response = try await transport.send(try request(.get, "/echo/a%20b?x=1&y=%C3%A9"), context: context())
            try expect(response.status == .ok, "status \(response.status.code)")
            let echo = try echo(response)
            try expect(echo.method == "GET" && echo.uri == "/echo/a%20b?x=1&y=%C3%A9", "the server saw \(echo.method) \(echo.uri)")
        case "post-body-round-trip":
            let body = Data("{\"name\":\"张衡\",\"n\":1}".utf8)
            let response = try await transport.send(
                try request(.post, "/echo", fields: [.contentType: "application/json"], body: body),
                context: context()
            )
            let echo = try echo(response)
            try expect(
                echo.method == "POST" && echo.body == String(decoding: body, as: UTF8.self),
                "the server saw \(echo.method) \(echo.body ?? "no body")"
            )
        case "header-fields-both-ways":
            let response = try await transport.send(
                try request(.get, "/echo", fields: [HTTPField.Name("X-Conformance")!: "yes"]),
                context: context()
            )
            try expect(try echo(response).headers["x-conformance"] == "yes", "the header did not reach the server")
            try expect(response.headerFields[.contentType]?.hasPrefix("application/json") == true, "no Content-Type in the response")
        case "redirect-comes-back-unfollowed", "post-redirect-comes-back-unfollowed":
            // The pipeline follows redirects by the service's policy; a transport that followed them
            // itself would send the request on to wherever the server pointed.
            let post = name.hasPrefix("post")
            let location = "http://localhost:1/never-follow-me"
            var outgoing = try request(post ? .post : .get, "/redirect/\(post ? 307 : 302)?to=\(location)")
            if post { outgoing.body = .bytes(Data("payload".utf8)) }
            let response = try await transport.send(outgoing, context: context())
            try expect(response.status.code == (post ? 307 : 302), "the redirect was not returned: \(response.status.code)")
            try expect(response.headerFields[.location] == location, "the Location field was not kept")
        case "oversized-body-is-typed":
            try await expectError(.limitExceeded, mentioning: "limit of \(responseLimit) bytes") {
                _ = try await transport.send(try request(.get, "/files/blob/\(responseLimit + 1)"), context: context(timeout: .seconds(60)))
            }
        case "decompression-bomb-is-typed":
            // 8 KiB on the wire that inflate to 8 MiB of zeros: refused once decompressed past the limit
            // (the suite's limit must be below 8 MiB for this case to mean anything).
            guard responseLimit < 8 << 20 else { throw Failed(description: "run the suite with a response limit below 8 MiB") }
            try await expectError(.limitExceeded, mentioning: "decompressed") {
                _ = try await transport.send(try request(.get, "/gzip-bomb", fields: [.acceptEncoding: "gzip"]), context: context())
            }
        case "error-status-is-a-response":
            let response = try await transport.send(try request(.get, "/status/503"), context: context())
            try expect(
                response.status.code == 503 && !response.bytes.isEmpty,
                "expected a 503 response with a body, got \(response.status.code)"
            )
        case "head-has-no-body":
            let response = try await transport.send(try request(.head, "/echo"), context: context())
            try expect(
                response.status == .ok && response.bytes.isEmpty,
                "HEAD answered \(response.status.code) with \(response.body.count) bytes"
            )
        case "large-body-round-trip":
            let body = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let response = try await transport.send(
                try request(.post, "/echo", fields: [.contentType: "application/octet-stream"], body: body),
                context: context()
            )
            try expect(try echo(response).bodyBase64 == body.base64EncodedString(), "the 1 MiB body did not round-trip")
        case "timeout-is-typed":
            try await expectError(.timeout) {
                _ = try await transport.send(try request(.get, "/delay/3000"), context: context(timeout: .milliseconds(200)))
            }
        case "cancellation-is-typed":
            let call = Task { try await transport.send(try request(.get, "/delay/3000"), context: context()) }
            try await Task.sleep(for: .milliseconds(100))
            call.cancel()
            try await expectError(.cancelled) { _ = try await call.value }
        case "connection-refused-is-typed":
            try await expectError(.transport) {
                _ = try await transport.send(try request(.get, "/", base: "http://127.0.0.1:1"), context: context())
            }
        case "closed-connection-is-typed":
            try await expectError(.transport) { _ = try await transport.send(try request(.get, "/close"), context: context()) }
        case "reports-start-and-download":
            let events = EventRecorder()
            var observed = context()
            observed.transferObserver = TransferObserver(
                started: { events.record("started") },
                received: { progress in events.record("received \(progress.completed)") }
            )
            let response = try await transport.send(try request(.get, "/echo"), context: observed)
            try expect(events.events.first == "started", "no start reported: \(events.events)")
            try expect(
                events.events.last == "received \(response.body.count)",
                "the last download progress is not the whole body: \(events.events)"
            )
        case "streamed-upload-from-file":
            try await streamedUpload(transport)
        case "download-to-file":
            try await downloadToFile(transport, resumeAt: nil)
        case "download-resumes-from-offset":
            try await downloadToFile(transport, resumeAt: 700_001)
        case "accept-encoding-default": try await acceptEncodingDefault(transport)
        case "decoded-body-has-no-coding": try await decodedBodyHasNoCoding(transport)
        case "download-asks-for-identity": try await downloadAsksForIdentity(transport)
        case "encoded-download-is-decoded-not-resumed": try await encodedDownloadIsDecoded(transport)
        case "sub-second-timeout-is-accurate": try await subSecondTimeout(transport)
        case "timeout-is-not-rounded": try await unroundedTimeout(transport)
        case "download-deadline-ends-with-timeout": try await downloadDeadline(transport)
        case "unauthorized-challenge-is-a-response": try await unauthorizedChallenge(transport)
        case "redirect-307-308-resend-method-and-body": try await redirectsResendBody(transport)
        case "reason-phrase-is-kept": try await reasonPhrase(transport)
        case "no-user-agent-unless-given": try await noUserAgent(transport)
        case "undecodable-coding-is-typed": try await undecodableCoding(transport)
        case "progress-is-intermediate": try await intermediateProgress(transport)
        case "download-error-status-stays-in-memory":
            try await withTemporaryFile { file in
                var observed = context()
                observed.downloadTarget = DownloadTarget(fileURL: file)
                let response = try await transport.send(try request(.get, "/status/404"), context: observed)
                try expect(
                    response.status.code == 404 && response.body.file == nil && !response.bytes.isEmpty,
                    "a 404 should come back in memory, got \(response.status.code), file \(String(describing: response.body.file))"
                )
                try expect(!FileManager.default.fileExists(atPath: file.path), "a 404 body was written to the download target")
            }
        default:
            throw Failed(description: "unknown case")
        }
    }
}
