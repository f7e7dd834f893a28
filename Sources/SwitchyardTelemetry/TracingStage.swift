public import HTTPTypes
public import SwitchyardCore
public import Tracing
public import W3CTraceContext

/// Traces every call with swift-distributed-tracing — one client span per call — and propagates the
/// trace to the backend in a W3C `traceparent` header (plus `tracestate` when there is one).
///
/// - The span is named `<METHOD> <endpoint>` (or the path for unnamed calls), is a child of the
///   task's current `ServiceContext` (a server request being handled, a parent span), and carries
///   `http.request.method`, `server.address`, `url.path`, `http.response.status_code`,
///   `switchyard.service`, `switchyard.endpoint` and `switchyard.request_id`. A failure is recorded on
///   the span and sets its status to error, as does a 5xx answer.
/// - A streamed answer's span lasts until its stream ends, and a stream that fails (a dropped
///   connection, a cancellation) marks it as an error.
/// - The rest of the pipeline runs inside the span's context, so a nested call a stage makes (a
///   token refresh) becomes a child span of this one.
/// - The tracer's own propagation is applied first (`Tracer.inject`, which writes `traceparent` with
///   an OpenTelemetry tracer and W3C propagator). If it writes no `traceparent`, the stage writes one
///   itself: the same trace as an incoming W3C parent found in the context, or a new random trace, and
///   a new span id — so a backend always receives a valid W3C trace context.
///
/// Register it outermost, next to ``MetricsStage``.
public struct TracingStage: Stage {
    /// The tracer to use instead of the bootstrapped one (`InstrumentationSystem.tracer`).
    public let tracer: (any Tracer)?

    /// ``StageID/tracing``.
    public var id: StageID { .tracing }

    /// Creates the stage.
    public init(tracer: (any Tracer)? = nil) {
        self.tracer = tracer
    }

    /// Runs the rest of the pipeline inside a client span.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        let tracer = self.tracer ?? InstrumentationSystem.tracer
        var parent = ServiceContext.current ?? .topLevel
        let trace = Self.childTrace(of: parent[W3CTraceContextKey.self])
        parent[W3CTraceContextKey.self] = trace
        let operation =
            "\(request.method.rawValue) \(context.endpointName.isEmpty ? String(request.pathWithoutQuery) : context.endpointName)"
        let span = tracer.startSpan(operation, context: parent, ofKind: .client)
        span.attributes["http.request.method"] = request.method.rawValue
        if let authority = request.head.authority { span.attributes["server.address"] = authority }
        span.attributes["url.path"] = String(request.pathWithoutQuery)
        span.attributes["switchyard.service"] = context.serviceID.rawValue
        if !context.endpointName.isEmpty { span.attributes["switchyard.endpoint"] = context.endpointName }
        span.attributes["switchyard.request_id"] = "\(context.requestID)"
        // A streamed answer's span ends with its stream; every other call's span here.
        var streams = false
        defer { if !streams { span.end() } }

        var traced = request
        tracer.inject(span.context, into: &traced.headerFields, using: HTTPFieldsInjector())
        if traced.headerFields[Self.traceparent] == nil {
            traced.headerFields[Self.traceparent] = trace.traceParentHeaderValue
            if let state = trace.traceStateHeaderValue, !state.isEmpty { traced.headerFields[Self.tracestate] = state }
        }
        do {
            let response = try await ServiceContext.$current.withValue(span.context) {
                try await next(traced, context)
            }
            span.attributes["http.response.status_code"] = response.status.code
            if response.status.code >= 500 { span.setStatus(SpanStatus(code: .error, message: "HTTP \(response.status.code)")) }
            guard let stream = response.body.stream else { return response }
            streams = true
            var streamed = response
            streamed.body = .stream(
                stream.onEnd { failure in
                    if let failure { Self.record(failure, on: span) }
                    span.end()
                }
            )
            return streamed
        } catch {
            let failure = SwitchyardError.wrapping(error)
            if let status = failure.status { span.attributes["http.response.status_code"] = status.code }
            Self.record(failure, on: span)
            throw error
        }
    }

    /// Marks the span failed with `failure`.
    private static func record(_ failure: SwitchyardError, on span: any Span) {
        span.recordError(failure)
        span.setStatus(SpanStatus(code: .error, message: "\(failure.code): \(failure.message)"))
    }

    /// The W3C `traceparent` field name.
    public static let traceparent = HTTPField.Name("traceparent")!
    /// The W3C `tracestate` field name.
    public static let tracestate = HTTPField.Name("tracestate")!

    /// A trace context for a new span under `parent`: the parent's trace and flags, or a new sampled trace.
    static func childTrace(of parent: TraceContext?) -> TraceContext {
        guard let parent else {
            return TraceContext(traceID: .random(), spanID: .random(), flags: .sampled, state: TraceState())
        }
        return TraceContext(traceID: parent.traceID, spanID: .random(), flags: parent.flags, state: parent.state)
    }
}

/// The `ServiceContext` key under which the W3C trace context of the current Switchyard span is kept
/// — set by ``TracingStage``, and by a server that extracted an incoming `traceparent`.
public enum W3CTraceContextKey: ServiceContextKey {
    /// The trace context.
    public typealias Value = TraceContext
    /// The key's name.
    public static var nameOverride: String? { "w3c-trace-context" }
}

/// Writes propagated values into a request's header fields.
struct HTTPFieldsInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        carrier[name] = value
    }
}
