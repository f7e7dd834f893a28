/// The end of every pipeline: the only place that performs I/O.
///
/// A transport sends a fully prepared ``Request`` and returns the ``Response`` with its whole body.
/// It honours ``CallContext/timeout`` and Swift task cancellation, and reports failures as errors
/// (a ``SwitchyardError`` with ``SwitchyardError/Code/transport``, ``SwitchyardError/Code/timeout``
/// or ``SwitchyardError/Code/cancelled`` where it can tell which).
///
/// Use `AsyncHTTPClientTransport` from `SwitchyardAsyncHTTPClient` in apps and services and the mock
/// transports from `SwitchyardTesting` in tests.
///
/// Choose a transport to change *how bytes move*; choose a ``Stage`` to change *what is sent or
/// received*.
public protocol Transport: Sendable {
    /// The transport's name, shown by ``Pipeline/description``. Defaults to the type's name.
    var name: String { get }

    /// Whether ``send(_:context:)`` ends promptly when the call is cancelled through its
    /// ``CallContext/control`` (``CallControl/withCancellationHandler(operation:onCancel:)``), not
    /// only when its task is. A call runs in its caller's task, so the pipeline runs the exchange of
    /// a transport that does not in a task of its own, which it can cancel. Defaults to `false`.
    var observesCallCancellation: Bool { get }

    /// Sends a request and returns its response.
    ///
    /// - Parameters:
    ///   - request: the request, with scheme, authority and path set.
    ///   - context: the call's context (timeout, request id, logger).
    /// - Returns: the response with its whole body.
    func send(_ request: Request, context: CallContext) async throws -> Response
}

extension Transport {
    /// The type's name.
    public var name: String { String(describing: Self.self) }

    /// `false`: the pipeline runs the exchange in a task it can cancel.
    public var observesCallCancellation: Bool { false }
}
