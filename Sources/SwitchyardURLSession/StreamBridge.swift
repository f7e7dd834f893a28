import Foundation
import SwitchyardCore
import SwitchyardSupport
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Carries a streamed answer's chunks from the session's delegate, which cannot wait, to the task
/// that writes them into the call's ``Switchyard/ResponseStream``: the delegate queues them, the
/// task takes them one at a time.
///
/// What is queued is bounded. On Apple platforms the task is suspended once the queue holds more than
/// the call's buffer limit, and resumed once the consumer has drained it below the limit, so a slow
/// consumer slows the reading from the socket. FoundationNetworking cannot pause a running task
/// (its `suspend()` takes the transfer off libcurl's multi handle, which ends it, and `resume()`
/// starts the request over), so there the queue may grow to the transport's
/// ``URLSessionTransport/maximumResponseBodySize`` and the stream then ends with
/// ``Switchyard/SwitchyardError/Code/limitExceeded`` rather than grow without bound.
final class StreamBridge: Sendable {
    private struct State {
        var chunks = ChunkQueue()
        var end: Result<Void, any Error>?
        var waiter: CheckedContinuation<Data?, any Error>?
        var suspended = false
    }

    private let state = Mutex(State())
    /// The bytes queued before the task is suspended (Apple platforms).
    private let pauseAt: Int
    /// The bytes queued at most; past them the stream fails.
    private let hardLimit: Int
    /// The request, for error messages.
    private let target: String
    /// The call's task, suspended and resumed.
    private let box: TaskBox

    init(pauseAt: Int, hardLimit: Int, target: String, box: TaskBox) {
        // Past the hard limit the stream fails, so the task is paused no later than that.
        self.pauseAt = min(pauseAt, hardLimit)
        self.hardLimit = hardLimit
        self.target = target
        self.box = box
    }

    /// Records that the answer's head arrived, so the attempt's time limit no longer stops the task
    /// (see ``TaskBox/headArrived()``).
    func headArrived() { box.headArrived() }

    /// Queues a chunk from the delegate; returns `false` when the task should stop (the queue passed
    /// its hard limit, or the stream has ended).
    func push(_ chunk: Data) -> Bool {
        enum Step {
            case handed(CheckedContinuation<Data?, any Error>)
            case queued
            case overflow(Int)
            case ended
        }
        let step: Step = state.withLock { state in
            guard state.end == nil else { return .ended }
            if let waiter = state.waiter {
                state.waiter = nil
                return .handed(waiter)
            }
            state.chunks.append(chunk)
            guard state.chunks.byteCount <= hardLimit else { return .overflow(state.chunks.byteCount) }
            #if canImport(FoundationNetworking)
            return .queued
            #else
            // Suspended under the lock, so a reader's resume decided meanwhile cannot come first and
            // leave the task suspended while the state says it runs (suspend and resume do not block).
            if !state.suspended && state.chunks.byteCount > pauseAt {
                state.suspended = true
                box.pause()
            }
            return .queued
            #endif
        }
        switch step {
        case .handed(let waiter):
            waiter.resume(returning: chunk)
            return true
        case .queued:
            return true
        case .overflow(let observed):
            finish(
                .failure(
                    SwitchyardError(
                        code: .limitExceeded,
                        message: "the streamed answer to \(target) arrived faster than it was read: more than the limit of "
                            + "\(hardLimit) bytes (\(observed) bytes) was waiting for the reader, and the URLSession transport "
                            + "cannot pause reading on this platform"
                    )
                )
            )
            return false
        case .ended:
            return false
        }
    }

    /// The next chunk, waiting for one; `nil` at the end.
    func next() async throws -> Data? {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
            enum Step {
                case chunk(Data)
                case ended(Result<Void, any Error>)
                case wait
            }
            let step: Step = state.withLock { state in
                if let chunk = state.chunks.popFirst() {
                    // Resumed under the lock, in the order the suspension was decided (see `push`).
                    if state.suspended && state.chunks.byteCount < pauseAt {
                        state.suspended = false
                        box.unpause()
                    }
                    return .chunk(chunk)
                }
                if let end = state.end { return .ended(end) }
                state.waiter = continuation
                return .wait
            }
            switch step {
            case .chunk(let chunk):
                continuation.resume(returning: chunk)
            case .ended(.success): continuation.resume(returning: nil)
            case .ended(.failure(let error)): continuation.resume(throwing: error)
            case .wait: break
            }
        }
    }

    /// Ends the queue. The reader gets what is queued first and then the end — the success, or the
    /// failure that broke the transfer, so the chunks that arrived before a break are never lost — except
    /// for a cancellation, which drops what is queued and ends the queue at once. The first end wins.
    func finish(_ end: Result<Void, any Error>) {
        let waiter: CheckedContinuation<Data?, any Error>?? = state.withLock { state in
            guard state.end == nil else { return nil }
            state.end = end
            if case .failure(let error) = end, Self.isCancellation(error) {
                state.chunks.removeAll()
            }
            defer { state.waiter = nil }
            return .some(state.waiter)
        }
        guard case .some(let waiter?) = waiter else { return }
        switch end {
        case .success: waiter.resume(returning: nil)
        case .failure(let error): waiter.resume(throwing: error)
        }
    }

    /// Whether `error` ends the queue because the call or its reader was cancelled, rather than because
    /// the transfer broke.
    private static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let error = error as? SwitchyardError { return error.code == .cancelled }
        if let error = error as? URLError { return error.code == .cancelled }
        return false
    }
}
