import HTTPTypes
import Switchyard

#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
#else
import Foundation
#endif

/// One download on the shared session, written to its ``Switchyard/DownloadSink`` chunk by chunk as
/// URLSession delivers it — so that bytes that arrived before a connection broke stay in the partial
/// file and the next attempt resumes after them (a download task would throw them away).
///
/// The shared session's delegate (``RedirectRefusingDelegate``) routes the task's callbacks here.
final class StreamingDownload: @unchecked Sendable {
    private struct State {
        var sink: DownloadSink?
        var memory = Data()
        var failure: SwitchyardError?
    }

    private let target: DownloadTarget
    private let observer: TransferObserver?
    private let method: HTTPRequest.Method
    private let limit: Int
    /// The request, for error messages.
    private let requestTarget: String
    // Guarded by `lock`: URLSession calls a task's delegate methods one at a time, but on its queue.
    private let lock = NSLock()
    private var state = State()
    private let completion: @Sendable (Result<(URLSessionTransport.Payload, URLResponse?), any Error>) -> Void

    init(
        target: DownloadTarget,
        observer: TransferObserver?,
        method: HTTPRequest.Method,
        limit: Int,
        requestTarget: String,
        completion: @escaping @Sendable (Result<(URLSessionTransport.Payload, URLResponse?), any Error>) -> Void
    ) {
        self.target = target
        self.observer = observer
        self.method = method
        self.limit = limit
        self.requestTarget = requestTarget
        self.completion = completion
    }

    /// The head arrived: a body the sink accepts goes to the file, any other (an error status) to memory;
    /// a body in a coding URLSession cannot decode is refused before the file is opened.
    func received(_ response: URLResponse) {
        guard let http = response as? HTTPURLResponse else { return }
        let head = URLSessionTransport.head(of: http)
        guard DownloadSink.accepts(head) else { return }
        let coding = ContentCoding.coding(of: head.headerFields)
        let decoded = coding.map(URLSessionTransport.decodes) == true && ContentCoding.hasContent(head, method: method)
        if let coding, !decoded, ContentCoding.hasContent(head, method: method) {
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
    }

    /// A chunk arrived; returns `false` when the task should stop (the sink refused it).
    func received(_ data: Data) -> Bool {
        lock.withLock {
            guard state.failure == nil else { return false }
            if let sink = state.sink {
                do throws(SwitchyardError) {
                    try sink.write(data)
                } catch {
                    state.failure = error
                    return false
                }
            } else {
                guard state.memory.count + data.count <= limit else {
                    state.failure = SwitchyardError.responseTooLarge(limit: limit, observed: state.memory.count + data.count, target: "")
                    return false
                }
                state.memory.append(data)
            }
            return true
        }
    }

    /// The task ended: the finished file, the body kept in memory, or why it failed. A transfer that
    /// broke leaves the sink's partial file and resume record for the next attempt.
    func completed(response: URLResponse?, error: (any Error)?) {
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
