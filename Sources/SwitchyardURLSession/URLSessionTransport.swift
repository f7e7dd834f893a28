import HTTPTypes
public import SwitchyardCore

#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// A ``Switchyard/Transport`` over `URLSession` — the system stack on Apple platforms (with its
/// proxy and ATS behaviour), FoundationNetworking on Linux.
///
/// - The attempt's timeout (``Switchyard/CallContext/effectiveTimeout``) is enforced by the transport
///   itself, to the millisecond: when it passes, the task is cancelled and the call ends with
///   ``Switchyard/SwitchyardError/Code/timeout``, stating the time that passed (URLSession's own
///   `timeoutInterval`, which FoundationNetworking cuts to whole seconds, is set a second later as a
///   backstop). It covers the whole transfer, as with `AsyncHTTPClientTransport`.
/// - Task cancellation cancels the data task; the call ends with
///   ``Switchyard/SwitchyardError/Code/cancelled``.
/// - Content coding follows ``Switchyard/ContentCoding``: `Accept-Encoding: gzip, deflate` unless the
///   request names one (`identity` for a download to a file), and a body URLSession decoded (gzip,
///   deflate, br; zstd too where libcurl decodes it, as on Debian and Ubuntu) reaches the pipeline
///   without `Content-Encoding` and with its decoded `Content-Length`. A download a server encodes
///   anyway is limited to ``Switchyard/ContentCoding/decompressionLimit`` once decoded. A body in a
///   coding URLSession cannot decode (`compress`, an unknown one), or whose bytes do not decode, fails
///   the call with ``Switchyard/SwitchyardError/Code/invalidResponse``, never reaching the stages encoded.
/// - A request without a `User-Agent` goes out without one: URLSession would add its own
///   (`<process> (unknown version) curl/<version>` on Linux, naming CFNetwork and Darwin on Apple
///   platforms), so the transport sets the field blank, which libcurl leaves out of the request (on
///   Apple platforms it goes out empty).
/// - A `401` comes back as a response whatever its `WWW-Authenticate` challenge (Basic, Digest,
///   Bearer…): the shared session declines every challenge (see its delegate). On Linux the body of a
///   `401` with a `Basic` or `Digest` challenge is not available and comes back empty.
/// - Redirects come back unfollowed; the pipeline resends a `307`/`308` with its method and body.
/// - The status carries the standard reason phrase of its code, as with `AsyncHTTPClientTransport`:
///   URLSession does not expose the server's status line, so a phrase of the server's own is not seen.
/// - `URLSession`'s own caching is off (`reloadIgnoringLocalCacheData`): caching is ``Switchyard/CacheStage``'s job.
///   On ``sharedSession`` so is its cookie storage: cookies are ``Switchyard/CookieStage``'s job.
/// - Progress: on ``sharedSession`` every task is driven by the session's delegate, so the call's
///   observers hear the start, the upload as it goes out (`didSendBodyData`; every body goes up with an
///   upload task, the only kind FoundationNetworking reports it for) and the download as it comes in
///   (`didReceive` data, against the `Content-Length`; the total of a body URLSession decodes is known
///   only at its end) — monotonic, with the totals as the last values. A session of your own gets
///   completion handlers: the start, and the upload and download once complete.
/// - Uploads: a streamed body (``Switchyard/Request/Body/stream(_:)``) goes up with
///   `uploadTask(with:fromFile:)` — from the file itself when the body is one whole file, otherwise from a temporary file its segments are
///   written to first — so memory stays constant.
/// - Downloads (``Switchyard/CallContext/downloadTarget``) on ``sharedSession`` are written to the
///   target through a ``Switchyard/DownloadSink`` chunk by chunk as they arrive, so a transfer that
///   breaks off keeps what it received and the next attempt resumes after it. A session of your own
///   uses a download task, whose temporary file is moved into the target once complete: a transfer
///   that breaks off there loses what that attempt received (resume data exists only on Apple
///   platforms) — unlike `AsyncHTTPClientTransport`, which keeps every byte received.
/// - Streamed answers (``Switchyard/CallContext/streamBufferLimit`` set, an endpoint whose output is
///   a ``Switchyard/ResponseStream``) on ``sharedSession`` return at the head (the delegate's
///   `didReceive` response); the delegate's `didReceive` data chunks follow as the stream. Ending the
///   stream (the call cancelled, the consuming task cancelled, a `for try await` loop left early)
///   cancels the task, which closes its connection. On Apple platforms the task is suspended while
///   more than the buffer limit waits for the consumer, so a slow consumer slows the reading.
///   FoundationNetworking cannot pause a running task (its `suspend()` ends the transfer and `resume()`
///   starts the request over), so on Linux the bytes waiting for a slow consumer may grow to
///   ``maximumResponseBodySize``, past which the stream ends with
///   ``Switchyard/SwitchyardError/Code/limitExceeded``. A session of your own (completion handlers)
///   refuses streamed calls with ``Switchyard/SwitchyardError/Code/unsupportedBody``.
public struct URLSessionTransport: Transport {
    /// The session; ``sharedSession`` unless you pass one (with your configuration and delegate).
    public let session: URLSession

