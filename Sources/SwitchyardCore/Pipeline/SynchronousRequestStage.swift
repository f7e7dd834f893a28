/// A ``RequestStage`` whose change to the request never waits: setting a fixed header field,
/// adding a parameter, refusing a request that breaks a rule.
///
/// An internal fast path, not a shape users learn: the built-in stages and a `ClosureStage.request`
/// given a closure that does not `await` use it, because a
/// paired measurement shows it pays (`switchyard-bench chain --stages 8`, callgrind: about 516
/// instructions less per stage and call than an `async` stage, 0.90× the whole call).
///
/// Implement only ``prepareSynchronously(_:context:)``. The pipeline calls it as a plain function
/// call where an asynchronous stage costs an asynchronous frame on every call — so it is the
/// cheapest stage a pipeline can run — and so do ``OptInStage`` and the testing harness. The
/// ``RequestStage/prepare(_:context:)`` this protocol provides calls it too, for code that holds the
/// stage as any ``RequestStage``.
package protocol SynchronousRequestStage: RequestStage {
    /// Changes `request` before it is passed on, without waiting; throw to refuse the call.
    ///
    /// - Parameters:
    ///   - request: the request to change.
    ///   - context: the call's context.
    func prepareSynchronously(_ request: inout Request, context: CallContext) throws
}

extension SynchronousRequestStage {
    /// Calls ``prepareSynchronously(_:context:)``.
    package func prepare(_ request: inout Request, context: CallContext) async throws {
        try prepareSynchronously(&request, context: context)
    }
}
