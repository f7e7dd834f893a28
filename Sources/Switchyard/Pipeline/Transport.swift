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
}
