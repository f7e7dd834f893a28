/// A stage a service registers as **opt-in**: it sits at its place in the pipeline but runs only for
/// the calls that enable it (`CallOptions.enable(_:)`, or an endpoint's `Endpoint.options`); for
/// every other call the pipeline passes the request straight on to the next stage.
///
/// Register a service's encryption stage once, and let only the endpoints that are encrypted ask
/// for it:
///
/// ```swift
/// stages: [LoggingStage(), EncryptionStage(keyRing: keys).optIn()]
///
/// struct TransferFunds: Endpoint {
///     var options: CallOptions { CallOptions(enabledStages: [.encryption]) }
///     …
/// }
/// ```
public struct OptInStage<Wrapped: Stage>: Stage {
    /// The stage that runs when a call enables it.
    public let wrapped: Wrapped

    /// Wraps a stage; prefer ``Stage/optIn()``.
    public init(_ wrapped: Wrapped) { self.wrapped = wrapped }

    /// The wrapped stage's id: a call enables (or skips) it by that id.
    public var id: StageID { wrapped.id }

    /// The wrapped stage's order rules: where it stands matters whenever a call enables it.
    public var orderRules: [StageOrderRule] { wrapped.orderRules }

    /// Runs the wrapped stage exactly as the pipeline would run it in place (the pipeline itself only
    /// calls this for calls that enabled the stage).
    public func intercept(_ request: Request, context: CallContext, next: NextStage) async throws -> Response {
        try await Pipeline.run(wrapped, request, context: context, next: next)
    }
}

extension OptInStage: OptInMarker {
    var inner: any Stage { wrapped }
}

/// Lets the pipeline recognise an opt-in stage without knowing its generic parameter.
protocol OptInMarker {
    /// The stage that runs when enabled.
    var inner: any Stage { get }
}

extension Stage {
    /// This stage, registered so that it runs only for calls that enable it by its ``id``.
    public func optIn() -> OptInStage<Self> { OptInStage(self) }
}
