/// A ``RequestStage`` whose change to the request never waits: setting a fixed header field,
/// adding a parameter, refusing a request that breaks a rule.
///
/// ```swift
/// struct AcceptJSON: SynchronousRequestStage {
///     func prepareSynchronously(_ request: inout Request, context: CallContext) throws {
///         request.headerFields[.accept] = "application/json"
///     }
/// }
/// ```
///
/// Implement only ``prepareSynchronously(_:context:)``. The pipeline calls it as a plain function
/// call where an asynchronous stage costs an asynchronous frame on every call — so it is the
/// cheapest stage a pipeline can run — and so do ``OptInStage`` and the testing harness. The
/// ``RequestStage/prepare(_:context:)`` this protocol provides calls it too, for code that holds the
/// stage as any ``RequestStage``.
public protocol SynchronousRequestStage: RequestStage {
    /// Changes `request` before it is passed on, without waiting; throw to refuse the call.
    ///
    /// - Parameters:
    ///   - request: the request to change.
    ///   - context: the call's context.
    func prepareSynchronously(_ request: inout Request, context: CallContext) throws
}

extension SynchronousRequestStage {
    /// Calls ``prepareSynchronously(_:context:)``.
    public func prepare(_ request: inout Request, context: CallContext) async throws {
        try prepareSynchronously(&request, context: context)
    }
}
