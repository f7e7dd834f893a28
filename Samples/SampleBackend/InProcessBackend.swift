import NIOCore
import NIOHTTP1

/// The sample backend's routes answered in-process, with no socket: for benchmarks that measure the
/// client's own work per call and must time the server's work apart (see `switchyard-bench fullmem`).
///
/// It answers exactly what ``SampleBackend`` would for requests that get an immediate response, and
/// a streamed module's answer (Server-Sent Events, JSON Lines) whole, without its pauses; a route
/// that would delay, stream a large file or drop the connection answers `501`.
public final class InProcessBackend: Sendable {
    /// One answer: the status, the header fields (content type first) and the body.
    public struct Answer: Sendable {
        /// The status code.
        public var status: Int
        /// The header fields, in order.
        public var headerFields: [(name: String, value: String)]
        /// The body.
        public var body: [UInt8]
    }

    private let state = SampleState()

    /// Creates a backend with fresh state (the shop's token starts as `shop-token-1`).
    public init() {}

    /// Answers one request.
    ///
    /// - Parameters:
    ///   - method: the method, `POST`.
    ///   - target: the request target, path and query, `/shop-api/orders?app=bench`.
    ///   - headerFields: the request's header fields.
    ///   - body: the request body.
    /// - Returns: the answer.
    public func respond(method: String, target: String, headerFields: [(name: String, value: String)], body: [UInt8]) -> Answer {
        var headers = HTTPHeaders()
        headers.reserveCapacity(headerFields.count)
        for field in headerFields { headers.add(name: field.name, value: field.value) }
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: target, headers: headers)
        let request = LoopbackRequest(head: head, body: ByteBuffer(bytes: body))
        let response: LoopbackResponse
        switch LoopbackServer.route(request, routes: { SampleRoutes.route($0, state: self.state) }) {
        case .respond(let immediate):
            response = immediate
        case .paced(let stream):
            return Answer(status: Int(stream.status.code), headerFields: stream.headers, body: Array(stream.body.readableBytesView))
        default:
            return Answer(status: 501, headerFields: [], body: [])
        }
        var fields: [(name: String, value: String)] = [("content-type", response.contentType)]
        fields.append(contentsOf: response.extraHeaders)
        return Answer(status: Int(response.status.code), headerFields: fields, body: Array(response.body.readableBytesView))
    }
}
