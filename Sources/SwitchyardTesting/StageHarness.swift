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
/// The fake `next` records every call (a retrying stage calls it more than once, a short-circuiting
/// stage not at all) and answers each with `respond`. Errors are caught and reported in the run,
/// converted to ``SwitchyardError`` as a pipeline would: an error the stage throws names the stage,
/// and an error from `respond` names `"transport"`.
public struct StageHarness<Stage: Middleware>: Sendable {
    /// The stage under test.
    public let stage: Stage

    /// Creates a harness around a stage.
    public init(_ stage: Stage) { self.stage = stage }

    /// Runs the stage once with a canned answer for `next`.
    ///
    /// - Parameters:
    ///   - request: the request handed to the stage.
    ///   - context: the context handed to the stage; a fresh one for service `harness` by default.
    ///   - respond: how the fake `next` answers; `200 OK` with an empty body by default.
    /// - Returns: what reached `next`, and the stage's response or error.
    public func run(_ request: Request, context: CallContext? = nil, respond: MockResponse = .status(.ok)) async -> HarnessRun {
        let calls = Mutex<[HarnessRun.ForwardedCall]>([])
        let next: NextStage = { request, context in
            calls.withLock { $0.append(HarnessRun.ForwardedCall(request: request, context: context)) }
            do {
                return try await respond.respond(request, context)
            } catch {
                // The fake `next` stands for the transport, as in a pipeline whose last stage this is.
                throw SwitchyardError.wrapping(error, as: .transport, stage: "transport")
            }
        }
        let callContext = context ?? CallContext(serviceID: ServiceID("harness")!, endpointName: "harness")
        let outcome: Result<Response, SwitchyardError>
        do {
            outcome = .success(try await stage.intercept(request, context: callContext, next: next))
        } catch {
            outcome = .failure(SwitchyardError.wrapping(error, stage: stage.name))
        }
        return HarnessRun(forwarded: calls.withLock { $0 }, outcome: outcome)
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
