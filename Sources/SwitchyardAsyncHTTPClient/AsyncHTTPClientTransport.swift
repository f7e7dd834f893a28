public import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOSSL
public import SwitchyardCore
import Tracing

/// A ``Switchyard/Transport`` over AsyncHTTPClient: the default transport on Linux and servers.
///
/// ## Lifecycle
///
/// The transport never owns a client behind your back:
/// - `AsyncHTTPClientTransport()` uses `HTTPClient.shared`, which lives as long as the process and
///   never needs shutting down.
/// - `AsyncHTTPClientTransport(client:)` uses a client you created; you shut it down, after the last call.
/// - ``withTransport(configuration:transportConfiguration:_:)`` creates a client with your
///   configuration, hands you a transport over it, and shuts the client down when your closure
///   returns or throws — nothing leaks and nothing is shut down twice.
///
/// ## Timeouts and cancellation
///
/// ``Switchyard/CallContext/timeout`` bounds the attempt: connecting, sending and waiting for the
/// response head fail with ``Switchyard/SwitchyardError/Code/timeout`` once it passes — within 10 ms
/// of it for a call collected in memory on a client that does not retry failed connections (one
/// made from ``switchyardConfiguration(_:)``), whose deadlines the kernel's deadline timer keeps (the
/// one timer behind call deadlines too) instead of a timer of AsyncHTTPClient's per call, and at once for the others, whose deadline
/// AsyncHTTPClient keeps (it then reports a call that ran out of time waiting for a connection with
/// the reason the connection failed). The body is then read against the
/// same deadline, checked as each chunk arrives; a connection that goes completely silent mid-body is
/// ended by the client's read timeout (90 s for `HTTPClient.shared`; set `timeout.read` in your
/// configuration for another bound). Checking per chunk costs nothing per call, where a timer per call
/// would cost a task and a timer each. Cancelling the calling task cancels the request on its connection.
/// A timeout is reported with the time that actually passed beside the limit.
///
/// ## Content coding
///
/// The transport follows ``Switchyard/ContentCoding``: a request that names no `Accept-Encoding` asks
/// for `gzip, deflate` (what AsyncHTTPClient's decoder handles; `br` is never advertised), a download
/// to a file asks for `identity`, and a body the client decoded reaches the pipeline without
/// `Content-Encoding` and with its decoded `Content-Length`. Decoding stops at
/// ``decompressionLimit`` (64 MiB), for bodies in memory and files alike. A body in any other coding
/// (a server that sends `br` whatever it was asked), or whose bytes do not decode, fails the call with
/// ``Switchyard/SwitchyardError/Code/invalidResponse`` rather than reaching the stages encoded. A
/// client that does not decompress (one not built from ``switchyardConfiguration(_:)``) asks for
/// `identity` and hands bodies over as sent.
///
/// ## Uploads and downloads
///
/// A streamed body (``Switchyard/Request/Body/stream(_:)``) is sent in 64 KiB chunks pulled only as
/// the connection takes them, and a download (``Switchyard/CallContext/downloadTarget``) is written to its file chunk by chunk,
/// so both cost constant memory whatever their size; both report progress to the call's
/// observers (``Switchyard/CallContext/reportSent(_:)``). The timeout covers the whole transfer: give large transfers a
/// timeout to match. ``Configuration/maximumResponseBodySize`` limits bodies held in memory, not files.
///
/// A streamed answer whose connection breaks mid-body ends with a typed error after every byte read
/// before the break: each part goes into the stream's buffer on the connection's event loop as it is
/// read, so the client asks for more at once and keeps nothing of its own that the break would drop.
/// The bound is the read-ahead: once the stream's buffer (``Switchyard/CallContext/streamBufferLimit``)
/// is full the reading pauses, and bytes that reach the machine after that are still in the socket
/// when the connection breaks — AsyncHTTPClient reads them while tearing the connection down and
/// drops them with its error, so a consumer that has stopped reading loses what lies beyond its
/// buffer. A streamed answer over a pinned connection, or with a streamed upload, is read through
/// AsyncHTTPClient's async body, which pauses between parts and can drop the last reads before a
/// break the same way. An event stream resumed with `Last-Event-ID` asks for them again.
public struct AsyncHTTPClientTransport: Transport {
    /// Limits and behaviour of the transport.
    public struct Configuration: Sendable {
        /// The largest response body accepted, after decompression; a larger one fails the call with
        /// ``Switchyard/SwitchyardError/Code/limitExceeded``, stating the limit and the size seen.
        /// 64 MiB unless changed.
        public var maximumResponseBodySize: Int
        /// The timeout used when the call's context has none; `nil` for no limit.
        public var fallbackTimeout: Duration?

