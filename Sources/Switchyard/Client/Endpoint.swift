public import Foundation
public import HTTPTypes

/// One API, described as a value (the "discrete" style): where it lives, what it sends, and what it
/// returns.
///
/// Only ``service``, ``method`` and ``path`` are required; everything else has a default. The
/// ``Output`` is decoded from JSON when it is `Decodable`; use ``Response`` for the raw response,
/// `Data` for the raw body, or ``NoContent`` for calls whose body does not matter.
///
/// ```swift
/// struct GetUser: Endpoint {
///     typealias Output = User
///     let id: Int
///     var service: ServiceID { .users }
///     var method: HTTPRequest.Method { .get }
///     var path: String { "/users/{id}" }
///     var pathParameters: [String: String] { ["id": String(id)] }
/// }
///
/// let user = try await client.send(GetUser(id: 7)).value
/// ```
///
/// ## Paths
///
/// `path` is written unencoded; `{name}` placeholders are replaced by ``pathParameters`` values,
/// percent-encoded as one path segment (a `/` in a value becomes `%2F`). A path may carry a literal
/// query (`/search?type=all`). A path that is an absolute `http(s)` URL replaces the service's base
/// URL for this endpoint.
public protocol Endpoint: Sendable {
    /// What the call returns.
    associatedtype Output: Sendable

    /// The service the endpoint belongs to.
    var service: ServiceID { get }
    /// The HTTP method.
    var method: HTTPRequest.Method { get }
    /// The path template relative to the service's base URL, such as `/users/{id}`.
    var path: String { get }
    /// Values for the path template's placeholders. Defaults to none.
    var pathParameters: [String: String] { get }
    /// Parameters sent in the query or body according to ``encoding``. Defaults to none.
    var parameters: Parameters { get }
    /// An explicit body; when set, ``parameters`` go to the query. Defaults to none.
    var body: RequestBody? { get }
    /// Header fields for this endpoint. Defaults to none.
    var headerFields: HTTPFields { get }
    /// Where parameters go; `nil` (the default) uses the service's default.
    var encoding: ParameterEncoding? { get }
    /// Per-endpoint options: timeout, tags, extra stages, skipped stages. Defaults to none.
    var options: CallOptions { get }
    /// The endpoint's name in logs and errors. Defaults to the type's name.
    var name: String { get }
    /// The `Accept` field sent when no service, endpoint or call field sets one: `application/json`
    /// for an ``Output`` decoded from JSON, none for ``Response``, `Data` and ``NoContent``.
    var acceptedMediaType: String? { get }

    /// Turns the final response into the output.
    ///
    /// - Parameters:
    ///   - response: the response after every stage.
    ///   - decoder: the service's JSON decoder.
    /// - Returns: the output.
    func decode(_ response: Response, decoder: JSONDecoder) throws -> Output

    /// Set by ``ReformedEndpoint`` alone (an endpoint of your own keeps the default, `nil`): whether
    /// the endpoint it reforms streams its answer. The client reads it once per call, through the
    /// protocol, to give the reformer the call's id and a streamed endpoint's stream.
    static var _reformsStream: Bool? { get }
}

extension Endpoint {
    /// Not a ``ReformedEndpoint``.
    public static var _reformsStream: Bool? { nil }
    /// No path parameters.
    public var pathParameters: [String: String] { [:] }
    /// No parameters.
    public var parameters: Parameters { Parameters() }
    /// No explicit body.
    public var body: RequestBody? { nil }
    /// No header fields.
    public var headerFields: HTTPFields { [:] }
    /// The service's default encoding.
    public var encoding: ParameterEncoding? { nil }
    /// No options.
    public var options: CallOptions { CallOptions() }
    /// The type's name.
    public var name: String { TypeNames.name(of: Self.self) }
    /// No `Accept` field.
    public var acceptedMediaType: String? { nil }
}

extension Endpoint where Output: Decodable {
    /// `application/json`: the output is decoded from JSON.
    public var acceptedMediaType: String? { "application/json" }

    /// Decodes the body as JSON into ``Output``.
    public func decode(_ response: Response, decoder: JSONDecoder) throws -> Output {
        try decoder.decode(Output.self, from: response.bytes)
    }
}

extension Endpoint where Output == Response {
    /// Returns the response itself.
    public func decode(_ response: Response, decoder: JSONDecoder) throws -> Output { response }
}

extension Endpoint where Output == Data {
    /// No `Accept` field: the body is returned as it is.
    public var acceptedMediaType: String? { nil }

    /// Returns the body bytes.
    public func decode(_ response: Response, decoder: JSONDecoder) throws -> Output { response.bytes }
}

extension Endpoint where Output == ResponseStream {
    /// Returns the streamed body: the call returned at the head, and the body follows as it arrives.
    /// A transport that gives the whole body at once (a stub) gives it as one chunk.
    public func decode(_ response: Response, decoder: JSONDecoder) throws -> Output { response.streamedBody }
}

extension Response {
    /// The body as a streamed endpoint's output: the stream, or a whole body as one chunk.
    var streamedBody: ResponseStream { body.stream ?? ResponseStream(chunks: [bytes]) }
}

extension Endpoint where Output == NoContent {
    /// No `Accept` field: the body is ignored.
    public var acceptedMediaType: String? { nil }

    /// Ignores the body.
    public func decode(_ response: Response, decoder: JSONDecoder) throws -> Output { NoContent() }
}
