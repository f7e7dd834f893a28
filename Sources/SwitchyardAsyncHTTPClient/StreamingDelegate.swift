import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SwitchyardCore

/// Hands a streamed answer's body to its ``Switchyard/ResponseStream`` through AsyncHTTPClient's
/// delegate interface, on the connection's own event loop.
///
/// Each body part goes into the stream's buffer at once and, while the buffer has room, the part's
/// future is already complete, so the client asks the connection for more in the same turn of the
/// event loop: it never holds parts of its own that a broken connection would drop, and every byte
/// read before the break reaches the stream ahead of its error. Once the buffer is full the part's
/// future waits for the consumer to read, which pauses the reading (the bounded read-ahead).
final class StreamingDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
    // AsyncHTTPClient calls a delegate on its task's event loop only, one callback at a time: the
    // mutable state below is never shared.
    typealias Response = Void

    private let writer: ResponseStream.Writer
    /// Completed with the head when it arrives, or failed with the error that came first.
    private let head: EventLoopPromise<HTTPResponseHead>
    private let observer: TransferObserver?
    private var total: Int64?
    private var received: Int64 = 0

    init(writer: ResponseStream.Writer, head: EventLoopPromise<HTTPResponseHead>, observer: TransferObserver?) {
        self.writer = writer
        self.head = head
        self.observer = observer
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        total = head.headers.first(name: "content-length").flatMap { Int64($0) }
        observer?.received(TransferProgress(completed: 0, total: total))
        self.head.succeed(head)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        received += Int64(buffer.readableBytes)
        let room: Bool
        do {
            room = try writer.offer(AsyncHTTPClientTransport.streamedData(buffer))
        } catch {
            // The stream ended (its consumer left, the call was cancelled): stop reading.
            return task.eventLoop.makeFailedFuture(error)
        }
        observer?.received(TransferProgress(completed: received, total: total))
        guard !room else { return task.eventLoop.makeSucceededVoidFuture() }
        let promise = task.eventLoop.makePromise(of: Void.self)
        promise.completeWithTask { [writer] in try await writer.waitForRoom() }
        return promise.futureResult
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        // A promise completes once: after the head this changes nothing.
        head.fail(error)
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {}
}
