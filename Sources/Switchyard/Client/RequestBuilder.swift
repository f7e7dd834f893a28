import Foundation
import HTTPTypes

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
        let pathParameters = endpoint.pathParameters
        var template = endpoint.path
        var target: [UInt8] = []
        var separator = UInt8(ascii: "?")
        let composed: Result<BaseURL, SwitchyardError> = template.withUTF8 { utf8 in
            do throws(SwitchyardError) {
                return .success(
                    try composeTarget(
                        utf8,
                        template: endpoint.path,
                        baseURL: baseURL,
                        parameters: pathParameters,
                        into: &target,
                        separator: &separator
                    )
                )
            } catch {
                return .failure(error)
            }
        }
        let base = try composed.get()
        func startQueryPart() {
            target.append(separator)
            separator = UInt8(ascii: "&")
        }

        let endpointFields = endpoint.headerFields
        var fields = defaults.headerFields.replacing(with: endpointFields).replacing(with: callHeaderFields)
        fields.reserveCapacity(fields.count + expectedStageFields)  // room for the fields stages add, without regrowing
        // Fields made once (their values checked once), appended where the call carries none.
        if let userAgent, fields[.userAgent] == nil { fields.append(userAgent.field) }
        if let accept = endpoint.acceptedMediaType, fields[.accept] == nil {
            fields.append(accept == "application/json" ? acceptJSON : HTTPField(name: .accept, value: accept))
        }
        func setContentType(_ type: String?) {
            guard let type, endpointFields[.contentType] == nil, callHeaderFields[.contentType] == nil else { return }
            fields[.contentType] = type
        }
        let parameters = endpoint.parameters
        let formEncoder = FormURLEncoder(arrayStyle: defaults.queryArrayStyle)
        var body: Data?
        var streamed: StreamedBody?
        if let explicit = endpoint.body, let stream = explicit.streamed {
            streamed = stream.body
            setContentType(stream.contentType)
        } else if let explicit = endpoint.body {
            do {
                let made = try explicit.make(encoder)
                body = made.data
                setContentType(made.contentType)
            } catch {
                throw SwitchyardError(code: .encoding, message: "the request body cannot be encoded: \(error)", underlyingError: error)
            }
        }
        if !parameters.isEmpty {
            switch body == nil && streamed == nil ? encoding : .query {
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
                body = try jsonObject(parameters)
                setContentType("application/json")
            case .jsonFormField(let name):
                let json = try jsonObject(parameters)
                let field =
                    PercentEncoding.encodeComponent(name) + "=" + PercentEncoding.encodeComponent(String(decoding: json, as: UTF8.self))
                body = Data(field.utf8)
                setContentType("application/x-www-form-urlencoded; charset=utf-8")
            }
        }
        let head = HTTPRequest(
            method: endpoint.method,
            scheme: base.scheme,
            authority: base.authority,
            path: String(decoding: target, as: UTF8.self),
            headerFields: fields
        )
        return Request(head: head, body: streamed.map(Request.Body.stream) ?? body.map(Request.Body.bytes))
    }

    /// `Accept: application/json`, the field most endpoints send.
    private static let acceptJSON = HTTPField(name: .accept, value: "application/json")

    /// Writes the request target's path and the base's and template's queries into `target`;
    /// returns the base URL in force (the template's own, when it is an absolute URL).
    /// The parameters as one JSON object, keys sorted at every depth, written byte by byte.
    private static func jsonObject(_ parameters: Parameters) throws(SwitchyardError) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(16 * parameters.count + 2)
        try JSONValueWriter.append(.object(parameters), name: "", sortingKeys: true, to: &output)
        return Data(output)
    }

    private static func composeTarget(
        _ utf8: UnsafeBufferPointer<UInt8>,
        template: String,
        baseURL: BaseURL,
        parameters: [String: String],
        into target: inout [UInt8],
        separator: inout UInt8
    ) throws(SwitchyardError) -> BaseURL {
        var base = baseURL
        var start = 0
        if let authorityStart = absolutePrefixLength(utf8) {
            var end = authorityStart
            while end < utf8.count, utf8[end] != UInt8(ascii: "/"), utf8[end] != UInt8(ascii: "?") { end += 1 }
            base = try BaseURL(String(decoding: UnsafeBufferPointer(rebasing: utf8[0..<end]), as: UTF8.self))
            start = end
        }
        var pathEnd = start
        while pathEnd < utf8.count, utf8[pathEnd] != UInt8(ascii: "?") { pathEnd += 1 }

        target.reserveCapacity(base.pathPrefix.utf8.count + utf8.count + 32)
        target.append(contentsOf: base.pathPrefix.utf8)
        if start < pathEnd, utf8[start] != UInt8(ascii: "/") { target.append(UInt8(ascii: "/")) }
        var used = 0
        try expand(utf8, start..<pathEnd, literal: .pathLiteral, parameters: parameters, template: template, used: &used, into: &target)
        if target.isEmpty { target.append(UInt8(ascii: "/")) }

        if let query = base.query {
            target.append(separator)
            separator = UInt8(ascii: "&")
            target.append(contentsOf: query.utf8)
        }
        if pathEnd + 1 < utf8.count {
            target.append(separator)
            separator = UInt8(ascii: "&")
            try expand(
                utf8,
                (pathEnd + 1)..<utf8.count,
                literal: .queryLiteral,
                parameters: parameters,
                template: template,
                used: &used,
                into: &target
            )
        }
        if used < parameters.count {
            let named = placeholderNames(utf8, start..<utf8.count)
            let unused = parameters.keys.filter { !named.contains($0) }.sorted()
            throw invalid("the path template '\(template)' has no placeholder for " + unused.map { "{\($0)}" }.joined(separator: ", "))
        }
        return base
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

    /// Replaces `{name}` placeholders in `range` with percent-encoded values and encodes the literal text.
    private static func expand(
        _ utf8: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>,
        literal: PercentEncoding.Allowed,
        parameters: [String: String],
        template: String,
        used: inout Int,
        into output: inout [UInt8]
    ) throws(SwitchyardError) {
        var cursor = range.lowerBound
        var index = cursor
        while index < range.upperBound {
            let byte = utf8[index]
            if byte == UInt8(ascii: "}") { throw invalid("the path template '\(template)' has a '}' without a matching '{'") }
            guard byte == UInt8(ascii: "{") else {
                index += 1
                continue
            }
            PercentEncoding.append(utf8[cursor..<index], literal, to: &output)
            var close = index + 1
            while close < range.upperBound, utf8[close] != UInt8(ascii: "}"), utf8[close] != UInt8(ascii: "{") { close += 1 }
            guard close < range.upperBound, utf8[close] == UInt8(ascii: "}") else {
                throw invalid("the path template '\(template)' has a '{' without a matching '}'")
            }
            let name = String(decoding: UnsafeBufferPointer(rebasing: utf8[(index + 1)..<close]), as: UTF8.self)
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
            if !appearsEarlier(utf8, placeholder: (index + 1)..<close, before: index) { used += 1 }
            index = close + 1
            cursor = index
        }
        PercentEncoding.append(utf8[cursor..<range.upperBound], literal, to: &output)
    }

    /// Whether the placeholder whose name spans `name` appeared before `position` in the template:
    /// distinct names are counted without collecting them.
    private static func appearsEarlier(_ utf8: UnsafeBufferPointer<UInt8>, placeholder name: Range<Int>, before position: Int) -> Bool {
        let length = name.count
        var index = 0
        while index + length + 1 < position {
            if utf8[index] == UInt8(ascii: "{"), utf8[index + length + 1] == UInt8(ascii: "}") {
                var same = true
                for offset in 0..<length where utf8[index + 1 + offset] != utf8[name.lowerBound + offset] {
                    same = false
                    break
                }
                if same { return true }
            }
            index += 1
        }
        return false
    }

    /// The names of the placeholders in `range` (only asked for to name unused parameters).
    private static func placeholderNames(_ utf8: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Set<String> {
        var names: Set<String> = []
        var open: Int?
        for index in range {
            switch utf8[index] {
            case UInt8(ascii: "{"): open = index + 1
            case UInt8(ascii: "}"):
                if let start = open { names.insert(String(decoding: UnsafeBufferPointer(rebasing: utf8[start..<index]), as: UTF8.self)) }
                open = nil
            default: break
            }
        }
        return names
    }

    private static func invalid(_ message: String) -> SwitchyardError {
        SwitchyardError(code: .invalidRequest, message: message)
    }
}
