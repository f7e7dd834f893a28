/// Interceptor hooks around a call, as one stage: refuse it before it goes out,
/// watch it go, veto or watch a success, recover from or watch a failure.
///
/// The hooks run in this order:
/// 1. ``Hooks/willSend`` — before anything is sent; throw to refuse the call (for example because
///    its parameters are invalid). Nothing reaches the stages inside or the network; the call ends
///    with your error, or ``SwitchyardError/Code/refused`` when what you throw is not a
///    ``SwitchyardError``. The refusal goes through the failure hooks below.
/// 2. ``Hooks/didSend`` — the request has been sent and the exchange is over (either way).
/// 3. On success, ``Hooks/willSucceed`` — may return the response (changed or not) or throw to turn the
///    success into a failure, which then goes through the failure hooks; then ``Hooks/didSucceed``.
/// 4. On failure, ``Hooks/willFail`` — may return a response to recover (the call then succeeds with
///    it, and ``Hooks/didSucceed`` runs), return `nil` to let the failure stand, or throw another
///    error; then ``Hooks/didFail``.
///
/// Register it with a service's stages, or for one call with ``CallOptions/intercept(_:)``.
public struct InterceptorStage: Stage {
    /// The hooks; leave out the ones you do not need.
    public struct Hooks: Sendable {
        /// Before sending; throw to refuse the call.
        public var willSend: (@Sendable (Request, CallContext) async throws -> Void)?
        /// After the exchange, whatever its outcome.
        public var didSend: (@Sendable (Request, CallContext) async -> Void)?
        /// Before the call succeeds; return the response to deliver, or throw to fail the call.
        public var willSucceed: (@Sendable (Response, CallContext) async throws -> Response)?
        /// After the call succeeded.
        public var didSucceed: (@Sendable (Response, CallContext) async -> Void)?
        /// Before the call fails; return a response to recover, `nil` to fail, or throw another error.
        public var willFail: (@Sendable (SwitchyardError, CallContext) async throws -> Response?)?
        /// After the call failed.
        public var didFail: (@Sendable (SwitchyardError, CallContext) async -> Void)?

        /// Creates a set of hooks.
        public init(
            willSend: (@Sendable (Request, CallContext) async throws -> Void)? = nil,
            didSend: (@Sendable (Request, CallContext) async -> Void)? = nil,
            willSucceed: (@Sendable (Response, CallContext) async throws -> Response)? = nil,
            didSucceed: (@Sendable (Response, CallContext) async -> Void)? = nil,
            willFail: (@Sendable (SwitchyardError, CallContext) async throws -> Response?)? = nil,
            didFail: (@Sendable (SwitchyardError, CallContext) async -> Void)? = nil
        ) {
            self.willSend = willSend
            self.didSend = didSend
            self.willSucceed = willSucceed
            self.didSucceed = didSucceed
            self.willFail = willFail
            self.didFail = didFail
        }
    }

    /// The hooks.
    public let hooks: Hooks
    /// The stage's id, ``StageID/interceptor`` unless you give another.
    public let id: StageID

    /// Creates the stage.
    public init(id: StageID = .interceptor, _ hooks: Hooks) {
        self.id = id
        self.hooks = hooks
    }

    /// Runs the hooks around the rest of the pipeline.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        var failure: SwitchyardError
        do {
            if let willSend = hooks.willSend {
                do {
                    try await willSend(request, context)
                } catch {
                    throw Self.refusal(error)
                }
                try Task.checkCancellation()
            }
            let response: Response
            do {
                response = try await next(request, context)
            } catch {
                await hooks.didSend?(request, context)
                throw error
            }
            await hooks.didSend?(request, context)
            let delivered = try await hooks.willSucceed?(response, context) ?? response
            await hooks.didSucceed?(delivered, context)
            return delivered
        } catch {
            failure = SwitchyardError.wrapping(error, stage: id)
        }
        if let willFail = hooks.willFail {
            do {
                if let recovered = try await willFail(failure, context) {
                    await hooks.didSucceed?(recovered, context)
                    return recovered
                }
            } catch {
                failure = SwitchyardError.wrapping(error, stage: id)
            }
        }
        await hooks.didFail?(failure, context)
        throw failure
    }

    private static func refusal(_ error: any Error) -> SwitchyardError {
        if let error = error as? SwitchyardError { return error }
        if error is CancellationError { return SwitchyardError.wrapping(error) }
        return SwitchyardError(code: .refused, message: "the call was refused before it was sent: \(error)", underlyingError: error)
    }
}

extension StageID {
    /// The ``InterceptorStage`` that ``CallOptions/intercept(_:)`` adds to one call.
    public static let callInterceptor = StageID("CallInterceptor")!
}

extension CallOptions {
    /// Runs interceptor hooks around this call alone, outside the service's stages.
    public mutating func intercept(_ hooks: InterceptorStage.Hooks) {
        additionalStages.append(InterceptorStage(id: .callInterceptor, hooks))
    }
}
