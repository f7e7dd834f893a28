public import Switchyard
#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif
import HTTPTypes

/// A ``Switchyard/Transport`` over `URLSession` — the system stack on Apple platforms (with its
/// proxy, cookie, cache and ATS behaviour), FoundationNetworking on Linux.
///
/// - The attempt's timeout (``Switchyard/CallContext/effectiveTimeout``) becomes the request's
///   timeout interval; expiry ends the call with ``Switchyard/SwitchyardError/Code/timeout``.
/// - Task cancellation cancels the data task; the call ends with
///   ``Switchyard/SwitchyardError/Code/cancelled``.
/// - `URLSession`'s own caching is off (`reloadIgnoringLocalCacheData`): caching is ``Switchyard/CacheStage``'s job.
/// - Progress: did start, and the download once complete (the completion-handler API reports no
///   intermediate progress; use ``SwitchyardAsyncHTTPClient`` for per-chunk progress).
public struct URLSessionTransport: Transport {
    /// The session; `URLSession.shared` unless you pass one (with your configuration and delegate).
    public let session: URLSession

    /// The transport's name, `URLSession`.
    public var name: String { "URLSession" }

    /// Creates a transport over `session`.
    public init(session: URLSession = .shared) {
        self.session = session
    }

    /// Sends the request and collects the response.
    public func send(_ request: Request, context: CallContext) async throws -> Response {
        guard let url = request.url else {
            throw SwitchyardError(code: .invalidRequest, message: "the request has no scheme or authority, so it cannot be sent")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        if let timeout = context.effectiveTimeout {
            urlRequest.timeoutInterval = max(0.001, Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
        }
        for field in request.headerFields { urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName) }
        urlRequest.httpBody = request.body
        let observer = context.transferObserver
        let target = "\(request.method.rawValue) \(request.head.scheme ?? "")://\(request.head.authority ?? "")\(request.pathWithoutQuery)"

        let box = TaskBox()
        let (data, urlResponse): (Data, URLResponse) = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if let error {
                        continuation.resume(throwing: Self.translate(error, target: target, timeout: context.effectiveTimeout))
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: SwitchyardError(code: .transport, message: "\(target) ended without a response"))
                    }
                }
                observer?.started()
                box.start(task)
            }
        } onCancel: {
            box.cancel()
        }
        guard let http = urlResponse as? HTTPURLResponse else {
            throw SwitchyardError(code: .transport, message: "\(target) was not answered over HTTP")
        }
        var fields = HTTPFields()
        for (name, value) in http.allHeaderFields {
            guard let text = name as? String, let name = HTTPField.Name(text), let value = value as? String else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        let body = request.method == .head ? Data() : data
        observer?.received(TransferProgress(completed: Int64(body.count), total: Int64(body.count)))
        return Response(status: HTTPResponse.Status(code: http.statusCode), headerFields: fields, body: body)
    }

    static func translate(_ error: any Error, target: String, timeout: Duration?) -> SwitchyardError {
        if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut:
                return SwitchyardError(code: .timeout, message: "\(target) timed out\(timeout.map { " after \($0)" } ?? "")", underlyingError: error)
            case .cancelled:
                return SwitchyardError(code: .cancelled, message: "the call was cancelled while \(target) was in flight", underlyingError: error)
            case .cannotConnectToHost:
                return SwitchyardError(code: .transport, message: "could not connect for \(target): connection refused", underlyingError: error)
            default:
                break
            }
        }
        return SwitchyardError(code: .transport, message: "\(target) failed: \(error.localizedDescription)", underlyingError: error)
    }
}

/// The data task of one call, so that a cancellation arriving before it starts still cancels it.
final class TaskBox: @unchecked Sendable {
    // Guarded by `lock`; URLSessionTask is thread-safe for `resume` and `cancel`.
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var cancelled = false

    func start(_ task: URLSessionTask) {
        lock.lock()
        self.task = task
        let cancelled = self.cancelled
        lock.unlock()
        if cancelled { task.cancel() } else { task.resume() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }
}