    /// The transport's name, `URLSession`.
    public var name: String { "URLSession" }

    /// A session for the whole process that never follows redirects itself: every `3xx` answer comes
    /// back to the pipeline, which follows it by the service's ``Switchyard/RedirectPolicy`` — the same
    /// rules as with `AsyncHTTPClientTransport`. Its caching is off (caching is the cache stage's job),
    /// so is its cookie storage (cookies are ``Switchyard/CookieStage``'s, per account),
    /// it keeps no credentials and declines authentication challenges, so a `401` comes back as a
    /// response (credentials are the stages' job).
    public static let sharedSession: URLSession = {
        let configuration = URLSessionConfiguration.default
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        // Cookies are the cookie stage's job, partitioned per account: URLSession keeps and sends none.
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return URLSession(configuration: configuration, delegate: RedirectRefusingDelegate(), delegateQueue: nil)
    }()

    /// The session's time-between-bytes limit for a streamed call: a week, in effect none (a finite
    /// value, as both Foundations convert it to whole milliseconds).
    static let streamedIdleLimit: TimeInterval = 7 * 24 * 3600

    /// Creates a transport over `session`; ``sharedSession`` by default. A session of your own should
    /// have a delegate that refuses redirects (returns `nil` from
    /// `urlSession(_:task:willPerformHTTPRedirection:newRequest:completionHandler:)`), or it follows
    /// them itself, outside the service's redirect policy; and, on Linux, one that cancels `Basic`
    /// challenges (`urlSession(_:task:didReceive:completionHandler:)` answering
    /// `.cancelAuthenticationChallenge`), or a `401` carrying one waits for the attempt's timeout.
    ///
    /// - Parameters:
    ///   - session: the session.
    ///   - maximumResponseBodySize: the largest response body kept in memory, after decompression
    ///     (64 MiB, as the AsyncHTTPClient transport's); a larger one fails the call with
    ///     ``Switchyard/SwitchyardError/Code/limitExceeded``. Bodies written to a download's file are
    ///     not limited; a streamed answer is not either, but on Linux no more than this waits for its
    ///     consumer.
    public init(session: URLSession = URLSessionTransport.sharedSession, maximumResponseBodySize: Int = 64 << 20) {
        self.session = session
        self.maximumResponseBodySize = maximumResponseBodySize
    }

    /// The largest response body kept in memory, after decompression (on Linux, also the most bytes
    /// of a streamed answer that wait for a slow consumer).
    public let maximumResponseBodySize: Int

    /// The content codings URLSession decodes by itself: gzip, deflate and br on every platform, and
    /// zstd too with FoundationNetworking (libcurl as Debian and Ubuntu build it).
    #if canImport(FoundationNetworking)
    static let decodedCodings: Set<String> = ["gzip", "x-gzip", "deflate", "br", "zstd"]
    #else
    static let decodedCodings: Set<String> = ["gzip", "x-gzip", "deflate", "br"]
    #endif

    /// The limit error for a body of `size` bytes.
    private func tooLarge(_ size: Int, _ http: HTTPURLResponse, _ target: String) -> SwitchyardError {
        let encoding = (http.value(forHTTPHeaderField: "Content-Encoding") ?? "").lowercased()
        let decompressed = !encoding.isEmpty && encoding != "identity"
        return SwitchyardError.responseTooLarge(limit: maximumResponseBodySize, observed: size, decompressed: decompressed, target: target)
    }

