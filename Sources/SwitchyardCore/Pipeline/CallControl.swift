import Synchronization

/// What one call's context copies share: whether the call has been cancelled by the client's cancel
/// APIs (by id, tag, service, account, scope, a newer identical call or its deadline), how many times
/// it reached the transport and the last request that did, and — when the call asks for them — its
/// stage timings and the body the transport received.
///
/// A call runs in its caller's task, so cancelling it must not cancel that task: the client marks the
/// call's control instead, and the work in progress — the transport's exchange, a retry's wait —
/// learns of it through ``withCancellationHandler(operation:onCancel:)``. A transport that reacts to it
/// says so with ``Transport/observesCallCancellation``; any other transport's exchange runs in a task
/// of its own the pipeline can cancel (see ``runCancellable(_:)``).
///
/// ```swift
/// struct MyTransport: Transport {
///     var observesCallCancellation: Bool { true }
///     func send(_ request: Request, context: CallContext) async throws -> Response {
///         let exchange = Exchange(request)  // some cancellable work of the transport's own
///         return try await context.control.withCancellationHandler {
///             try await exchange.response()
///         } onCancel: {
///             exchange.abort()
///         }
///     }
/// }
/// ```
public final class CallControl: Sendable {
    /// Why a call ended before its answer.
    package enum Reason: Sendable {
        case cancelled(String)
        case deadline
    }

    private struct State {
        var reason: Reason?
        var handlers: [(Int, @Sendable () -> Void)] = []
        var nextHandler = 0
    }

    private let state = Mutex(State())
    /// Set once the call is cancelled: lets the common case, a call nobody cancelled, check without a lock.
    private let cancelled = Atomic<Bool>(false)
    private let sends = Atomic<Int>(0)
    /// Whether a cache or a shared call watches the credentials sent (rarely: only they pay for it).
    private let watchesRequests = Atomic<Bool>(false)
    private let sent = Mutex<[Request]>([])
    /// The last request that reached the transport, and — when ``keepsReceivedBody`` — the body of
    /// the last answer the transport gave (after redirects), before any stage rewrote it.
    private let exchange = Mutex<(request: Request?, body: Response.Body?)>((nil, nil))
    /// The stage timings being recorded, and the trace with them; `nil` unless the call asked for
    /// either.
    package let timings: StageTimingRecorder?
    /// Whether the body the transport received is kept (``receivedBody``); the call asks for it.
    package let keepsReceivedBody: Bool

    /// Creates the control of one call; the client makes one per call, tests and harnesses with
    /// their ``CallContext``.
    public convenience init() {
        self.init(recordsTimings: false)
    }

    package init(
        recordsTimings: Bool,
        trace: PipelineTrace.Detail? = nil,
        redaction: Redaction = .default,
        keepsReceivedBody: Bool = false
    ) {
        // A trace is recorded where the timings are: a traced call records both.
        self.timings =
            recordsTimings || trace != nil
            ? StageTimingRecorder(
                tracer: trace.map { StageTraceRecorder(detail: $0, redaction: redaction) },
                isRequested: recordsTimings
            ) : nil
        self.keepsReceivedBody = keepsReceivedBody
    }

    /// Whether the call has been cancelled (its caller's task may still run).
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// The error a cancelled call ends with; `nil` while it is not cancelled.
    public var cancellationError: SwitchyardError? {
        guard isCancelled else { return nil }
        return state.withLock { $0.reason }.map(Self.error(for:))
    }

    /// Runs `operation`; if the call is cancelled — or the task running it is — while it runs,
    /// `onCancel` runs once, at once if that already happened. `operation` should then end soon,
    /// throwing.
    ///
    /// - Parameters:
    ///   - operation: the work, typically a transport's exchange.
    ///   - onCancel: aborts the work; called at most once, on any thread.
    /// - Returns: what `operation` returns.
    public func withCancellationHandler<Value>(
        operation: () async throws -> Value,
        onCancel: @escaping @Sendable () -> Void
    ) async throws -> Value {
        let once = OnceHandler(onCancel)
        let registration: Int? = state.withLock { state in
            guard state.reason == nil else { return nil }
            let id = state.nextHandler
            state.nextHandler += 1
            state.handlers.append((id, once.run))
            return id
        }
        guard let registration else {
            once.run()
            return try await operation()
        }
        defer {
            state.withLock { state in state.handlers.removeAll { $0.0 == registration } }
        }
        return try await withTaskCancellationHandler(operation: operation, onCancel: once.run)
    }

