/// A ``ResponseStage`` whose check or change of the response never waits: a status or content-type
/// rule, a rewrite of the body's bytes.
///
/// ```swift
/// struct RejectEmptyBodies: SynchronousResponseStage {
///     func process(_ response: inout Response, for request: Request, context: CallContext) throws {
///         if response.bytes.isEmpty { throw SwitchyardError(code: .invalidResponse, message: "empty body") }
///     }
/// }
/// ```
///
/// Write the same `process` as for a ``ResponseStage``, without `async`: that one method serves both
/// protocols. The pipeline calls it directly, as a plain function call, where it would otherwise
/// start an asynchronous frame for every stage on every call. ``ValidationStage`` and
/// ``NullStrippingStage`` are synchronous response stages.
public protocol SynchronousResponseStage: ResponseStage {
    /// Changes `response` before the stages outside this one see it, without waiting; throw to fail
    /// the call.
    ///
    /// - Parameters:
    ///   - response: the response to change.
    ///   - request: the request as this stage passed it on.
    ///   - context: the call's context.
    func process(_ response: inout Response, for request: Request, context: CallContext) throws
}

extension SynchronousResponseStage {
    /// Calls the stage's synchronous `process` from a synchronous frame, so that the call resolves to
    /// it rather than to the asynchronous requirement it also satisfies.
    @inline(__always)
    func processNow(_ response: inout Response, for request: Request, context: CallContext) throws {
        try process(&response, for: request, context: context)
    }
}
