public import Foundation
public import HTTPTypes

/// An endpoint assembled at the call site: the machinery behind the "intensive" style
/// (``APIClient/send(_:_:_:pathParameters:parameters:body:headerFields:encoding:options:)``).
///
/// ```swift
/// let endpoint = DynamicEndpoint<[Article]>(service: .catalog, method: .get, path: "/articles", parameters: ["page": 1])
/// let articles = try await client.send(endpoint).value
/// ```
public struct DynamicEndpoint<Output: Sendable>: Endpoint {
    /// The service.
    public var service: ServiceID
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The path template.
    public var path: String
    /// Values for the path template's placeholders.
    public var pathParameters: [String: String]
    /// Parameters.
    public var parameters: Parameters
    /// An explicit body.
    public var body: RequestBody?
    /// Header fields.
    public var headerFields: HTTPFields
    /// Where parameters go; `nil` for the service's default.
    public var encoding: ParameterEncoding?
    /// Options.
    public var options: CallOptions
    /// The name in logs, errors, metrics and traces: `METHOD path` unless set, where the path is the
    /// template without its query (which may carry secrets and would make every call's name unique).
    public var name: String
    /// The `Accept` field sent when nothing else sets one (`application/json` for JSON outputs).
    public var acceptedMediaType: String?
    private let decoder: @Sendable (Response, JSONDecoder) throws -> Output

    /// Creates an endpoint with a custom decoding closure.
    public init(
        service: ServiceID,
        method: HTTPRequest.Method,
        path: String,
        pathParameters: [String: String] = [:],
        parameters: Parameters = [:],
        body: RequestBody? = nil,
        headerFields: HTTPFields = [:],
        encoding: ParameterEncoding? = nil,
        options: CallOptions = CallOptions(),
        name: String? = nil,
        decode: @escaping @Sendable (Response, JSONDecoder) throws -> Output
    ) {
        self.service = service
        self.method = method
        self.path = path
        self.pathParameters = pathParameters
        self.parameters = parameters
        self.body = body
        self.headerFields = headerFields
        self.encoding = encoding
        self.options = options
        self.name = name ?? Self.defaultName(method: method, path: path)
        self.decoder = decode
        self.acceptedMediaType = nil
    }

    /// `GET /users/{id}`: the method and the path template without its query, the name a call
    /// made at the call site goes by.
    static func defaultName(method: HTTPRequest.Method, path: String) -> String {
        // Made on every call of the intensive style: the bytes are copied once into a string of the
        // final size (a short one stays inline), the path cut at its first `?` byte as
        // `Request.split(target:)` cuts it.
        var method = method.rawValue
        var path = path
        return method.withUTF8 { methodBytes in
            path.withUTF8 { pathBytes in
                let template = UnsafeBufferPointer(
                    rebasing: pathBytes[..<(pathBytes.firstIndex(of: UInt8(ascii: "?")) ?? pathBytes.endIndex)]
                )
                return String(unsafeUninitializedCapacity: methodBytes.count + 1 + template.count) { name in
                    var end = name.initialize(fromContentsOf: methodBytes)
                    name[end] = UInt8(ascii: " ")
                    end += 1
                    end = name[end...].initialize(fromContentsOf: template)
                    return end
                }
            }
        }
    }

    /// Runs the decoding closure.
    public func decode(_ response: Response, decoder: JSONDecoder) throws -> Output {
        try self.decoder(response, decoder)
    }
}

extension DynamicEndpoint where Output == Response {
    /// Creates an endpoint whose output is the raw ``Response``.
    public init(
        service: ServiceID,
        method: HTTPRequest.Method,
        path: String,
        pathParameters: [String: String] = [:],
        parameters: Parameters = [:],
        body: RequestBody? = nil,
        headerFields: HTTPFields = [:],
        encoding: ParameterEncoding? = nil,
        options: CallOptions = CallOptions(),
        name: String? = nil
    ) {
        self.init(
            service: service,
            method: method,
            path: path,
            pathParameters: pathParameters,
            parameters: parameters,
            body: body,
            headerFields: headerFields,
            encoding: encoding,
            options: options,
            name: name,
            decode: { response, _ in response }
        )
    }
}

extension DynamicEndpoint where Output == ResponseStream {
    /// Creates an endpoint whose output is the body as it arrives (``ResponseStream``): the call
    /// returns at the head.
    public init(
        service: ServiceID,
        method: HTTPRequest.Method,
        path: String,
        pathParameters: [String: String] = [:],
        parameters: Parameters = [:],
        body: RequestBody? = nil,
        headerFields: HTTPFields = [:],
        encoding: ParameterEncoding? = nil,
        options: CallOptions = CallOptions(),
        name: String? = nil
    ) {
        self.init(
            service: service,
            method: method,
            path: path,
            pathParameters: pathParameters,
            parameters: parameters,
            body: body,
            headerFields: headerFields,
            encoding: encoding,
            options: options,
            name: name,
            decode: { response, _ in response.streamedBody }
        )
    }
}

extension DynamicEndpoint where Output: Decodable {
    /// Creates an endpoint whose output is decoded from JSON (`Data` receives the raw body and
    /// ``NoContent`` ignores it, as in the discrete style).
    public init(
        service: ServiceID,
        method: HTTPRequest.Method,
        path: String,
        pathParameters: [String: String] = [:],
        parameters: Parameters = [:],
        body: RequestBody? = nil,
        headerFields: HTTPFields = [:],
        encoding: ParameterEncoding? = nil,
        options: CallOptions = CallOptions(),
        name: String? = nil,
        as type: Output.Type
    ) {
        self.init(
            service: service,
            method: method,
            path: path,
            pathParameters: pathParameters,
            parameters: parameters,
            body: body,
            headerFields: headerFields,
            encoding: encoding,
            options: options,
            name: name,
            decode: { response, decoder in
                // Outputs that are not JSON documents, as in the discrete style.
                if let value = NoContent() as? Output { return value }
                if Output.self == Data.self, let value = response.bytes as? Output { return value }
                return try decoder.decode(Output.self, from: response.bytes)
            }
        )
        let isJSON = Output.self != Data.self && Output.self != NoContent.self
        self.acceptedMediaType = isJSON ? "application/json" : nil
    }
}
