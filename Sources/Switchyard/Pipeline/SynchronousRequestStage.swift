/// A ``RequestStage`` whose change to the request never waits: setting a fixed header field,
/// adding a parameter, refusing a request that breaks a rule.
///
/// ```swift
/// struct AcceptJSON: SynchronousRequestStage {
///     func prepare(_ request: inout Request, context: CallContext) throws {
///         request.headerFields[.accept] = "application/json"
///     }
/// }
/// ```
///
/// Write the same `prepare` as for a ``RequestStage``, without `async`: that one method serves both
/// protocols. The pipeline calls it directly, as a plain function call, where it would otherwise
/// start an asynchronous frame for every stage on every call — the cheapest stage a pipeline can
/// run. Everywhere else (inside an ``OptInStage``, or awaited by your own tests) it behaves exactly
/// as a ``RequestStage``.
public protocol SynchronousRequestStage: RequestStage {
    /// Changes `request` before it is passed on, without waiting; throw to refuse the call.
    ///
    /// - Parameters:
    ///   - request: the request to change.
    ///   - context: the call's context.
    func prepare(_ request: inout Request, context: CallContext) throws
}

extension SynchronousRequestStage {
    /// Calls the stage's synchronous `prepare` from a synchronous frame, so that the call resolves to
    /// it rather than to the asynchronous requirement it also satisfies.
    @inline(__always)
    func prepareNow(_ request: inout Request, context: CallContext) throws {
        try prepare(&request, context: context)
    }
}
