public import Metrics
public import SwitchyardCore

/// Counts and times every call on swift-metrics, per service, endpoint and outcome.
///
/// Two metrics, named from ``prefix`` (`switchyard` by default):
/// - `<prefix>_calls_total`, a counter;
/// - `<prefix>_call_duration`, a timer (nanoseconds);
///
/// each with the dimensions `service`, `endpoint` and `outcome` — `success`, or the failure's
/// ``SwitchyardError/Code`` (`timeout`, `httpStatus`, `business`, …) — plus `status` when a response
/// arrived. Use whichever metrics backend is bootstrapped (`MetricsSystem.bootstrap`): Prometheus,
/// OpenTelemetry, StatsD.
///
/// A streamed answer is recorded when its stream ends: its duration covers the whole stream, and its
/// outcome is the error that ended it (`transport`, `cancelled`, …) or `success`.
///
/// Register it outermost, so the duration covers every stage, retries included.
public struct MetricsStage: Stage {
    /// The metric name prefix.
    public let prefix: String
    /// The metrics factory to use instead of the bootstrapped one (tests pass a `TestMetrics`).
    public let factory: (any MetricsFactory)?

    /// ``StageID/metrics``.
    public var id: StageID { .metrics }

    /// Creates the stage.
    public init(prefix: String = "switchyard", factory: (any MetricsFactory)? = nil) {
        self.prefix = prefix
        self.factory = factory
    }

    /// Times the rest of the pipeline and records the outcome.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        let start = ContinuousClock.now
        do {
            var response = try await next(request, context)
            let status = response.status.code
            if let stream = response.body.stream {
                // A streamed answer is timed, and its outcome taken, when its stream ends.
                response.body = .stream(
                    stream.onEnd { [self] failure in
                        record(
                            context: context,
                            outcome: failure?.code.rawValue ?? "success",
                            status: status,
                            elapsed: ContinuousClock.now - start
                        )
                    }
                )
                return response
            }
            record(context: context, outcome: "success", status: status, elapsed: ContinuousClock.now - start)
            return response
        } catch {
            let failure = SwitchyardError.wrapping(error)
            record(context: context, outcome: failure.code.rawValue, status: failure.status?.code, elapsed: ContinuousClock.now - start)
            throw error
        }
    }

    private func record(context: CallContext, outcome: String, status: Int?, elapsed: Duration) {
        var dimensions = [
            ("service", context.serviceID.rawValue),
            ("endpoint", context.endpointName.isEmpty ? "unnamed" : context.endpointName),
            ("outcome", outcome),
        ]
        if let status { dimensions.append(("status", String(status))) }
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        if let factory {
            Counter(label: "\(prefix)_calls_total", dimensions: dimensions, factory: factory).increment()
            Timer(label: "\(prefix)_call_duration", dimensions: dimensions, factory: factory).recordNanoseconds(nanoseconds)
        } else {
            Counter(label: "\(prefix)_calls_total", dimensions: dimensions).increment()
            Timer(label: "\(prefix)_call_duration", dimensions: dimensions).recordNanoseconds(nanoseconds)
        }
    }
}
