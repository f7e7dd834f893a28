/// A ``ResponseStage`` made from a closure.
///
/// ```swift
/// let stamp = ClosureResponseStage(id: StageID("stamp")!) { response, _, context in
///     response.headerFields[HTTPField.Name("X-Request-ID")!] = context.requestID.description
/// }
/// ```
public struct ClosureResponseStage: ResponseStage {
    /// The stage's id.
    public let id: StageID
    private let body: @Sendable (inout Response, Request, CallContext) async throws -> Void

    /// Creates a stage that changes responses.
    ///
    /// - Parameters:
    ///   - id: the stage's id.
    ///   - body: changes the response; it also receives the request as passed on, and the context.
    public init(id: StageID, _ body: @escaping @Sendable (inout Response, Request, CallContext) async throws -> Void) {
        self.id = id
        self.body = body
    }

    /// Runs the closure.
    public func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
        try await body(&response, request, context)
    }
}
