import Foundation
import HTTPTypes
import Switchyard

/// HTTP semantics a transport must leave to the pipeline: authentication challenges, `307`/`308`
/// bodies, the status line and the `User-Agent`.
extension TransportConformance {
    /// `unauthorized-challenge-is-a-response`: a `401` with a `Basic`, `Digest` or `Bearer` challenge
    /// comes back as the response, its challenge kept — never answered, never waited on (a transport
    /// that waits fails the case with the attempt's timeout).
    func unauthorizedChallenge(_ transport: any Transport) async throws {
        for scheme in ["basic", "digest", "bearer"] {
            let response: Response
            do {
                // A transport that waited on the challenge would end with the attempt's timeout instead.
                response = try await transport.send(try request(.get, "/auth/\(scheme)"), context: context())
            } catch {
                throw Failed(description: "a 401 with a \(scheme) challenge did not come back as a response: \(error)")
            }
            try expect(response.status.code == 401, "a \(scheme) challenge came back as \(response.status.code)")
            let challenge = response.headerFields[.wwwAuthenticate] ?? ""
            try expect(
                challenge.lowercased().hasPrefix(scheme),
                "the \(scheme) challenge was not kept: WWW-Authenticate \(challenge.isEmpty ? "missing" : challenge)"
            )
        }
    }

    /// `redirect-307-308-resend-method-and-body`: through a client over the transport, a same-origin
    /// `307` resends a POST with its bytes and a `308` resends a PUT with its streamed body.
    func redirectsResendBody(_ transport: any Transport) async throws {
        let service: ServiceID = "conformance"
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try registry.register(Service(service, baseURL: root, transport: transport))
        let client = APIClient(registry: registry)
        let location = root + "/echo/after-redirect"

        let bytes = Data("{\"order\":7,\"note\":\"张衡\"}".utf8)
        let posted = try await client.send(
            service,
            .post,
            "/redirect/307",
            parameters: ["to": .string(location)],
            body: .data(bytes, contentType: "application/json")
        )
        let first = try echo(posted.value)
        try expect(
            first.method == "POST" && first.uri == "/echo/after-redirect" && first.bodyBase64 == bytes.base64EncodedString(),
            "after a 307 the server saw \(first.method) \(first.uri) with \(first.body ?? "no body")"
        )

        let streamed = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        try await withTemporaryFile { file in
            try streamed.write(to: file)
            let put = try await client.send(
                service,
                .put,
                "/redirect/308",
                parameters: ["to": .string(location)],
                body: .stream(StreamedBody(segments: [.file(file, offset: 0, length: Int64(streamed.count))]), contentType: nil)
            )
            let second = try echo(put.value)
            try expect(
                second.method == "PUT" && second.bodyBase64 == streamed.base64EncodedString(),
                "after a 308 the server saw \(second.method) \(second.uri) with \(second.bodyBase64?.count ?? 0) base64 characters"
            )
        }
    }

    /// `reason-phrase-is-kept`: the status of an answer carries its reason phrase.
    func reasonPhrase(_ transport: any Transport) async throws {
        for (code, phrase) in [(503, "Service Unavailable"), (404, "Not Found"), (401, "Unauthorized")] {
            let response = try await transport.send(try request(.get, "/status/\(code)"), context: context())
            try expect(
                response.status.code == code && response.status.reasonPhrase == phrase,
                "expected \(code) \(phrase), got \(response.status.code) \"\(response.status.reasonPhrase)\""
            )
        }
    }

    /// `no-user-agent-unless-given`: through a client made with `userAgent: nil` the server sees no
    /// `User-Agent` at all (a transport must not add one of its own), and a request's own reaches it
    /// unchanged.
    func noUserAgent(_ transport: any Transport) async throws {
        let service: ServiceID = "conformance"
        let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop, store: nil))
        try registry.register(Service(service, baseURL: root, transport: transport))
        let anonymous = try echo(try await APIClient(registry: registry, userAgent: nil).send(service, .get, "/echo").value)
        try expect(
            anonymous.headers["user-agent"] == nil,
            "a client without a User-Agent sent User-Agent: \(anonymous.headers["user-agent"] ?? "")"
        )
        let named = try echo(
            try await transport.send(try request(.get, "/echo", fields: [.userAgent: "Conformance/1"]), context: context())
        )
        try expect(
            named.headers["user-agent"] == "Conformance/1",
            "the request's User-Agent arrived as \(named.headers["user-agent"] ?? "none")"
        )
    }
}
