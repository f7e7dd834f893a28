public import HTTPTypes
public import Switchyard
import Synchronization

/// Runs one stage in isolation, with a fake `next`, and shows what reached `next` and what came back.
///
/// ```swift
/// let harness = StageHarness(AcceptJSON())
/// let run = await harness.run(try .fixture(.get, "https://api.test/users/1"), respond: .json("{}"))
/// #expect(run.forwarded.first?.request.headerFields[.accept] == "application/json")
/// #expect(run.response?.status == .ok)
/// ```
///
/// The harness runs the stage exactly as a service's pipeline does — it *is* a one-stage pipeline
/// whose transport is the fake `next` — so a ``RequestStage`` runs its `prepare`, a ``ResponseStage``
/// its `process`, an opt-in stage (``Stage/optIn()``) only when the context enables it, and errors
/// are converted to ``SwitchyardError`` and blamed as a pipeline blames them: an error the stage
/// throws names the stage's ``Stage/id``, an error from `respond` names ``StageID/transport``.
///
/// The fake `next` records every call (a retrying stage calls it more than once, a short-circuiting
/// stage not at all) and answers each with `respond`.
public struct StageHarness<StageUnderTest: Stage>: Sendable {
    /// The stage under test.
    public let stage: StageUnderTest

    /// Creates a harness around a stage.
    public init(_ stage: StageUnderTest) { self.stage = stage }

    /// Runs the stage once with a canned answer for `next`.
    ///
    /// - Parameters:
    ///   - request: the request handed to the stage.
    ///   - context: the context handed to the stage; a fresh one for service `harness` by default.
    ///   - respond: how the fake `next` answers; `200 OK` with an empty body by default.
    /// - Returns: what reached `next`, and the stage's response or error.
    public func run(_ request: Request, context: CallContext? = nil, respond: MockResponse = .status(.ok)) async -> HarnessRun {
        let next = ForwardingTransport(respond: respond)
        var callContext = context ?? CallContext(serviceID: "harness", endpointName: "harness")
        // The run is traced: the context's control is replaced by a traced one that the given control's
        // cancellation still reaches.
        let given = callContext.control
        let traced = CallControl(recordsTimings: false, trace: .diffs)
        callContext.control = traced
        let bridge = given.register { if let reason = given.reason { traced.mark(reason)?.run() } }
        if bridge == nil, let reason = given.reason { traced.mark(reason)?.run() }
        defer { if let bridge { given.unregister(bridge) } }
        let pipeline = Pipeline(serviceID: callContext.serviceID, stages: [stage], transport: next)
        let outcome: Result<Response, SwitchyardError>
        do {
            outcome = .success(try await pipeline.send(request, context: callContext))
        } catch {
            outcome = .failure(error)
        }
        return HarnessRun(forwarded: next.calls, outcome: outcome, trace: traced.trace ?? PipelineTrace(steps: []))
    }
}

/// The fake `next` of a ``StageHarness`` run: a transport that records what reached it and answers
/// with the canned response.
private final class ForwardingTransport: Transport {
    private let respond: MockResponse
    private let recorded = Mutex<[HarnessRun.ForwardedCall]>([])

    init(respond: MockResponse) { self.respond = respond }

    var name: String { "StageHarness" }

    var calls: [HarnessRun.ForwardedCall] { recorded.withLock { $0 } }

    func send(_ request: Request, context: CallContext) async throws -> Response {
        recorded.withLock { $0.append(HarnessRun.ForwardedCall(request: request, context: context)) }
        return try await respond.respond(request, context)
    }
}

/// The outcome of one ``StageHarness`` run.
public struct HarnessRun: Sendable {
    /// One call the stage made to `next`.
    public struct ForwardedCall: Sendable {
        /// The request as the stage passed it on.
        public let request: Request
        /// The context as the stage passed it on.
        public let context: CallContext
    }

    /// Every call the stage made to `next`, in order (empty when it short-circuited).
    public let forwarded: [ForwardedCall]
    /// The stage's response, or the error it threw.
    public let outcome: Result<Response, SwitchyardError>
    /// What the stage did, redacted as logs are (``Redaction/default``): its step — the request as it
    /// received it against the one it passed on, the response it got against the one it returned,
    /// its outcome and time — then `next`'s, as ``StageID/transport``.
    ///
    /// ```swift
    /// let run = await StageHarness(HeadersStage([.fixed(.accept, "application/json")])).run(request)
    /// #expect(run.trace.steps[0].request[.header, "Accept"]?.after == "application/json")
    /// ```
    public let trace: PipelineTrace

    /// The stage's own step of ``trace``.
    public var step: StageTrace? { trace.steps.first }

    /// The stage's response, if it returned one.
    public var response: Response? { try? outcome.get() }

    /// The error the stage threw, if it threw.
    public var error: SwitchyardError? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    /// Whether the stage called `next` at least once.
    public var calledNext: Bool { !forwarded.isEmpty }

    /// The first request that reached `next`.
    public var forwardedRequest: Request? { forwarded.first?.request }
}
