/// A ``RequestStage`` made from a closure.
///
/// ```swift
/// let locale = RequestModifier(name: "locale") { request, _ in
///     request.headerFields[.acceptLanguage] = "zh-Hans"
/// }
/// ```
public struct RequestModifier: RequestStage {
    /// The stage's name.
    public let name: String
    private let body: @Sendable (inout Request, CallContext) async throws -> Void

    /// Creates a stage that changes requests.
    ///
    /// - Parameters:
    ///   - name: the stage's name.
    ///   - body: changes the request; throw to refuse the call.
    public init(name: String, _ body: @escaping @Sendable (inout Request, CallContext) async throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the closure.
    public func prepare(_ request: inout Request, context: CallContext) async throws {
        try await body(&request, context)
    }
}
