/// A stage that only changes the request on its way in.
///
/// ```swift
/// struct AcceptJSON: RequestStage {
///     func prepare(_ request: inout Request, context: CallContext) async throws {
///         request.headerFields[.accept] = "application/json"
///     }
/// }
/// ```
///
/// Implement only ``prepare(_:context:)``: the pipeline calls it directly (consecutive request
/// stages are run together, with one copy of the request), so an `intercept` of your own on a
/// `RequestStage` would not be used. Conform to ``Stage`` when you need `next` itself.
public protocol RequestStage: Stage {
    /// Changes `request` before it is passed on; throw to refuse the call.
    ///
    /// - Parameters:
    ///   - request: the request to change.
    ///   - context: the call's context.
    func prepare(_ request: inout Request, context: CallContext) async throws
}

extension RequestStage {
    /// Calls ``prepare(_:context:)`` and passes the result on.
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        var request = request
        try await prepare(&request, context: context)
        return try await next(request, context)
    }
}
