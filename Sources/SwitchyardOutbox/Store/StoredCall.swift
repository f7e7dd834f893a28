import Foundation
import HTTPTypes
import Switchyard

/// A queued call as the store keeps it: the app's description, as JSON (sealed when a key is set).
struct StoredCall: Codable {
    var service: String
    var method: String
    var path: String
    var pathParameters: [String: String]
    var parameters: [StoredParameter]
    var body: OutboxBody.Content?
    var contentType: String?
    var headerFields: [[String]]
    /// Where the parameters go (``StoredEncoding``); `nil` for the service's default, and in calls
    /// stored before it was kept.
    var encoding: StoredEncoding?
    /// The account the call is sent under (the store's own column may hold only its digest).
    var account: String?

    /// The names of fields a queued call may not carry: the pipeline adds credentials when it sends.
    static let credentialFields: Set<HTTPField.Name> = [.authorization, .proxyAuthorization, .cookie]

    init(_ call: OutboxCall) throws(SwitchyardError) {
        let endpoint = call.endpoint
        if let field = endpoint.headerFields.first(where: { Self.credentialFields.contains($0.name) }) {
            throw SwitchyardError(
                code: .invalidRequest,
                message: "a queued call may not carry \(field.name): the pipeline adds credentials when it is sent"
            )
        }
        service = endpoint.service.rawValue
        method = endpoint.method.rawValue
        path = endpoint.path
        pathParameters = endpoint.pathParameters
        parameters = endpoint.parameters.map { StoredParameter(name: $0.name, value: StoredValue($0.value)) }
        body = call.body?.content
        contentType = call.body?.contentType
        headerFields = endpoint.headerFields.map { [$0.name.rawName, $0.value] }
        encoding = endpoint.encoding.map(StoredEncoding.init)
        account = call.account
    }

    /// The endpoint to send, its header fields carrying `idempotencyKey`.
    func endpoint(idempotencyKey: String) throws(SwitchyardError) -> DynamicEndpoint<Response> {
        guard let serviceID = ServiceID(service), let method = HTTPRequest.Method(method) else {
            throw SwitchyardError(code: .storeCorrupt, message: "a queued call names no valid service or method")
        }
        var fields = HTTPFields()
        for pair in headerFields where pair.count == 2 {
            if let name = HTTPField.Name(pair[0]) { fields.append(HTTPField(name: name, value: pair[1])) }
        }
        fields[Outbox.idempotencyKeyField] = idempotencyKey
        let body = try self.body.map { content throws(SwitchyardError) in
            try OutboxBody(content: content, contentType: contentType).requestBody()
        }
        return DynamicEndpoint(
            service: serviceID,
            method: method,
            path: path,
            pathParameters: pathParameters,
            parameters: Parameters(parameters.map { ($0.name, $0.value.value) }),
            body: body,
            headerFields: fields,
            encoding: encoding?.encoding
        )
    }
}

/// One parameter of a stored call.
struct StoredParameter: Codable {
    var name: String
    var value: StoredValue
}

/// A ``ParameterValue`` that keeps its kind through JSON (an integer stays an integer, a double a double).
indirect enum StoredValue: Codable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case array([StoredValue])
    case object([StoredParameter])

    init(_ value: ParameterValue) {
        switch value {
        case .string(let value): self = .string(value)
        case .int(let value): self = .int(value)
        case .double(let value): self = .double(value)
        case .bool(let value): self = .bool(value)
        case .null: self = .null
        case .array(let values): self = .array(values.map(StoredValue.init))
        case .object(let parameters): self = .object(parameters.map { StoredParameter(name: $0.name, value: StoredValue($0.value)) })
        }
    }

    var value: ParameterValue {
        switch self {
        case .string(let value): .string(value)
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .bool(let value): .bool(value)
        case .null: .null
        case .array(let values): .array(values.map(\.value))
        case .object(let parameters): .object(Parameters(parameters.map { ($0.name, $0.value.value) }))
        }
    }
}

/// A ``ParameterEncoding`` as JSON.
enum StoredEncoding: Codable {
    case query
    case json
    case form
    case jsonFormField(String)
    case automatic

    init(_ encoding: ParameterEncoding) {
        switch encoding {
        case .query: self = .query
        case .json: self = .json
        case .form: self = .form
        case .jsonFormField(let name): self = .jsonFormField(name)
        case .automatic: self = .automatic
        }
    }

    var encoding: ParameterEncoding {
        switch self {
        case .query: .query
        case .json: .json
        case .form: .form
        case .jsonFormField(let name): .jsonFormField(name)
        case .automatic: .automatic
        }
    }
}
