public import Foundation
public import HTTPTypes

/// An endpoint whose response is turned into a ``Reformer``'s output instead of the base endpoint's
/// own: the same call, chosen per call site, so one endpoint can feed several screens. Make one with
/// ``Endpoint/reformed(by:)``.
///
/// ```swift
/// let user = try await client.send(GetUser(id: 7).reformed(by: DecodableReformer<User>())).value
/// let line = try await client.send(GetUser(id: 7).reformed(by: DecodableReformer<User>().map { "\($0.name), \($0.age)" })).value
/// ```
///
/// The reformer sees the response after every stage. What it throws ends the call with a
/// ``SwitchyardError/Code/decoding`` error that keeps the status and body and names the reformer as
/// the failing stage (a ``SwitchyardError`` it throws is kept as it is; a ``DownloadReformer``'s
/// refusal of a body that is not a file names no stage, since it reports a misused call).
///
/// A download is a reformed endpoint too: ``Endpoint/downloading(to:options:)`` reforms the endpoint
/// by a ``DownloadReformer``, whose output is the file written. Only the outermost reformer decides
/// what a call returns (and whether it writes a file).
public struct ReformedEndpoint<Base: Endpoint, Reforming: Reformer>: Endpoint {
    /// The endpoint whose call is made; every member of the call is its.
    public let base: Base
    /// What turns the response into the output.
    public let reformer: Reforming

    /// The base endpoint's service.
    public var service: ServiceID { base.service }
    /// The base endpoint's method.
    public var method: HTTPRequest.Method { base.method }
    /// The base endpoint's path template.
    public var path: String { base.path }
    /// The base endpoint's path parameters.
    public var pathParameters: [String: String] { base.pathParameters }
    /// The base endpoint's parameters.
    public var parameters: Parameters { base.parameters }
    /// The base endpoint's body.
    public var body: RequestBody? { base.body }
    /// The base endpoint's header fields.
    public var headerFields: HTTPFields { base.headerFields }
    /// The base endpoint's encoding.
    public var encoding: ParameterEncoding? { base.encoding }
    /// The base endpoint's options.
    public var options: CallOptions { base.options }
    /// The base endpoint's name.
    public var name: String { base.name }
    /// The base endpoint's `Accept` field.
    public var acceptedMediaType: String? { base.acceptedMediaType }
    /// Whether the innermost reformed endpoint streams its answer: the reformer then gets the stream.
    public static var _reformsStream: Bool? { Base._reformsStream ?? (Base.Output.self == ResponseStream.self) }

    /// Runs the reformer on the response, with a ``ReformContext`` naming the call.
    ///
    /// - Throws: ``SwitchyardError/Code/decoding`` (or the reformer's own ``SwitchyardError``), with the
    ///   reformer as the failing stage (none for a ``DownloadReformer``).
    public func decode(_ response: Response, decoder: JSONDecoder) throws -> Reforming.Output {
        let context = ReformContext(
            requestID: response.metadata[ReformedCallID.self] ?? .next(),
            serviceID: base.service,
            endpointName: base.name,
            decoder: decoder
        )
        do {
            return try reformer.reform(response, context: context)
        } catch {
            var failure = DecodingFailureMessage.error(for: error, output: Reforming.Output.self, response: response)
            // A download refusing a body in memory reports the call's misuse, not a failing stage.
            if Reforming.self != DownloadReformer.self { failure.stage = failure.stage ?? StageID(typeName: Reforming.self) }
            throw failure
        }
    }
}

extension Endpoint {
    /// This endpoint with its response turned into `reformer`'s output (see ``ReformedEndpoint``).
    ///
    /// ```swift
    /// let rows = try await client.send(ListOrders().reformed(by: OrderRowsReformer())).value
    /// ```
    ///
    /// - Parameter reformer: what turns the response into the output.
    /// - Returns: the reformed endpoint.
    public func reformed<Reforming: Reformer>(by reformer: Reforming) -> ReformedEndpoint<Self, Reforming> {
        ReformedEndpoint(base: self, reformer: reformer)
    }
}

/// The call's id on the response a ``ReformedEndpoint`` decodes, so that its reformer's context
/// names the call; ``APIClient`` stamps it on the reformed call's response only.
enum ReformedCallID: ResponseMetadataKey {
    typealias Value = RequestID
}

extension APIClient {
    /// Decodes a ``ReformedEndpoint``'s output from a copy of the response that carries the call's
    /// id, so its reformer's context names the call. Out of line, so an ordinary call's frame is not
    /// made larger by it.
    @inline(never)
    static func decodeReformed<E: Endpoint>(
        _ endpoint: E,
        _ response: Response,
        requestID: RequestID,
        decoder: JSONDecoder
    ) throws -> E.Output {
        var response = response
        response.metadata[ReformedCallID.self] = requestID
        return try endpoint.decode(response, decoder: decoder)
    }
}
