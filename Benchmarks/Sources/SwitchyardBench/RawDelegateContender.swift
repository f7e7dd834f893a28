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

    /// Counts the body's bytes as they arrive.
    private final class CountingDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
        // AsyncHTTPClient calls a delegate on its task's event loop only, one callback at a time.
        typealias Response = Int

        private var status: HTTPResponseStatus?
        private var count = 0

        func didReceiveHead(task: HTTPClient.Task<Int>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            status = head.status
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<Int>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            count += buffer.readableBytes
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didFinishRequest(task: HTTPClient.Task<Int>) throws -> Int {
            guard let status, status == .ok else { throw ValidationError("unexpected status \(status.map { "\($0)" } ?? "none")") }
            return count
        }
    }

    func call() async throws -> Int {
        let request = try HTTPClient.Request(url: url, method: .GET)
        let task = client.execute(request: request, delegate: CountingDelegate(), deadline: .now() + .seconds(30))
        return try await task.futureResult.get()
    }
}
