import HTTPTypes
import SwitchyardCore

#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
#else
import Foundation
#endif

/// One task on the shared session, driven by its delegate (``RedirectRefusingDelegate``) rather than a
/// completion handler, so that the call's ``Switchyard/TransferObserver`` hears progress as it happens:
///
/// - the request body's progress, from `didSendBodyData` (FoundationNetworking reports it for upload
///   tasks only, which is why the transport sends every body with an upload task on this path);
/// - the response body, chunk by chunk from `didReceive data`: written to the download's
///   ``Switchyard/DownloadSink`` — so that bytes that arrived before a connection broke stay in the
///   partial file and the next attempt resumes after them — or collected in memory, counted against
///   the transport's limit as it arrives;
/// - or, for a streamed call, the head as soon as it arrives and then each chunk through its
///   ``StreamBridge`` to the call's ``Switchyard/ResponseStream``.
final class StreamingTransfer: @unchecked Sendable {
    private struct State {
        var sink: DownloadSink?
        var memory = Data()
        /// The announced length of an in-memory body (`nil` when unknown or URLSession decodes it).
        var memoryTotal: Int64?
        /// Whether URLSession decodes the in-memory body (its size is then counted decompressed).
        var decoded = false
        /// The request body bytes reported as sent so far.
        var sent: Int64 = 0
        var failure: SwitchyardError?
        /// Whether a streamed call's head has been handed over (its end then goes to the bridge).
        var answered = false
        /// The bytes of a streamed body received so far.
        var streamed: Int64 = 0
    }

    private let target: DownloadTarget?
    private let observer: TransferObserver?
    private let method: HTTPRequest.Method
    private let limit: Int
    /// The request body's size, when there is one.
    private let uploadTotal: Int64?
    /// The request, for error messages.
    private let requestTarget: String
    /// Where a streamed call's chunks go; `nil` for a call collected whole or downloaded.
    private let bridge: StreamBridge?
    // Guarded by `lock`: URLSession calls a task's delegate methods one at a time, but on its queue.
    private let lock = NSLock()
    private var state = State()
    private let completion: @Sendable (Result<(URLSessionTransport.Payload, URLResponse?), any Error>) -> Void

    init(
        target: DownloadTarget?,
        observer: TransferObserver?,
        method: HTTPRequest.Method,
        limit: Int,
        uploadTotal: Int64?,
        requestTarget: String,
        bridge: StreamBridge? = nil,
        completion: @escaping @Sendable (Result<(URLSessionTransport.Payload, URLResponse?), any Error>) -> Void
    ) {
        self.target = target
        self.observer = observer
        self.method = method
        self.limit = limit
        self.uploadTotal = uploadTotal
        self.requestTarget = requestTarget
        self.bridge = bridge
        self.completion = completion
    }

    /// Part of the request body went out: `totalBytesSent` so far, reported against the body's own size
    /// (never past it, never backwards, whatever the platform counts).
    func sent(_ totalBytesSent: Int64) {
        guard let observer, let uploadTotal else { return }
        let completed = min(max(totalBytesSent, 0), uploadTotal)
        let advanced = lock.withLock {
            guard completed > state.sent else { return false }
            state.sent = completed
            return true
        }
        if advanced { observer.sent(TransferProgress(completed: completed, total: uploadTotal)) }
    }

    /// The head arrived: a body a download's sink accepts goes to the file, any other (a plain call, or
    /// a download's error status) to memory; a download in a coding URLSession cannot decode is refused
    /// before the file is opened.
    func received(_ response: URLResponse) {
        guard let http = response as? HTTPURLResponse else { return }
        let head = URLSessionTransport.head(of: http)
        let coding = ContentCoding.coding(of: head.headerFields)
        let hasContent = ContentCoding.hasContent(head, method: method)
        let decoded = coding.map(URLSessionTransport.decodes) == true && hasContent
        if let bridge {
            // A streamed call returns at the head; its body follows through the bridge.
            let total = decoded ? nil : head.headerFields[.contentLength].flatMap { Int64($0) }
            // Only the first head answers the call: a `multipart/x-mixed-replace` answer has a head per
            // part, and the call's continuation must be resumed once.
            let first = lock.withLock {
                defer { state.answered = true }
                if !state.answered { state.memoryTotal = total }
                return !state.answered
            }
            guard first else { return }
            bridge.headArrived()
            if hasContent { observer?.received(TransferProgress(completed: 0, total: total)) }
            completion(.success((.stream(bridge), response)))
            return
        }
        if let target, DownloadSink.accepts(head) {
            if let coding, !decoded, hasContent {
                let refused = URLSessionTransport.undecodable(coding, head: head, target: requestTarget)
                lock.withLock { state.failure = refused }
                return
            }
            do {
                let sink = try DownloadSink(target: target, head: head, progress: observer?.received, decodedCoding: decoded ? coding : nil)
                lock.withLock { state.sink = sink }
            } catch {
                lock.withLock { state.failure = error }
            }
            return
        }
        // In memory: progress against the announced length, unless URLSession decodes the body (the
        // announced length is then the encoded one, and the total is known only at the end).
        let total = decoded ? nil : head.headerFields[.contentLength].flatMap { Int64($0) }
        lock.withLock {
            state.memoryTotal = total
            state.decoded = decoded
        }
        if hasContent { observer?.received(TransferProgress(completed: 0, total: total)) }
    }

    /// A chunk arrived; returns `false` when the task should stop (the sink refused it, or the body
    /// grew past the limit).
    func received(_ data: Data) -> Bool {
        if let bridge {
            // Counted once queued: what the consumer will see, never bytes refused past the limit.
            guard bridge.push(data) else { return false }
            let progress = lock.withLock {
                state.streamed += Int64(data.count)
                return TransferProgress(completed: state.streamed, total: state.memoryTotal)
            }
            observer?.received(progress)
            return true
        }
        let progress: TransferProgress? = lock.withLock {
            guard state.failure == nil else { return nil }
            if let sink = state.sink {
                do throws(SwitchyardError) {
                    try sink.write(data)
                } catch {
                    state.failure = error
                }
                return nil
            }
            let size = state.memory.count + data.count
            guard size <= limit else {
                state.failure = SwitchyardError.responseTooLarge(
                    limit: limit,
                    observed: size,
                    decompressed: state.decoded,
                    target: requestTarget
                )
                return nil
            }
            state.memory.append(data)
            return TransferProgress(completed: Int64(size), total: state.memoryTotal)
        }
        if let progress { observer?.received(progress) }
        return lock.withLock { state.failure == nil }
    }

    /// The task ended: the finished file, the body kept in memory, or why it failed. A transfer that
    /// broke leaves the sink's partial file and resume record for the next attempt.
    func completed(response: URLResponse?, error: (any Error)?) {
        if let bridge, lock.withLock({ state.answered }) {
            let end: Result<Void, any Error> = error.map { .failure($0) } ?? .success(())
            bridge.finish(end)
            return
        }
        let outcome: Result<(URLSessionTransport.Payload, URLResponse?), any Error> = lock.withLock {
            if let failure = state.failure { return .failure(failure) }
            if let error { return .failure(error) }
            if let sink = state.sink {
                do {
                    return .success((.sunk(try sink.finish()), response))
                } catch {
                    return .failure(error)
                }
            }
            return .success((.memory(state.memory), response))
        }
        completion(outcome)
    }
}
