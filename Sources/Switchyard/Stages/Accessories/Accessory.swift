public import HTTPTypes

/// An observer of a call's lifecycle — a spinner, a progress bar, an activity counter, an analytics
/// hook — attached per service or per call through ``AccessoryStage``.
///
/// Accessories observe; they cannot change or hold up the call. Their methods are synchronous and
/// are delivered, in order, on their stage's serial dispatch queue, so a slow accessory delays only
/// accessory events, never a call.
/// Every method has an empty default; implement the ones you need.
public protocol Accessory: Sendable {
    /// The call has entered the pipeline (before anything is sent).
    func callWillStart(_ call: AccessoryCall)
    /// The transport has started sending the request.
    func callDidStart(_ call: AccessoryCall)
    /// The request body is going out.
    func call(_ call: AccessoryCall, didSend progress: TransferProgress)
    /// The response body is coming in.
    func call(_ call: AccessoryCall, didReceive progress: TransferProgress)
    /// The call has ended, with the response its stage saw or the error; always the last event.
    func callDidFinish(_ call: AccessoryCall, outcome: Result<AccessoryCall.Outcome, SwitchyardError>)
}

extension Accessory {
    /// Does nothing.
    public func callWillStart(_ call: AccessoryCall) {}
    /// Does nothing.
    public func callDidStart(_ call: AccessoryCall) {}
    /// Does nothing.
    public func call(_ call: AccessoryCall, didSend progress: TransferProgress) {}
    /// Does nothing.
    public func call(_ call: AccessoryCall, didReceive progress: TransferProgress) {}
    /// Does nothing.
    public func callDidFinish(_ call: AccessoryCall, outcome: Result<AccessoryCall.Outcome, SwitchyardError>) {}
}

/// What an ``Accessory`` is told about the call it observes.
public struct AccessoryCall: Sendable {
    /// How a successful call ended.
    public struct Outcome: Sendable {
        /// The response's status.
        public let status: HTTPResponse.Status
        /// The response body's size in bytes, as the accessory's stage saw it.
        public let bodySize: Int
        /// How long the call took from entering the stage.
        public let duration: Duration
    }

    /// The call's id.
    public let requestID: RequestID
    /// The service called.
    public let serviceID: ServiceID
    /// The endpoint's name.
    public let endpointName: String
    /// The call's tags.
    public let tags: Set<RequestTag>
    /// The method.
    public let method: HTTPRequest.Method
    /// The request's path, without the query (which may carry secrets).
    public let path: String
}
