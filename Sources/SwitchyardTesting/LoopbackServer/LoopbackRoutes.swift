import NIOCore
import NIOHTTP1

/// The loopback server's own routes, which the transport conformance suite relies on: `/echo` (see
/// ``EchoRoute``), `/status/{code}` (`?reason=` for a reason phrase of its own), `/delay/{ms}`,
/// `/bench`, `/not-json`, `/close`, `/gzip-bomb`, `/precompressed` (see ``PrecompressedText``),
/// `/auth/{scheme}` (see ``AuthRoutes``), `/redirect/{status}?to=<url>` (any method) and
/// `/files/blob/{bytes}` (see ``BlobRoute``).
enum LoopbackRoutes {
    /// The longest delay `/delay/{ms}` honours, in milliseconds.
    static let maxDelayMilliseconds = 120_000

    /// The hot `/bench` response, serialised once.
    static let bench = LoopbackResponse(
        status: .ok,
        contentType: LoopbackResponse.jsonContentType,
        body: ByteBuffer(string: #"{"code":0,"msg":"ok","data":{"id":1,"name":"bench"}}"#)
    )

    /// The `/not-json` response: a maintenance page served with a 200.
    static let notJSON = LoopbackResponse(
        status: .ok,
        contentType: "text/html",
        body: ByteBuffer(string: "<html><body>maintenance</body></html>")
    )

    /// Answers a utility request; `nil` when no route matches.
    static func route(_ request: LoopbackRequest, segments: [Substring]) -> LoopbackAction? {
        let path = request.path
        if path == "/echo" || path.hasPrefix("/echo/") {
            return .respond(EchoRoute.respond(to: request))
        }
        if segments.first == "redirect", segments.count == 2 {
            return .respond(Self.redirect(segments[1], to: request.queryItem(named: "to")))
        }
        guard request.isRead else { return nil }
        if segments.first == "files" { return BlobRoute.route(request, segments: segments) }
        switch (segments.first, segments.count) {
        case ("bench", 1): return .respond(Self.bench)
        case ("not-json", 1): return .respond(Self.notJSON)
        case ("gzip-bomb", 1): return .respond(GzipBomb.response)
        case ("close", 1): return .closeConnection
        case ("precompressed", 1): return .respond(PrecompressedText.respond(to: request))
        case ("auth", 2): return AuthRoutes.respond(to: request, scheme: segments[1]).map(LoopbackAction.respond)
        case ("status", 2): return .respond(Self.status(segments[1], reason: request.queryItem(named: "reason")))
        case ("delay", 2): return Self.delay(segments[1])
        default: return nil
        }
    }

    private static func status(_ segment: Substring, reason: String?) -> LoopbackResponse {
        guard let code = Int(segment), (200...599).contains(code) else {
            let error: JSONValue = .object([
                ("status", 400), ("error", "status code must be an integer in 200...599"),
            ])
            return .json(error, status: .badRequest)
        }
        let status = reason.map { HTTPResponseStatus.custom(code: UInt(code), reasonPhrase: $0) } ?? HTTPResponseStatus(statusCode: code)
        return .json(.object([("status", .int(code))]), status: status)
    }

    /// A `3xx` answer pointing at `to`.
    private static func redirect(_ segment: Substring, to location: String?) -> LoopbackResponse {
        guard let code = Int(segment), [301, 302, 303, 307, 308].contains(code), let location else {
            return .json(.object([("error", "use /redirect/{301|302|303|307|308}?to=<url>")]), status: .badRequest)
        }
        var response = LoopbackResponse.json(.object([("redirect", .string(location))]), status: HTTPResponseStatus(statusCode: code))
        response.extraHeaders = [("Location", location)]
        return response
    }

    private static func delay(_ segment: Substring) -> LoopbackAction {
        guard let requested = Int(segment), requested >= 0 else {
            let error: JSONValue = .object([("error", "delay must be a non-negative integer of milliseconds")])
            return .respond(.json(error, status: .badRequest))
        }
        let milliseconds = min(requested, Self.maxDelayMilliseconds)
        let response = LoopbackResponse.json(.object([("delayed", .int(milliseconds))]))
        return .respondAfter(.milliseconds(Int64(milliseconds)), response)
    }
}
