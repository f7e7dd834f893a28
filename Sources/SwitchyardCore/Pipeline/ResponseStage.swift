/// A stage that only changes the response on its way out.
///
/// ```swift
/// struct RejectEmptyBodies: ResponseStage {
///     func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
///         if response.bytes.isEmpty { throw SwitchyardError(code: .invalidResponse, message: "empty body") }
///     }
/// }
/// ```
///
/// Implement only ``process(_:for:context:)``: the pipeline calls it directly (consecutive response
/// stages are run together), so an `intercept` of your own on a `ResponseStage` would not be used.
/// Conform to ``Stage`` when you need `next` itself.
public protocol ResponseStage: Stage {
    /// Changes `response` before the stages outside this one see it; throw to fail the call.
    ///
    /// - Parameters:
    ///   - response: the response to change.
    ///   - request: the request as this stage passed it on.
    ///   - context: the call's context.
    func process(_ response: inout Response, for request: Request, context: CallContext) async throws
}

extension ResponseStage {
    /// Passes the request on and calls ``process(_:for:context:)`` on the response.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        var response = try await next(request, context)
        try await process(&response, for: request, context: context)
        return response
    }
}
