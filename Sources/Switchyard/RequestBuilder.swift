import HTTPTypes
import Foundation

/// Turns an endpoint's description into a ``Request`` against a base URL.
struct RequestBuilder {
    let method: HTTPRequest.Method
    let path: String
    let pathParameters: [String: String]
    let parameters: Parameters
    let body: RequestBody?
    let headerFields: HTTPFields
    let encoding: ParameterEncoding

    init(endpoint: some Endpoint, defaults: ServiceDefaults, callHeaderFields: HTTPFields) {
        method = endpoint.method
        path = endpoint.path
        pathParameters = endpoint.pathParameters
        parameters = endpoint.parameters
        body = endpoint.body
        headerFields = defaults.headerFields.replacing(with: endpoint.headerFields).replacing(with: callHeaderFields)
        encoding = (endpoint.encoding ?? defaults.parameterEncoding).resolved(for: endpoint.method)
    }

    /// Builds the request.
    ///
    /// - Throws: ``SwitchyardError/Code/invalidRequest`` for a bad template or missing path parameter,
    ///   ``SwitchyardError/Code/invalidBaseURL`` for a bad absolute URL, ``SwitchyardError/Code/encoding``
    ///   when parameters or the body cannot be encoded.
    func build(baseURL: BaseURL, defaults: ServiceDefaults) throws(SwitchyardError) -> Request {
        var base = baseURL
        var template = Substring(path)
        if let absolute = try Self.splitAbsolute(path) {
            base = absolute.base
            template = absolute.rest
        }
        var templateQuery: Substring?
        if let mark = template.firstIndex(of: "?") {
            templateQuery = template[template.index(after: mark)...]
            template = template[..<mark]
        }
        let relative = try expand(template)
        var target: String
        if relative.isEmpty {
            target = base.pathPrefix.isEmpty ? "/" : base.pathPrefix
        } else {
            target = base.pathPrefix + (relative.hasPrefix("/") ? relative : "/" + relative)
        }

        var queryParts: [String] = []
        if let query = base.query { queryParts.append(query) }
        if let templateQuery, !templateQuery.isEmpty { queryParts.append(PercentEncoding.encodeQueryLiteral(String(templateQuery))) }

        var fields = headerFields
        var bodyData: Data?
        let formEncoder = FormURLEncoder(arrayStyle: defaults.queryArrayStyle)
        if let body {
            let made: (data: Data, contentType: String?)
            do {
                let encoder = defaults.makeEncoder()
                encoder.outputFormatting.insert(.sortedKeys)
                made = try body.make(encoder)
            } catch {
                throw SwitchyardError(code: .encoding, message: "the request body cannot be encoded: \(error)", underlyingError: error)
            }
            bodyData = made.data
            if let type = made.contentType, fields[.contentType] == nil { fields[.contentType] = type }
            let query = try formEncoder.encode(parameters)
            if !query.isEmpty { queryParts.append(query) }
        } else if !parameters.isEmpty {
            switch encoding {
            case .query, .automatic:
                let query = try formEncoder.encode(parameters)
                if !query.isEmpty { queryParts.append(query) }
            case .form:
                bodyData = Data(try formEncoder.encode(parameters).utf8)
                if fields[.contentType] == nil { fields[.contentType] = "application/x-www-form-urlencoded; charset=utf-8" }
            case .json:
                do {
                    let encoder = defaults.makeEncoder()
                    encoder.outputFormatting.insert(.sortedKeys)
                    bodyData = try encoder.encode(parameters)
                } catch {
                    throw SwitchyardError(code: .encoding, message: "the parameters cannot be encoded as JSON: \(error)", underlyingError: error)
                }
                if fields[.contentType] == nil { fields[.contentType] = "application/json" }
            }
        }
        if !queryParts.isEmpty { target += "?" + queryParts.joined(separator: "&") }
        let head = HTTPRequest(method: method, scheme: base.scheme, authority: base.authority, path: target, headerFields: fields)
        return Request(head: head, body: bodyData)
    }

    /// Replaces `{name}` placeholders and percent-encodes the literal text.
    private func expand(_ template: Substring) throws(SwitchyardError) -> String {
        var output = ""
        var used = Set<String>()
        var rest = template
        while let open = rest.firstIndex(of: "{") {
            output += PercentEncoding.encodePathLiteral(String(rest[..<open]))
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}") else {
                throw invalid("the path template '\(path)' has a '{' without a matching '}'")
            }
            let name = String(rest[afterOpen..<close])
            guard !name.isEmpty, !name.contains("{") else {
                throw invalid("the path template '\(path)' has an empty or nested placeholder")
            }
            guard let value = pathParameters[name] else {
                throw invalid("the path template '\(path)' needs a value for {\(name)}, and none was given")
            }
            guard !value.isEmpty else {
                throw invalid("the path parameter {\(name)} is empty, which would change the path's meaning")
            }
            output += PercentEncoding.encodeComponent(value)
            used.insert(name)
            rest = rest[rest.index(after: close)...]
        }
        if rest.contains("}") { throw invalid("the path template '\(path)' has a '}' without a matching '{'") }
        output += PercentEncoding.encodePathLiteral(String(rest))
        let unused = Set(pathParameters.keys).subtracting(used)
        if !unused.isEmpty {
            throw invalid("the path template '\(path)' has no placeholder for " + unused.sorted().map { "{\($0)}" }.joined(separator: ", "))
        }
        return output
    }

    /// Splits `https://host:port/rest` into a base URL and the rest of the template.
    private static func splitAbsolute(_ path: String) throws(SwitchyardError) -> (base: BaseURL, rest: Substring)? {
        let lower = path.prefix(8).lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        guard let schemeEnd = path.range(of: "://") else { return nil }
        let afterScheme = path[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? path.endIndex
        let base = try BaseURL(String(path[..<authorityEnd]))
        return (base, path[authorityEnd...])
    }

    private func invalid(_ message: String) -> SwitchyardError {
        SwitchyardError(code: .invalidRequest, message: message)
    }
}