    /// Sends the request and collects the response — or, for a streamed call on ``sharedSession``,
    /// returns at its head with the body as a ``Switchyard/ResponseStream``.
    public func send(_ request: Request, context: CallContext) async throws -> Response {
        // On the shared session every task is driven by its delegate, which reports progress as it
        // happens and can hand a streamed answer over at its head; a session of your own gets
        // completion handlers (start and end only).
        let delegate = session.delegate as? RedirectRefusingDelegate
        let bufferLimit = request.method == .head ? nil : context.streamBufferLimit
        if bufferLimit != nil, delegate == nil {
            // Collecting the whole body would turn a stream of any length into memory of that length.
            throw SwitchyardError(
                code: .unsupportedBody,
                message: "a URLSession transport over a session of your own (completion handlers) cannot stream answers; "
                    + "send streamed calls over URLSessionTransport.sharedSession or the AsyncHTTPClient transport"
            )
        }
        guard let url = request.url else {
            throw SwitchyardError(code: .invalidRequest, message: "the request has no scheme or authority, so it cannot be sent")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        let timeout = context.effectiveTimeout
        if context.streamBufferLimit != nil {
            // A streamed answer's timeout ends at its head (the timer below), and its body may be
            // quiet for as long as the server likes: the session's interval, which limits the time
            // between bytes for the whole task, must not cut it off (nor its 60-second default).
            urlRequest.timeoutInterval = Self.streamedIdleLimit
        } else if let timeout {
            // A backstop only: the timer below ends the attempt on time. FoundationNetworking cuts
            // this interval to whole seconds (0.3 s would fail at once), so it is whole seconds, at
            // least one past the limit.
            urlRequest.timeoutInterval = Double(timeout.components.seconds) + 2
        }
        for field in request.headerFields { urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName) }
        if request.headerFields[.userAgent] == nil { urlRequest.setValue(Self.noUserAgent, forHTTPHeaderField: "User-Agent") }
        if let acceptEncoding = ContentCoding.acceptEncoding(for: request, context: context) {
            urlRequest.setValue(acceptEncoding, forHTTPHeaderField: "Accept-Encoding")
        }
        let observer = context.transferObserver
        // For error messages: no query, and secret-shaped path segments redacted.
        let path = Redaction.default.redactTarget(String(request.pathWithoutQuery))
        let target = "\(request.method.rawValue) \(request.head.scheme ?? "")://\(request.head.authority ?? "")\(path)"

        // A streamed body goes up from a file: the file itself when it is one whole file, else the
        // segments written to a temporary file first (constant memory either way). That file is
        // private to the user (StreamedBody.write(to:) creates it 0600) and removed on every exit.
        var staged: URL?
        defer { if let staged { try? FileManager.default.removeItem(at: staged) } }
        var uploadFile: URL?
        // A body in memory goes up with an upload task on the delegate's path: FoundationNetworking
        // reports `didSendBodyData` for upload tasks only.
        var uploadData: Data?
        var uploadTotal: Int64?
        if let streamed = request.body?.stream {
            if let whole = streamed.wholeFile {
                uploadFile = whole
            } else {
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-upload-\(UUID().uuidString)")
                staged = file
                try streamed.write(to: file)
                uploadFile = file
            }
            uploadTotal = streamed.length
        } else if delegate != nil, let bytes = request.body?.bytes, !bytes.isEmpty {
            uploadData = bytes
            uploadTotal = Int64(bytes.count)
        } else {
            urlRequest.httpBody = request.body?.bytes
        }

        // A download task sends no streamed body: such a request's response is collected in memory.
        let downloadTarget = request.method == .head || uploadFile != nil || bufferLimit != nil ? nil : context.downloadTarget
        let box = TaskBox()
        // A streamed answer's chunks queue here between the delegate and the call's ResponseStream.
        let bridge = bufferLimit.map { StreamBridge(pauseAt: $0, hardLimit: maximumResponseBodySize, target: target, box: box) }
        let started = ContinuousClock.now
        let ending = Ending(box: box, target: target, timeout: timeout, started: started)
        // The attempt's own timer: cancels the task when the timeout passes.
        let timer = timeout.map { timeout in
            Task {
                try await Task.sleep(until: started + timeout, clock: .continuous)
                box.stop(.expired)
            }
        }
        defer { timer?.cancel() }
        let (payload, urlResponse): (Payload, URLResponse) = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task: URLSessionTask
                if let delegate {
                    // The shared session streams the body into the download's sink or into memory as it
                    // arrives, and reports the upload as it goes out.
                    let transfer = StreamingTransfer(
                        target: downloadTarget,
                        observer: observer,
                        method: request.method,
                        limit: maximumResponseBodySize,
                        uploadTotal: uploadTotal,
                        requestTarget: target,
                        bridge: bridge
                    ) { outcome in
                        switch outcome {
                        case .success((let payload, let response)):
                            Self.resume(continuation, payload: payload, response: response, error: nil, ending: ending)
                        case .failure(let error as SwitchyardError):
                            continuation.resume(throwing: error)
                        case .failure(let error):
                            Self.resume(continuation, payload: .memory(Data()), response: nil, error: error, ending: ending)
                        }
                    }
                    if let uploadFile {
                        task = session.uploadTask(with: urlRequest, fromFile: uploadFile)
                    } else if let uploadData {
                        task = session.uploadTask(with: urlRequest, from: uploadData)
                    } else {
                        task = session.dataTask(with: urlRequest)
                    }
                    delegate.register(transfer, for: task)
                } else if downloadTarget != nil {
                    task = session.downloadTask(with: urlRequest) { location, response, error in
                        // The temporary file is removed when this handler returns: take it now.
                        let kept = location.flatMap { Self.keep($0) }
                        Self.resume(
                            continuation,
                            payload: kept.map(Payload.file) ?? .memory(Data()),
                            response: response,
                            error: error,
                            ending: ending
                        )
                    }
                } else if let uploadFile {
                    task = session.uploadTask(with: urlRequest, fromFile: uploadFile) { data, response, error in
                        Self.resume(
                            continuation,
                            payload: .memory(data ?? Data()),
                            response: response,
                            error: error,
                            ending: ending
                        )
                    }
                } else {
                    task = session.dataTask(with: urlRequest) { data, response, error in
                        Self.resume(
                            continuation,
                            payload: .memory(data ?? Data()),
                            response: response,
                            error: error,
                            ending: ending
                        )
                    }
                }
                observer?.started()
                if let uploadTotal { observer?.sent(TransferProgress(completed: 0, total: uploadTotal)) }
                box.start(task)
            }
        } onCancel: {
            box.stop(.cancelled)
        }
        defer { if case .file(let kept) = payload { try? FileManager.default.removeItem(at: kept) } }
        if case .stream(let bridge) = payload, let bufferLimit {
            return try streamed(bridge, head: urlResponse, request: request, context: context, bufferLimit: bufferLimit, ending: ending)
        }
        guard let http = urlResponse as? HTTPURLResponse else {
            throw SwitchyardError(code: .transport, message: "\(target) was not answered over HTTP")
        }
        if let uploadTotal { observer?.sent(TransferProgress(completed: uploadTotal, total: uploadTotal)) }
        var response = Response(head: Self.head(of: http))
        let fields = response.headerFields
        // What URLSession decoded: a coding it decodes, on a response that has content.
        let coding = ContentCoding.coding(of: fields)
        let decoded = coding.map(Self.decodes) == true && ContentCoding.hasContent(response.head, method: request.method)
        if let coding, !decoded, ContentCoding.hasContent(response.head, method: request.method) {
            throw Self.undecodable(coding, head: response.head, target: target)
        }
        switch payload {
        case .stream:
            // Never reached: a streamed answer returned above.
            response.body = .bytes(Data())
        case .sunk(let file):
            // Written through the sink as it arrived; the sink already accounted for the coding.
            response.body = .file(file)
            if decoded { response.head = ContentCoding.decoded(response.head, byteCount: file.byteCount) }
            return response
        case .memory(let data):
            // URLSession hands the body over whole; an oversized one is refused before any stage sees it.
            guard data.count <= maximumResponseBodySize else { throw tooLarge(data.count, http, target) }
            response.body = .bytes(request.method == .head ? Data() : data)
            observer?.received(TransferProgress(completed: Int64(response.body.count), total: Int64(response.body.count)))
        case .file(let file):
            if let downloadTarget, DownloadSink.accepts(response.head) {
                let sink = try DownloadSink(
                    target: downloadTarget,
                    head: response.head,
                    progress: observer?.received,
                    decodedCoding: decoded ? coding : nil
                )
                response.body = .file(try Self.copy(file, into: sink))
            } else {
                // Checked on disk before it is read into memory.
                let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
                guard size <= maximumResponseBodySize else { throw tooLarge(size, http, target) }
                response.body = .bytes((try? Data(contentsOf: file)) ?? Data())
                observer?.received(TransferProgress(completed: Int64(response.body.count), total: Int64(response.body.count)))
            }
        }
        if decoded { response.head = ContentCoding.decoded(response.head, byteCount: Int64(response.body.count)) }
        return response
    }
}
