/// A ``RequestStage`` made from a closure.
///
/// ```swift
/// let locale = ClosureRequestStage(id: StageID("locale")!) { request, _ in
///     request.headerFields[.acceptLanguage] = "zh-Hans"
/// }
/// ```
public struct ClosureRequestStage: RequestStage {
    /// The stage's id.
    public let id: StageID
    private let body: @Sendable (inout Request, CallContext) async throws -> Void

    /// Creates a stage that changes requests.
    ///
    /// - Parameters:
    ///   - id: the stage's id.
    ///   - body: changes the request; throw to refuse the call.
    public init(id: StageID, _ body: @escaping @Sendable (inout Request, CallContext) async throws -> Void) {
        self.id = id
        self.body = body
    }

    /// Runs the closure.
    public func prepare(_ request: inout Request, context: CallContext) async throws {
        try await body(&request, context)
    }
}
