import NIOCore

/// Routes for testing request control, with per-key hit counters kept in the server's state:
///
/// - `/flaky/{key}/{failures}` — answers 503 to the first `failures` hits for `key` (with
///   `Retry-After: {seconds}` when the query has `retryAfter=…`), then 200 `{"key","hits"}`.
/// - `/counter/{key}` — counts the hit and answers `{"key","hits","query"}`, after `delay`
///   milliseconds when the query has `delay=…` (so identical calls overlap).
/// - `/pages/{key}?page=&size=` — a 45-item list, paged: `{"page","items":[…],"hasMore"}`; counts hits.
/// - `/etag/{key}` — `{"key","version":1}` with an `ETag` and a `Last-Modified`; a matching
///   `If-None-Match` gets `304 Not Modified` without a body; counts hits.
enum ControlRoutes {
    static func route(_ request: LoopbackRequest, segments: [Substring], state: SampleState) -> LoopbackAction? {
        switch (segments.first, segments.count) {
        case ("flaky", 3):
            guard let failures = Int(segments[2]) else { return nil }
            let key = "flaky/" + segments[1]
            let hits = state.hit(key)
            guard hits > failures else {
                var response = LoopbackResponse.json(
                    .object([("error", "temporarily unavailable"), ("hits", .int(hits))]),
                    status: .serviceUnavailable
                )
                if let seconds = request.queryItem(named: "retryAfter") { response.extraHeaders = [("Retry-After", seconds)] }
                return .respond(response)
            }
            return .respond(.json(.object([("key", .string(String(segments[1]))), ("hits", .int(hits))])))
        case ("counter", 2):
            let hits = state.hit("counter/" + segments[1])
            let query = (request.query ?? "").split(separator: "&").map { JSONValue.string(String($0)) }
            let response = LoopbackResponse.json(
                .object([("key", .string(String(segments[1]))), ("hits", .int(hits)), ("query", .array(query))])
            )
            let delay =
                request.queryItem(named: "delay").flatMap(Int.init).map { min(max(0, $0), LoopbackRoutes.maxDelayMilliseconds) } ?? 0
            return delay > 0 ? .respondAfter(.milliseconds(Int64(delay)), response) : .respond(response)
        case ("pages", 2):
            _ = state.hit("pages/" + segments[1])
            let page = request.queryItem(named: "page").flatMap(Int.init) ?? 1
            let size = request.queryItem(named: "size").flatMap(Int.init) ?? 10
            guard page >= 1, (1...100).contains(size) else {
                return .respond(.json(.object([("error", "page must be ≥ 1 and size 1...100")]), status: .badRequest))
            }
            let total = 45
            let start = (page - 1) * size
            let items = (start..<min(start + size, total)).map { JSONValue.int($0 + 1) }
            let delay =
                request.queryItem(named: "delay").flatMap(Int.init).map { min(max(0, $0), LoopbackRoutes.maxDelayMilliseconds) } ?? 0
            let response = LoopbackResponse.json(
                .object([("page", .int(page)), ("items", .array(items)), ("hasMore", .bool(start + size < total))])
            )
            return delay > 0 ? .respondAfter(.milliseconds(Int64(delay)), response) : .respond(response)
        case ("etag", 2):
            _ = state.hit("etag/" + segments[1])
            let etag = "\"\(segments[1])-v1\""
            let validators = [("ETag", etag), ("Last-Modified", "Sun, 22 Nov 2026 08:00:00 GMT"), ("Cache-Control", "no-cache")]
            if request.head.headers.first(name: "if-none-match") == etag {
                var notModified = LoopbackResponse(status: .notModified, contentType: LoopbackResponse.jsonContentType, body: ByteBuffer())
                notModified.extraHeaders = validators
                return .respond(notModified)
            }
            var response = LoopbackResponse.json(.object([("key", .string(String(segments[1]))), ("version", 1)]))
            response.extraHeaders = validators
            return .respond(response)
        default:
            return nil
        }
    }
}
