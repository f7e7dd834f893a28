import HTTPTypes
import Foundation

/// Turns an endpoint's description into a ``Request`` against a base URL.
///
/// Templates are scanned as UTF-8 bytes and the target is written into one buffer, so building a
/// request costs a handful of allocations whatever the template looks like.
enum RequestBuilder {
    /// Builds the request.
    ///
    /// - Throws: ``SwitchyardError/Code/invalidRequest`` for a bad template or missing path parameter,
    ///   ``SwitchyardError/Code/invalidBaseURL`` for a bad absolute URL, ``SwitchyardError/Code/encoding``
    ///   when parameters or the body cannot be encoded.
    static func build<E: Endpoint>(
        _ endpoint: E, baseURL: BaseURL, defaults: ServiceDefaults, callHeaderFields: HTTPFields, encoding: ParameterEncoding
    ) throws(SwitchyardError) -> Request {
        let path = endpoint.path
        let pathParameters = endpoint.pathParameters
        var base = baseURL
        var template = Substring(path)
        if let absolute = try splitAbsolute(path) {
            base = absolute.base
            template = absolute.rest
        }
        var templateQuery: Substring?
        if let mark = template.utf8.firstIndex(of: UInt8(ascii: "?")) {
            templateQuery = template[template.index(after: mark)...]
            template = template[..<mark]
        }

        // Path: the base's prefix, one slash, the expanded template.
        var target: [UInt8] = []
        target.reserveCapacity(base.pathPrefix.utf8.count + path.utf8.count + 32)
        target.append(contentsOf: base.pathPrefix.utf8)
        if let first = template.utf8.first, first != UInt8(ascii: "/") { target.append(UInt8(ascii: "/")) }
        var used: [String] = []
        try expand(template, literal: .pathLiteral, parameters: pathParameters, template: path, used: &used, into: &target)
        if target.isEmpty { target.append(UInt8(ascii: "/")) }

        // Query: the base's, the template's, then parameters sent in the query.
        var separator = UInt8(ascii: "?")
        func startQueryPart() {
            target.append(separator)
            separator = UInt8(ascii: "&")
        }
        if let query = base.query {
            startQueryPart()
            target.append(contentsOf: query.utf8)
        }
        if let templateQuery, !templateQuery.isEmpty {
            startQueryPart()
            try expand(templateQuery, literal: .queryLiteral, parameters: pathParameters, template: path, used: &used, into: &target)
        }
        try checkAllUsed(pathParameters, used: used, template: path)

        var fields = defaults.headerFields.replacing(with: endpoint.headerFields).replacing(with: callHeaderFields)
        let contentTypeChosen = endpoint.headerFields[.contentType] != nil || callHeaderFields[.contentType] != nil
        func setContentType(_ type: String?) {
            if let type, !contentTypeChosen { fields[.contentType] = type }
        }
        let parameters = endpoint.parameters
        let formEncoder = FormURLEncoder(arrayStyle: defaults.queryArrayStyle)
        var body: Data?
        if let explicit = endpoint.body {
            do {
                let encoder = defaults.makeEncoder()
                encoder.outputFormatting.insert(.sortedKeys)
                let made = try explicit.make(encoder)
                body = made.data
                setContentType(made.contentType)
            } catch {
                throw SwitchyardError(code: .encoding, message: "the request body cannot be encoded: \(error)", underlyingError: error)
            }
        }
        if !parameters.isEmpty {
            switch body == nil ? encoding : .query {
            case .query, .automatic:
                let query = try formEncoder.encode(parameters)
                if !query.isEmpty {
                    startQueryPart()
                    target.append(contentsOf: query.utf8)
                }
            case .form:
                body = Data(try formEncoder.encode(parameters).utf8)
                setContentType("application/x-www-form-urlencoded; charset=utf-8")
            case .json:
                do {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = .sortedKeys
                    body = try encoder.encode(parameters)
                } catch {
                    throw SwitchyardError(code: .encoding, message: "the parameters cannot be encoded as JSON: \(error)", underlyingError: error)
                }
                setContentType("application/json")
            }
        }
        let head = HTTPRequest(
            method: endpoint.method, scheme: base.scheme, authority: base.authority,
            path: String(decoding: target, as: UTF8.self), headerFields: fields
        )
        return Request(head: head, body: body)
    }

    /// Replaces `{name}` placeholders with percent-encoded values and encodes the literal text.
    private static func expand(
        _ part: Substring, literal: PercentEncoding.Allowed, parameters: [String: String], template: String,
        used: inout [String], into output: inout [UInt8]
    ) throws(SwitchyardError) {
        let bytes = part.utf8
        var cursor = bytes.startIndex
        while cursor != bytes.endIndex {
            guard let open = bytes[cursor...].firstIndex(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) else {
                PercentEncoding.append(bytes[cursor...], literal, to: &output)
                return
            }
            guard bytes[open] == UInt8(ascii: "{") else {
                throw invalid("the path template '\(template)' has a '}' without a matching '{'")
            }
            PercentEncoding.append(bytes[cursor..<open], literal, to: &output)
            let nameStart = bytes.index(after: open)
            guard let close = bytes[nameStart...].firstIndex(where: { $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: "{") }),
                  bytes[close] == UInt8(ascii: "}")
            else {
                throw invalid("the path template '\(template)' has a '{' without a matching '}'")
            }
            let name = String(part[nameStart..<close])
            guard !name.isEmpty else { throw invalid("the path template '\(template)' has an empty placeholder") }
            guard let value = parameters[name] else {
                throw invalid("the path template '\(template)' needs a value for {\(name)}, and none was given")
            }
            guard !value.isEmpty else {
                throw invalid("the path parameter {\(name)} is empty, which would change the path's meaning")
            }
            guard value != ".", value != ".." else {
                throw invalid("the path parameter {\(name)} is '\(value)', a dot segment that servers resolve away")
            }
            PercentEncoding.append(value.utf8, .component, to: &output)
            if !used.contains(name) { used.append(name) }
            cursor = bytes.index(after: close)
        }
    }

    /// Fails when a path parameter has no placeholder (usually a typo in its name).
    private static func checkAllUsed(_ parameters: [String: String], used: [String], template: String) throws(SwitchyardError) {
        guard used.count < parameters.count else { return }
        let unused = parameters.keys.filter { !used.contains($0) }.sorted()
        throw invalid("the path template '\(template)' has no placeholder for " + unused.map { "{\($0)}" }.joined(separator: ", "))
    }

    /// Splits `https://host:port/rest` into a base URL and the rest of the template.
    private static func splitAbsolute(_ path: String) throws(SwitchyardError) -> (base: BaseURL, rest: Substring)? {
        let utf8 = path.utf8
        guard let first = utf8.first, first == UInt8(ascii: "h") || first == UInt8(ascii: "H") else { return nil }
        let lower = path.prefix(8).lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        let afterScheme = path.index(path.startIndex, offsetBy: lower.hasPrefix("https://") ? 8 : 7)
        let authorityEnd = path[afterScheme...].utf8.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? path.endIndex
        let base = try BaseURL(String(path[..<authorityEnd]))
        return (base, path[authorityEnd...])
    }

    private static func invalid(_ message: String) -> SwitchyardError {
        SwitchyardError(code: .invalidRequest, message: message)
    }
}
