import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import SwitchyardCore

/// Collects a response in memory for the transport's common path — a body in memory, no progress,
/// no download — through AsyncHTTPClient's delegate interface, whose task the call's
/// ``Switchyard/CallControl`` can cancel without cancelling the caller's task.
///
/// It enforces the transport's size limit as bytes arrive (and before, when the server announces a
/// length over it that decompression cannot explain), the attempt's deadline between chunks, and
/// refuses a body in a content coding the client does not decode as soon as the head arrives.
final class CollectingDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
    // AsyncHTTPClient calls a delegate on its task's event loop only, one callback at a time, and
    // publishes the result through the task's future: the mutable state below is never shared.
    typealias Response = (head: HTTPResponseHead, body: ByteBuffer?)

    private let limit: Int
    /// The request, named in a limit error (its redacted target is made only then).
    private let request: SwitchyardCore.Request
    private let deadline: NIODeadline
    /// Whether the client decodes gzip and deflate: a body in another coding is then refused.
    private let decodes: Bool
    private var head: HTTPResponseHead?
    private var body: ByteBuffer?
    private var decompressed = false

    init(limit: Int, request: SwitchyardCore.Request, deadline: NIODeadline, decodes: Bool) {
        self.limit = limit
        self.request = request
        self.deadline = deadline
        self.decodes = decodes
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        // A decompressed body may grow past an announced (compressed) length; the count checks it.
        decompressed = head.headers.first(name: "content-encoding").map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
        // Only a coding the client does not decode needs the full check (and a converted head).
        if decompressed, decodes,
            let coding = head.headers.first(name: "content-encoding"),
            !AsyncHTTPClientTransport.decodedCodings.contains(coding.lowercased())
        {
            do {
                try AsyncHTTPClientTransport.checkCoding(
                    AsyncHTTPClientTransport.makeHead(status: head.status, headers: head.headers),
                    request: request,
                    decodes: decodes
                )
            } catch {
                return task.eventLoop.makeFailedFuture(error)
            }
        }
        if let length = head.headers.first(name: "content-length").flatMap({ Int($0) }), length > limit, !decompressed {
            return task.eventLoop.makeFailedFuture(
                SwitchyardError.responseTooLarge(limit: limit, observed: length, target: AsyncHTTPClientTransport.target(of: request))
            )
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let received = (body?.readableBytes ?? 0) + buffer.readableBytes
        guard received <= limit else {
            return task.eventLoop.makeFailedFuture(
                SwitchyardError.responseTooLarge(
                    limit: limit,
                    observed: received,
                    decompressed: decompressed,
                    target: AsyncHTTPClientTransport.target(of: request)
                )
            )
        }
        if body == nil {
            body = buffer
        } else {
            var buffer = buffer
            body?.writeBuffer(&buffer)
        }
        if deadline != .distantFuture, NIODeadline.now() > deadline {
            return task.eventLoop.makeFailedFuture(HTTPClientError.deadlineExceeded)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        guard let head else { throw HTTPClientError.remoteConnectionClosed }
        return (head, body)
    }
}