    /// Registers `handler` to run once when the call is cancelled, for as long as something outlives
    /// the call's send (a streamed body); `nil` when the call is cancelled already (the handler is not
    /// kept). Undo with ``unregister(_:)``.
    package func register(_ handler: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { state in
            guard state.reason == nil else { return nil }
            let id = state.nextHandler
            state.nextHandler += 1
            state.handlers.append((id, handler))
            return id
        }
    }

    /// Removes a handler ``register(_:)`` added.
    package func unregister(_ registration: Int) {
        state.withLock { state in state.handlers.removeAll { $0.0 == registration } }
    }

    /// Runs `operation` in a task of its own that is cancelled when the call is (or the calling task
    /// is): how the pipeline runs a transport that does not observe call cancellation itself, and how
    /// a stage can make any wait end promptly.
    ///
    /// - Parameter operation: the work.
    /// - Returns: what `operation` returns.
    public func runCancellable<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = ImmediateTask.startThrowing(operation)
        return try await withCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Marks the call cancelled for `reason` and runs the registered handlers; `false` when it
    /// already was.
    @discardableResult
    func cancel(_ reason: Reason) -> Bool {
        guard let handlers = mark(reason) else { return false }
        handlers.run()
        return true
    }

    /// The handlers a cancellation must run, taken from the control when it was marked.
    package struct PendingHandlers: Sendable {
        fileprivate let handlers: [(Int, @Sendable () -> Void)]

        /// Runs them; call it outside any lock.
        package func run() {
            for (_, handler) in handlers { handler() }
        }
    }

    /// Marks the call cancelled for `reason` without running its handlers, so that a caller holding
    /// a lock can mark it atomically with its own bookkeeping; `nil` when it already was.
    package func mark(_ reason: Reason) -> PendingHandlers? {
        state.withLock { state in
            guard state.reason == nil else { return nil }
            state.reason = reason
            cancelled.store(true, ordering: .releasing)
            defer { state.handlers.removeAll() }
            return PendingHandlers(handlers: state.handlers)
        }
    }

    /// What the call's stages did so far, redacted, when the call is traced; `nil` otherwise.
    package var trace: PipelineTrace? { timings?.tracer?.trace() }

    /// Why the call was cancelled; `nil` while it is not.
    package var reason: Reason? { state.withLock { $0.reason } }

    /// Records one request reaching the transport, and keeps it once a cache or a shared call
    /// watches what the call sends (``watchSentRequests()``).
    func recordTransportSend(_ request: borrowing Request) {
        sends.add(1, ordering: .relaxed)
        let request = copy request
        exchange.withLock { $0.request = request }
        guard watchesRequests.load(ordering: .acquiring) else { return }
        sent.withLock { $0.append(request) }
    }

    /// Keeps the body of an answer the transport gave, when the call asked for it.
    func recordReceived(_ body: Response.Body) {
        exchange.withLock { $0.body = body }
    }

    /// The last request of the call that reached the transport, as every stage left it; `nil` when
    /// none did (a stage answered: a cache hit, a stub).
    package var lastSentRequest: Request? { exchange.withLock { $0.request } }

    /// The body of the last answer the transport gave, as received; `nil` unless the call keeps it
    /// (``keepsReceivedBody``) and the transport answered.
    package var receivedBody: Response.Body? { exchange.withLock { $0.body } }

    /// From now on, keeps every request of the call that reaches the transport.
    package func watchSentRequests() { watchesRequests.store(true, ordering: .releasing) }

    /// The requests of the call that reached the transport since ``watchSentRequests()``.
    package var sentRequests: [Request] { sent.withLock { $0 } }

    /// How many requests reached the transport.
    package var transportSends: Int { sends.load(ordering: .relaxed) }

    package static func error(for reason: Reason) -> SwitchyardError {
        switch reason {
        case .cancelled(let why): SwitchyardError(code: .cancelled, message: "The call was cancelled: \(why).")
        case .deadline: SwitchyardError(code: .timeout, message: "the call's deadline passed before it was answered")
        }
    }
}

/// A handler that runs at most once, whoever calls it first.
private final class OnceHandler: Sendable {
    private let handler: Mutex<(@Sendable () -> Void)?>

    init(_ handler: @escaping @Sendable () -> Void) {
        self.handler = Mutex(handler)
    }

    @Sendable func run() {
        let handler = handler.withLock { handler in
            defer { handler = nil }
            return handler
        }
        handler?()
    }
}
