/// A stage made from a closure, for one-off stages in apps and tests: one type, three constructors —
/// around the rest of the chain, on the request only, or on the response only.
///
/// ```swift
/// let timing = ClosureStage(id: "timing") { request, context, next in
///     let start = ContinuousClock.now
///     defer { print(context.requestID, ContinuousClock.now - start) }
///     return try await next(request, context)
/// }
/// let locale = ClosureStage.request(id: "locale") { request, _ in
///     request.headerFields[.acceptLanguage] = "zh-Hans"
/// }
/// let served = ClosureStage.response(id: "served") { response, _, _ in
///     response.headerFields[.init("X-Served-By")!] = nil
/// }
/// ```
///
/// A request or response closure runs as a ``RequestStage`` or ``ResponseStage`` would: the pipeline
/// folds it with its neighbours of the same kind. A closure that does not `await` (`locale` and
/// `served` above) is called as a plain function, the cheapest stage a pipeline runs; one that does
/// costs an asynchronous frame per call.
public struct ClosureStage: Stage {
    /// The stage's id.
    public let id: StageID
    /// What the closure does, and where.
    let kind: Kind

    /// The three places a closure can sit.
    enum Kind: Sendable {
        case around(@Sendable (Request, CallContext, NextStage) async throws -> Response)
        case request(@Sendable (inout Request, CallContext) async throws -> Void)
        case response(@Sendable (inout Response, Request, CallContext) async throws -> Void)
        case synchronousRequest(@Sendable (inout Request, CallContext) throws -> Void)
        case synchronousResponse(@Sendable (inout Response, Request, CallContext) throws -> Void)
    }

    /// Creates a stage around the rest of the chain.
    ///
    /// - Parameters:
    ///   - id: the stage's id.
    ///   - body: what the stage does; it receives the request, the context and `next`.
    public init(id: StageID, _ body: @escaping @Sendable (Request, CallContext, NextStage) async throws -> Response) {
        self.init(id: id, kind: .around(body))
    }

    private init(id: StageID, kind: Kind) {
        self.id = id
        self.kind = kind
    }

    /// A stage that changes requests.
    ///
    /// - Parameters:
    ///   - id: the stage's id.
    ///   - body: changes the request; throw to refuse the call.
    /// - Returns: the stage.
    public static func request(id: StageID, _ body: @escaping @Sendable (inout Request, CallContext) async throws -> Void) -> ClosureStage {
        ClosureStage(id: id, kind: .request(body))
    }

    /// A stage that changes requests without waiting: called as a plain function.
    ///
    /// - Parameters:
    ///   - id: the stage's id.
    ///   - body: changes the request; throw to refuse the call.
    /// - Returns: the stage.
    public static func request(id: StageID, _ body: @escaping @Sendable (inout Request, CallContext) throws -> Void) -> ClosureStage {
        ClosureStage(id: id, kind: .synchronousRequest(body))
    }

    /// A stage that changes responses without waiting: called as a plain function.
    ///
    /// - Parameters:
    ///   - id: the stage's id.
    ///   - body: changes the response (it also receives the request as sent and the context); throw
    ///     to fail the call.
    /// - Returns: the stage.
    public static func response(
        id: StageID,
        _ body: @escaping @Sendable (inout Response, Request, CallContext) throws -> Void
    ) -> ClosureStage {
        ClosureStage(id: id, kind: .synchronousResponse(body))
    }

    /// A stage that changes responses.
    ///
    /// - Parameters:
    ///   - id: the stage's id.
    ///   - body: changes the response (it also receives the request as sent and the context); throw
    ///     to fail the call.
    /// - Returns: the stage.
    public static func response(
        id: StageID,
        _ body: @escaping @Sendable (inout Response, Request, CallContext) async throws -> Void
    ) -> ClosureStage {
        ClosureStage(id: id, kind: .response(body))
    }

    /// Runs the closure in its place.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        try await Pipeline.run(self.folded, request, context: context, next: next)
    }

    /// The stage as the fold runs it: a request or response closure as a stage of that kind.
    package var folded: any Stage {
        switch kind {
        case .around(let body): Around(id: id, body: body)
        case .request(let body): RequestClosure(id: id, body: body)
        case .response(let body): ResponseClosure(id: id, body: body)
        case .synchronousRequest(let body): SynchronousRequestClosure(id: id, body: body)
        case .synchronousResponse(let body): SynchronousResponseClosure(id: id, body: body)
        }
    }

    /// A closure around the rest of the chain.
    private struct Around: Stage {
        let id: StageID
        let body: @Sendable (Request, CallContext, NextStage) async throws -> Response

        func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
            try await body(request, context, next)
        }
    }

    /// A closure on the request.
    private struct RequestClosure: RequestStage {
        let id: StageID
        let body: @Sendable (inout Request, CallContext) async throws -> Void

        func prepare(_ request: inout Request, context: CallContext) async throws {
            try await body(&request, context)
        }
    }

    /// A closure on the request that never waits.
    private struct SynchronousRequestClosure: SynchronousRequestStage {
        let id: StageID
        let body: @Sendable (inout Request, CallContext) throws -> Void

        func prepareSynchronously(_ request: inout Request, context: CallContext) throws {
            try body(&request, context)
        }
    }

    /// A closure on the response that never waits.
    private struct SynchronousResponseClosure: SynchronousResponseStage {
        let id: StageID
        let body: @Sendable (inout Response, Request, CallContext) throws -> Void

        func processSynchronously(_ response: inout Response, for request: Request, context: CallContext) throws {
            try body(&response, request, context)
        }
    }

    /// A closure on the response.
    private struct ResponseClosure: ResponseStage {
        let id: StageID
        let body: @Sendable (inout Response, Request, CallContext) async throws -> Void

        func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
            try await body(&response, request, context)
        }
    }
}
