import Foundation
import HTTPTypes
import SwitchyardSupport

/// Turns an endpoint's description into a ``Request`` against a base URL.
///
/// Templates are scanned as UTF-8 bytes and the target is composed in a stack buffer while it is
/// checked (``RequestTarget``), so building a request costs a handful of allocations whatever the
/// template looks like.
enum RequestBuilder {
    /// Builds the request.
    ///
    /// - Throws: ``SwitchyardError/Code/invalidRequest`` for a bad template or missing path parameter,
    ///   ``SwitchyardError/Code/invalidBaseURL`` for a bad absolute URL, ``SwitchyardError/Code/encoding``
    ///   when parameters or the body cannot be encoded.
    static func build(
        _ endpoint: CallSpec,
        baseURL: BaseURL,
        defaults: ServiceDefaults,
        encoder: JSONEncoder,
        callHeaderFields: HTTPFields,
        userAgent: UserAgent?,
        encoding: ParameterEncoding,
        expectedStageFields: Int
    ) throws(SwitchyardError) -> Request {
        // The template first: a bad template is the error a call reports, whatever else is wrong.
        var template = endpoint.path
        let planned: Result<RequestTarget.Plan, SwitchyardError> = template.withUTF8 { utf8 in
            do throws(SwitchyardError) {
                return .success(try plan(endpoint, utf8, baseURL: baseURL))
            } catch {
                return .failure(error)
            }
        }
        // Moved out of the result, not copied: the plan holds the base and the target planning wrote.
        let target: RequestTarget.Plan
        switch consume planned {
        case .success(let plan): target = plan
        case .failure(let error): throw error
        }

        let endpointFields = endpoint.headerFields
        var fields = defaults.headerFields.replacing(with: endpointFields).replacing(with: callHeaderFields)
        let capacity = fields.count + expectedStageFields  // room for the fields stages add, without regrowing
        // Fields made once (their values checked once), added where the call carries none. Most calls
        // carry no fields of their own: they start from the user agent's list, made once, which
        // reserving room copies into the call's own storage (HTTPFields' `append` goes through an
        // unspecialized generic `insert(_:at:)`).
        let accept = endpoint.acceptedMediaType
        if fields.isEmpty, let userAgent, accept == nil || accept == "application/json" {
            fields = accept == nil ? userAgent.fields : userAgent.fieldsAcceptingJSON
            fields.reserveCapacity(capacity)
        } else {
            fields.reserveCapacity(capacity)
            if let userAgent, !fields.contains(.userAgent) { fields.append(userAgent.field) }
            if let accept, !fields.contains(.accept) {
                fields.append(accept == "application/json" ? acceptJSON : HTTPField(name: .accept, value: accept))
            }
        }
        // The body's type, where neither the endpoint nor the call gives one: appended, or replacing the
        // service's. The types the builder writes itself are fields made once.
        func setContentType(_ field: HTTPField?) {
            guard let field, !endpointFields.contains(.contentType), !callHeaderFields.contains(.contentType) else { return }
            if fields.contains(.contentType) { fields[fields: .contentType] = [field] } else { fields.append(field) }
        }
        let parameters = endpoint.parameters
        let formEncoder = FormURLEncoder(arrayStyle: defaults.queryArrayStyle)
        var body: Data?
        var streamed: StreamedBody?
        var query: String?
        if let explicit = endpoint.body, let stream = explicit.streamed {
            streamed = stream.body
            setContentType(stream.contentType.map(contentType))
        } else if let explicit = endpoint.body {
            do {
                let made = try explicit.make(encoder)
                body = made.data
                setContentType(made.contentType.map(contentType))
            } catch {
                throw SwitchyardError(code: .encoding, message: "the request body cannot be encoded: \(error)", underlyingError: error)
            }
        }
        if !parameters.isEmpty {
            switch body == nil && streamed == nil ? encoding : .query {
            case .query, .automatic:
                query = try formEncoder.encode(parameters)
            case .form:
                body = Data(try formEncoder.encode(parameters).utf8)
                setContentType(contentTypeForm)
            case .json:
                body = try jsonObject(parameters)
                setContentType(contentTypeJSON)
            case .jsonFormField(let name):
                let json = try jsonObject(parameters)
                let field =
                    PercentEncoding.encodeComponent(name) + "=" + PercentEncoding.encodeComponent(String(decoding: json, as: UTF8.self))
                body = Data(field.utf8)
                setContentType(contentTypeForm)
            }
        }
        let path = template.withUTF8 {
            RequestTarget.write(target, $0, template: endpoint.path, parameters: endpoint.pathParameters, query: query)
        }
        let head = target.base.requestHead(method: endpoint.method, path: path, headerFields: fields)
        return Request(head: head, body: streamed.map(Request.Body.stream) ?? body.map(Request.Body.bytes))
    }

    /// `Content-Type: application/json`, for parameters sent as a JSON body.
    private static let contentTypeJSON = HTTPField(name: .contentType, value: "application/json")
    /// `Content-Type: application/x-www-form-urlencoded; charset=utf-8`, for parameters sent as a form.
    private static let contentTypeForm = HTTPField(name: .contentType, value: "application/x-www-form-urlencoded; charset=utf-8")

    /// A `Content-Type` field of `type`: the one made once for JSON.
    private static func contentType(_ type: String) -> HTTPField {
        type == "application/json" ? contentTypeJSON : HTTPField(name: .contentType, value: type)
    }

    /// `Accept: application/json`, the field most endpoints send.
    private static let acceptJSON = HTTPField(name: .accept, value: "application/json")

    /// The template checked and measured against the base URL in force (the template's own, when it
    /// is an absolute URL).
    private static func plan(
        _ endpoint: CallSpec,
        _ utf8: UnsafeBufferPointer<UInt8>,
        baseURL: BaseURL
    ) throws(SwitchyardError)
        -> RequestTarget.Plan
    {
        var base = baseURL
        var start = 0
        if let authorityStart = absolutePrefixLength(utf8) {
            var end = authorityStart
            while end < utf8.count, utf8[end] != UInt8(ascii: "/"), utf8[end] != UInt8(ascii: "?") { end += 1 }
            base = try BaseURL(String(decoding: UnsafeBufferPointer(rebasing: utf8[0..<end]), as: UTF8.self))
            start = end
        }
        return try RequestTarget.plan(utf8, from: start, template: endpoint.path, base: base, parameters: endpoint.pathParameters)
    }

    /// The parameters as one JSON object, keys sorted at every depth, written byte by byte.
    private static func jsonObject(_ parameters: Parameters) throws(SwitchyardError) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(16 * parameters.count + 2)
        try JSONValueWriter.append(.object(parameters), name: "", sortingKeys: true, to: &output)
        return Data(output)
    }

    /// The length of a leading `http://` or `https://` (any case), or `nil`.
    private static func absolutePrefixLength(_ utf8: UnsafeBufferPointer<UInt8>) -> Int? {
        func matches(_ prefix: StaticString) -> Bool {
            guard utf8.count >= prefix.utf8CodeUnitCount else { return false }
            for offset in 0..<prefix.utf8CodeUnitCount where utf8[offset] | 0x20 != prefix.utf8Start[offset] | 0x20 { return false }
            return true
        }
        if matches("http://") { return 7 }
        if matches("https://") { return 8 }
        return nil
    }
}
