import ArgumentParser
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// AsyncHTTPClient alone through its delegate interface (`execute(request:delegate:deadline:)`,
/// awaiting the task's future), the interface `AsyncHTTPClientTransport` sends the common call
/// through because its `HTTPClient.Task` can be cancelled from outside — by the call's control —
/// without a Swift task to cancel. Against `raw-ahc` (the async interface), it shows what that
/// interface costs before any of Switchyard's own work.
struct RawDelegateContender: Sendable {
    let client: HTTPClient
    let url: String

    /// Collects the body into one buffer, as the transport's delegate does.
    private final class CollectingDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
        // AsyncHTTPClient calls a delegate on its task's event loop only, one callback at a time.
        typealias Response = Int

        private var status: HTTPResponseStatus?
        private var body: ByteBuffer?

        func didReceiveHead(task: HTTPClient.Task<Int>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            status = head.status
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<Int>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            if body == nil {
                body = buffer
            } else {
                var buffer = buffer
                body?.writeBuffer(&buffer)
            }
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didFinishRequest(task: HTTPClient.Task<Int>) throws -> Int {
            guard let status, status == .ok else { throw ValidationError("unexpected status \(status.map { "\($0)" } ?? "none")") }
            return body?.readableBytes ?? 0
        }
    }

    func call() async throws -> Int {
        let request = try HTTPClient.Request(url: url, method: .GET)
        let task = client.execute(request: request, delegate: CollectingDelegate(), deadline: .now() + .seconds(30))
        return try await task.futureResult.get()
    }
}
