public import Foundation

/// Turns a call's response into the value the app wants — a model, a view's text, a dictionary with
/// the app's names — chosen per call, so one endpoint can feed several screens:
///
/// ```swift
/// let user = try await client.send(GetUser(id: 7).reformed(by: DecodableReformer<User>())).value
/// let line = try await client.send(GetUser(id: 7).reformed(by: DecodableReformer<User>().map { "\($0.name), \($0.age)" })).value
/// ```
///
/// A reformer sees the response after every stage — decrypted, with the envelope's payload cut out
/// and nulls stripped if those stages are registered. What it throws ends the call with a
/// ``SwitchyardError/Code/decoding`` error that keeps the status and body (a ``SwitchyardError`` it
/// throws is kept as it is).
public protocol Reformer<Output>: Sendable {
    /// What the reformer produces.
    associatedtype Output: Sendable

    /// Produces the output from the response.
    func reform(_ response: Response, context: ReformContext) throws -> Output
}

/// What a ``Reformer`` is told besides the response.
public struct ReformContext: @unchecked Sendable {
    /// The call's id.
    public let requestID: RequestID
    /// The service called.
    public let serviceID: ServiceID
    /// The endpoint's name.
    public let endpointName: String
    /// The service's JSON decoder (``ServiceDefaults/makeDecoder``), for reformers that decode.
    public let decoder: JSONDecoder

    /// Creates a context; a ``ReformedEndpoint`` makes one for every call, and tests may make their own.
    public init(requestID: RequestID = .next(), serviceID: ServiceID, endpointName: String = "", decoder: JSONDecoder = JSONDecoder()) {
        self.requestID = requestID
        self.serviceID = serviceID
        self.endpointName = endpointName
        self.decoder = decoder
    }
}

extension Reformer {
    /// A two-step reformer: this one makes an entity, `transform` turns it into what the app shows.
    public func map<Display: Sendable>(_ transform: @escaping @Sendable (Output) throws -> Display) -> TwoStepReformer<Self, Display> {
        TwoStepReformer(self, transform)
    }
}
