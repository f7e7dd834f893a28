import HTTPTypes

/// An endpoint's description read once into a plain value, so that everything after it is
/// non-generic code.
struct CallSpec: Sendable {
    let service: ServiceID
    let name: String
    let method: HTTPRequest.Method
    let path: String
    let pathParameters: [String: String]
    let parameters: Parameters
    let body: RequestBody?
    let headerFields: HTTPFields
    let encoding: ParameterEncoding?
    let options: CallOptions
    let acceptedMediaType: String?
    /// Whether the endpoint's output is a ``ResponseStream``: the call returns at the head.
    var streams: Bool

    init(_ endpoint: borrowing some Endpoint) {
        service = endpoint.service
        name = endpoint.name
        method = endpoint.method
        path = endpoint.path
        pathParameters = endpoint.pathParameters
        parameters = endpoint.parameters
        body = endpoint.body
        headerFields = endpoint.headerFields
        encoding = endpoint.encoding
        options = endpoint.options
        acceptedMediaType = endpoint.acceptedMediaType
        streams = type(of: endpoint).Output.self == ResponseStream.self
    }
}
