/// A stage made from a closure, for one-off stages in apps and tests.
///
/// ```swift
/// let timing = ClosureStage(id: StageID("timing")!) { request, context, next in
///     let start = ContinuousClock.now
///     defer { print(context.requestID, ContinuousClock.now - start) }
///     return try await next(request, context)
/// }
/// ```
public struct ClosureStage: Stage {
    /// The stage's id.
    public let id: StageID
    private let body: @Sendable (Request, CallContext, NextStage) async throws -> Response

    /// Creates a stage.
    ///
    /// - Parameters:
    ///   - id: the stage's id.
    ///   - body: what the stage does; it receives the request, the context and `next`.
    public init(id: StageID, _ body: @escaping @Sendable (Request, CallContext, NextStage) async throws -> Response) {
        self.id = id
        self.body = body
    }

    /// Runs the closure.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        try await body(request, context, next)
    }
}