        /// Creates a configuration.
        public init(maximumResponseBodySize: Int = 64 << 20, fallbackTimeout: Duration? = nil) {
            self.maximumResponseBodySize = maximumResponseBodySize
            self.fallbackTimeout = fallbackTimeout
        }
    }

    /// The AsyncHTTPClient client requests are executed on.
    public let client: HTTPClient
    /// The transport's configuration.
    public var configuration: Configuration
    /// The public keys this transport's servers must present, or `nil` when it does not pin.
    public let pinning: Pinning?
    /// The local relays that carry pinned connections.
    let tunnels: PinnedTunnels?
    /// Whether the client decodes gzip and deflate bodies.
    let decodes: Bool
    /// Ends the common call's exchanges at their deadlines: the kernel's deadline timer, one for all
    /// of the transport's exchanges.
    let deadlines: DeadlineTimer
    /// Whether the deadline timer keeps the common call's deadline: only when the client does not retry
    /// failed connections, whose queued calls AsyncHTTPClient's own deadline reports with the reason
    /// the last connection failed.
    let sweepsDeadlines: Bool

    /// A client for the whole process (never shut down), configured like `HTTPClient.shared` except
    /// that it never follows redirects itself — every `3xx` answer comes back to the pipeline, which
    /// follows it by the service's ``Switchyard/RedirectPolicy``, the same rules as with the URLSession
    /// transport — accepts nothing older than TLS 1.2, and does not retry a connection that failed
    /// (see ``switchyardConfiguration(_:)``).
    public static let sharedClient = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: switchyardConfiguration(HTTPClient.Configuration.singletonConfiguration)
    )

    /// The most bytes a compressed response may inflate to in the client's decoder (64 MiB, as
    /// ``Switchyard/ContentCoding/decompressionLimit``); the transport's
    /// ``Configuration/maximumResponseBodySize`` then limits the decompressed body it keeps.
    public static let decompressionLimit = ContentCoding.decompressionLimit

    /// `configuration` with what Switchyard relies on: redirects left to the pipeline, gzip and
    /// deflate bodies decoded up to ``decompressionLimit`` (whatever the configuration said, so that
    /// this transport decodes what the URLSession transport decodes), TLS 1.2 as the oldest
    /// version accepted (unless the configuration already asks for a newer one), and no retry of a
    /// connection that failed (`connectionPool.retryConnectionEstablishment` off). A connection that
    /// cannot be made — refused, unresolved, a TLS failure, a connect timeout — then fails every call
    /// waiting for a connection to that host at once, with the reason (a
    /// ``Switchyard/SwitchyardError/Code/transport`` error, or a timeout for a connect timeout), as
    /// URLSession does, instead of AsyncHTTPClient retrying with backoff until each call's deadline
    /// and then reporting the reason. The pipeline's retry stage decides whether to try again. It
    /// also lets the transport keep deadlines on the kernel's timer instead of a timer per call.
    /// A tracer that records nothing (swift-distributed-tracing's `NoOpTracer`, what a process that
    /// bootstrapped no tracing system has) is dropped from the configuration, so that the client
    /// opens no span per request; any other tracer is kept.
    ///
    /// - Parameter configuration: an AsyncHTTPClient configuration.
    /// - Returns: the configuration to build a client for this transport from.
    public static func switchyardConfiguration(_ configuration: HTTPClient.Configuration) -> HTTPClient.Configuration {
        var configuration = configuration
        configuration.redirectConfiguration = .disallow
        // A connection that cannot be made fails its calls at once, with the reason (as URLSession's
        // does), instead of being retried until each call's deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.decompression = .enabled(limit: .size(decompressionLimit))
        var tls = configuration.tlsConfiguration ?? TLSConfiguration.makeClientConfiguration()
        if tls.minimumTLSVersion == .tlsv1 || tls.minimumTLSVersion == .tlsv11 { tls.minimumTLSVersion = .tlsv12 }
        configuration.tlsConfiguration = tls
        // A span of the no-op tracer records nothing, yet the client names each one by interpolating
        // the request's method (about 7,000 instructions a call on its delegate interface).
        if configuration.tracing.tracer is NoOpTracer { configuration.tracing.tracer = nil }
        return configuration
    }

    /// Creates a transport over a client; ``sharedClient`` by default. A client you pass stays yours to
    /// shut down; build it from ``switchyardConfiguration(_:)`` so that redirects follow the service's
    /// policy rather than the client's.
    ///
    /// - Parameters:
    ///   - client: the AsyncHTTPClient client.
    ///   - configuration: limits and timeouts.
    ///   - pinning: public keys the servers must present (see ``Pinning``); `nil` for no pinning.
    public init(
        client: HTTPClient = AsyncHTTPClientTransport.sharedClient,
        configuration: Configuration = Configuration(),
        pinning: Pinning? = nil
    ) {
        self.client = client
        self.configuration = configuration
        self.pinning = pinning
        self.tunnels = pinning.map(PinnedTunnels.init(pinning:))
        self.decodes = Self.decodesContent(client)
        self.deadlines = DeadlineTimer()
        self.sweepsDeadlines = !Self.retriesConnections(client)
    }

    /// Whether `client` retries failed connections, read from its configuration (which
    /// AsyncHTTPClient does not publish); assumed when it cannot be read.
    static func retriesConnections(_ client: HTTPClient) -> Bool {
        Mirror(reflecting: client).descendant("configuration", "connectionPool", "retryConnectionEstablishment") as? Bool ?? true
    }

    /// Whether `client` decodes gzip and deflate bodies, read from its configuration (which
    /// AsyncHTTPClient does not publish); assumed when it cannot be read.
    static func decodesContent(_ client: HTTPClient) -> Bool {
        guard let decompression = Mirror(reflecting: client).descendant("configuration", "decompression") as? HTTPClient.Decompression
        else { return true }
        if case .disabled = decompression { return false }
        return true
    }

    /// Runs `body` with a transport over a new client, then shuts the client down.
    ///
    /// ```swift
    /// try await AsyncHTTPClientTransport.withTransport(configuration: .init(timeout: .init(connect: .seconds(2)))) { transport in
    ///     let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, store: nil))
    ///     try registry.register(Service(.users, baseURL: url, transport: transport))
    ///     return try await APIClient(registry: registry).send(GetUser(id: 1)).value
    /// }   // the client is shut down here: let neither the transport nor the registry outlive the closure
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: the AsyncHTTPClient configuration.
    ///   - transportConfiguration: the transport's own configuration.
    ///   - pinning: public keys the servers must present (see ``Pinning``); `nil` for no pinning.
    ///   - body: the work to do with the transport; do not let the transport escape it.
    /// - Returns: what `body` returns.
    public static func withTransport<Result: Sendable>(
        configuration: HTTPClient.Configuration = HTTPClient.Configuration(),
        transportConfiguration: Configuration = Configuration(),
        pinning: Pinning? = nil,
        _ body: (AsyncHTTPClientTransport) async throws -> Result
    ) async throws -> Result {
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: switchyardConfiguration(configuration))
        let transport = AsyncHTTPClientTransport(client: client, configuration: transportConfiguration, pinning: pinning)
        let result: Result
        do {
            result = try await body(transport)
        } catch {
            await transport.closePinnedConnections()
            try? await client.shutdown()
            throw error
        }
        await transport.closePinnedConnections()
        try await client.shutdown()
        return result
    }

    /// `AsyncHTTPClient`.
    public var name: String { "AsyncHTTPClient" }

    /// `true`: a cancelled call's exchange is aborted, its caller's task left running.
    public var observesCallCancellation: Bool { true }

    /// Sends the request and collects the whole response body.
    public func send(_ request: Request, context: CallContext) async throws -> Response {
        // The common call — a body in memory, no progress, no download, no pinning — goes through a
        // task of AsyncHTTPClient's own, which a cancelled call aborts; the others run in a task the
        // call's cancellation can cancel.
        if tunnels == nil, context.transferObserver == nil, context.downloadTarget == nil, request.body?.stream == nil,
            context.streamBufferLimit == nil
        {
            return try await sendCollecting(request, context: context)
        }
        if streamsThroughDelegate(request, context: context) {
            return try await context.control.runCancellable { try await sendStreamedAnswer(request, context: context) }
        }
        return try await context.control.runCancellable { try await sendStreaming(request, context: context) }
    }

    /// The common call, collected in memory by a ``CollectingDelegate``.
    private func sendCollecting(_ request: Request, context: CallContext) async throws -> Response {
        let timeout = context.effectiveTimeout ?? configuration.fallbackTimeout
        let started = CallClock.now
        let deadline: NIODeadline = timeout.map { .now() + TimeAmount($0) } ?? .distantFuture
        do {
            var clientRequest = try Self.makeDelegateRequest(request)
            if let acceptEncoding = ContentCoding.acceptEncoding(for: request, context: context, decodes: decodes) {
                clientRequest.headers.replaceOrAdd(name: "Accept-Encoding", value: acceptEncoding)
            }
            let delegate = CollectingDelegate(
                limit: configuration.maximumResponseBodySize,
                request: request,
                deadline: deadline,
                decodes: decodes
            )
            // The deadline is the kernel's timer's to keep, not a timer of AsyncHTTPClient's per
            // request, unless the client retries failed connections (see `sweepsDeadlines`).
            let swept = sweepsDeadlines && deadline != .distantFuture
            if swept, timeout.map({ $0 <= .zero }) == true { throw HTTPClientError.deadlineExceeded }
            let task = client.execute(request: clientRequest, delegate: delegate, deadline: swept ? nil : deadline, logger: context.logger)
            let watch =
                swept ? timeout.map { deadlines.watch(until: started + $0) { task.fail(reason: HTTPClientError.deadlineExceeded) } } : nil
            defer { watch.map(deadlines.end) }
            let (responseHead, buffer) = try await context.control.withCancellationHandler {
                try await task.get()
            } onCancel: {
                task.cancel()
            }
            let head = Self.makeHead(status: responseHead.status, headers: responseHead.headers)
            let coding = ContentCoding.coding(of: head.headerFields)
            let decoded =
                decodes && ContentCoding.hasContent(head, method: request.method) && coding.map(Self.decodedCodings.contains) == true
            let body = request.method == .head ? Data() : buffer.map(Self.data) ?? Data()
            return Response(head: decoded ? ContentCoding.decoded(head, byteCount: Int64(body.count)) : head, bytes: body)
        } catch {
            throw Self.translate(error, request: request, timeout: timeout, elapsed: CallClock.now - started)
        }
    }

    /// Streamed bodies, progress, downloads and pinned connections, through AsyncHTTPClient's
    /// async interface.
    private func sendStreaming(_ request: Request, context: CallContext) async throws -> Response {
        let observer = context.transferObserver
        var clientRequest: HTTPClientRequest
        var pinned: (tunnel: PinnedTunnel, failuresBefore: Int)?
        if let tunnels {
            let (pinnedRequest, tunnel) = try await pinnedClientRequest(request, tunnels: tunnels, context: context)
            clientRequest = pinnedRequest
            pinned = (tunnel, tunnel.failureState.count)
        } else {
            clientRequest = try Self.makeClientRequest(request)
        }
        if let acceptEncoding = ContentCoding.acceptEncoding(for: request, context: context, decodes: decodes) {
            clientRequest.headers.replaceOrAdd(name: "Accept-Encoding", value: acceptEncoding)
        }
        if let streamed = request.body?.stream {
            let chunks = UploadChunks(source: .streamed(streamed), observer: observer)
            clientRequest.body = .stream(chunks, length: .known(chunks.length))
        } else if let observer, let body = request.body?.bytes {
            let chunks = UploadChunks(source: .memory(body), observer: observer)
            clientRequest.body = .stream(chunks, length: .known(chunks.length))
        }
        let timeout = context.effectiveTimeout ?? configuration.fallbackTimeout
        let started = CallClock.now
        let deadline: NIODeadline = timeout.map { .now() + TimeAmount($0) } ?? .distantFuture
        do {
            observer?.started()
            let response = try await client.execute(clientRequest, deadline: deadline, logger: context.logger)
            let head = Self.makeHead(response)
            try Self.checkCoding(head, request: request, decodes: decodes)
            // What the client's decoder removed: gzip or deflate, on a response that has content.
            let coding = ContentCoding.coding(of: head.headerFields)
            let decoded =
                decodes && ContentCoding.hasContent(head, method: request.method) && coding.map(Self.decodedCodings.contains) == true
            if request.method != .head, let target = context.downloadTarget, DownloadSink.accepts(head) {
                let sink = try DownloadSink(target: target, head: head, progress: observer?.received, decodedCoding: decoded ? coding : nil)
                let file = try await Self.download(response, into: sink, deadline: deadline)
                return Response(head: decoded ? ContentCoding.decoded(head, byteCount: file.byteCount) : head, body: .file(file))
            }
            if request.method != .head, let bufferLimit = context.streamBufferLimit {
                // The head's deadline ended with `execute`; the body is read as the consumer asks.
                let target = Self.target(of: request)
                let stream = ResponseStream(
                    control: context.control,
                    bufferLimit: bufferLimit,
                    translate: Self.midStreamTranslator(for: request, started: started)
                ) { writer in
                    try await Self.stream(response, to: writer, observer: observer, target: target)
                }
                var streamedHead = head
                if decoded {
                    // Decoded as it arrives: neither the coding nor the coded length describes it now.
                    streamedHead.headerFields[.contentEncoding] = nil
                    streamedHead.headerFields[.contentLength] = nil
                }
                return Response(head: streamedHead, body: .stream(stream))
            }
            let body =
                request.method == .head
                ? Data()
                : try await Self.collect(
                    response,
                    limit: configuration.maximumResponseBodySize,
                    target: Self.target(of: request),
                    deadline: deadline,
                    observer: observer
                )
            return Response(head: decoded ? ContentCoding.decoded(head, byteCount: Int64(body.count)) : head, bytes: body)
        } catch {
            if let pinned,
                let failure = Self.pinnedFailure(error, tunnel: pinned.tunnel, failuresBefore: pinned.failuresBefore, context: context)
            {
                throw failure
            }
            throw Self.translate(error, request: request, timeout: timeout, elapsed: CallClock.now - started)
        }
    }
}
