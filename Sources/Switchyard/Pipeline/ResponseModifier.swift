/// A ``ResponseStage`` made from a closure.
///
/// ```swift
/// let stamp = ResponseModifier(name: "stamp") { response, _, context in
///     response.headerFields[HTTPField.Name("X-Request-ID")!] = context.requestID.description
/// }
/// ```
public struct ResponseModifier: ResponseStage {
    /// The stage's name.
    public let name: String
    private let body: @Sendable (inout Response, Request, CallContext) async throws -> Void

    /// Creates a stage that changes responses.
    ///
    /// - Parameters:
    ///   - name: the stage's name.
    ///   - body: changes the response; it also receives the request as passed on, and the context.
    public init(name: String, _ body: @escaping @Sendable (inout Response, Request, CallContext) async throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the closure.
    public func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
        try await body(&response, request, context)
    }
}
