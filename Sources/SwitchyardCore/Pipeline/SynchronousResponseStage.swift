/// A ``ResponseStage`` whose check or change of the response never waits: a status or content-type
/// rule, a rewrite of the body's bytes.
///
/// ```swift
/// struct RejectEmptyBodies: SynchronousResponseStage {
///     func processSynchronously(_ response: inout Response, for request: Request, context: CallContext) throws {
///         if response.bytes.isEmpty { throw SwitchyardError(code: .invalidResponse, message: "empty body") }
///     }
/// }
/// ```
///
/// Implement only ``processSynchronously(_:for:context:)``. The pipeline calls it as a plain function
/// call where an asynchronous stage costs an asynchronous frame on every call, and so do
/// ``OptInStage`` and the testing harness. The ``ResponseStage/process(_:for:context:)`` this protocol
/// provides calls it too. `ValidationStage` and `NullStrippingStage` are synchronous response
/// stages.
package protocol SynchronousResponseStage: ResponseStage {
    /// Changes `response` before the stages outside this one see it, without waiting; throw to fail
    /// the call.
    ///
    /// - Parameters:
    ///   - response: the response to change.
    ///   - request: the request as this stage passed it on.
    ///   - context: the call's context.
    func processSynchronously(_ response: inout Response, for request: Request, context: CallContext) throws
}

extension SynchronousResponseStage {
    /// Calls ``processSynchronously(_:for:context:)``.
    package func process(_ response: inout Response, for request: Request, context: CallContext) async throws {
        try processSynchronously(&response, for: request, context: context)
    }
}
