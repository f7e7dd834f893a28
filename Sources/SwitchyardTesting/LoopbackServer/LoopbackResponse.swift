import NIOCore
import NIOHTTP1

/// A complete response the connection handler writes in one go.
struct LoopbackResponse: Sendable {
    /// The content type of every JSON response.
    static let jsonContentType = "application/json; charset=utf-8"

    /// The response status.
    var status: HTTPResponseStatus
    /// The `Content-Type` header value.
    var contentType: String
    /// The response body; `Content-Length` is derived from it.
    var body: ByteBuffer
    /// Further header fields, written after `Content-Type`.
    var extraHeaders: [(name: String, value: String)] = []

    /// A JSON response.
    static func json(_ value: JSONValue, status: HTTPResponseStatus = .ok) -> LoopbackResponse {
        LoopbackResponse(status: status, contentType: Self.jsonContentType, body: value.buffer)
    }

    /// A business envelope `{"code":…,"msg":…,"data":…}`.
    static func envelope(
        code: Int,
        msg: String,
        data: JSONValue = .null,
        status: HTTPResponseStatus = .ok
    ) -> LoopbackResponse {
        .json(.object([("code", .int(code)), ("msg", .string(msg)), ("data", data)]), status: status)
    }

    /// The 404 answer for a request no route matches.
    static func noRoute(for request: LoopbackRequest) -> LoopbackResponse {
        .envelope(code: 404, msg: "no route for \(request.method.rawValue) \(request.path)", status: .notFound)
    }
}
