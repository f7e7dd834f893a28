import Foundation
import Yams

/// Reads a description file (YAML) into an ``APIDescription``, reporting every problem with its file,
/// line and column.
///
/// ```swift
/// let description = try DescriptionParser.parse(yaml: text, file: "Catalog.switchyard.yaml")
/// ```
///
/// The format is documented in `Docs/DescriptionFormat.md`, with a JSON Schema for editors in
/// `Docs/switchyard-description.schema.json`.
public enum DescriptionParser {
    static let topKeys = ["version", "name", "access", "services", "models"]
    static let serviceKeys = ["summary", "environments", "timeout", "envelope", "encrypted", "endpoints"]
    static let envelopeKeys = ["code", "message", "data", "success"]
    static let endpointKeys = [
        "method", "path", "summary", "description", "parameters", "bodyEncoding", "body", "response", "options", "examples",
    ]
    static let parameterKeys = ["type", "in", "required", "default", "description"]
    static let streamKeys = ["stream", "element"]
    static let optionKeys = ["encrypted", "cache", "retries", "timeout", "tags", "sameRequest"]
    static let cacheKeys = ["policy", "maxAge"]
    static let modelKeys = ["summary", "fields"]
    static let fieldKeys = ["type", "description", "swiftName"]

    /// Parses and validates a description.
    ///
    /// - Parameters:
    ///   - yaml: the file's text.
    ///   - file: the path shown in errors; its name (before the first `.`) names the namespace unless
    ///     the file sets `name:`.
    /// - Throws: ``DescriptionErrors`` with every problem found.
    public static func parse(yaml: String, file: String) throws(DescriptionErrors) -> APIDescription {
        let reader = YAMLReader(file: file)
        guard let root = try DocumentLimits.compose(yaml, file: file) else {
            throw DescriptionErrors([
                DescriptionError(
                    "the description is empty; it needs at least 'services'",
                    at: SourceLocation(file: file, line: 1, column: 1)
                )
            ])
        }
        let baseName = (file as NSString).lastPathComponent.split(separator: ".").first.map(String.init) ?? "Generated"
        var description = APIDescription(file: file, name: SwiftNames.upperCamel(baseName), access: .internal, services: [], models: [])
        if let top = reader.fields(root, "the description", allowed: topKeys) {
            if let version = top["version"], reader.int(version, "'version'") != 1 {
                reader.error("only version 1 of the description format exists", at: version)
            }
            if let nameNode = top["name"], let name = reader.string(nameNode, "'name'") {
                if SwiftNames.isTypeName(name) {
                    description.name = name
                } else {
                    reader.error("'name' must be an upper-camel Swift type name such as 'Catalog', not '\(name)'", at: nameNode)
                }
            }
            if let access = top["access"], let text = reader.string(access, "'access'") {
                if let level = APIDescription.Access(rawValue: text) {
                    description.access = level
                } else {
                    reader.error("'access' must be 'internal' or 'public', not '\(text)'", at: access)
                }
            }
            if let services = top["services"] {
                description.services = (reader.entries(services, "'services'") ?? []).compactMap {
                    service($0.key, $0.keyNode, $0.value, reader)
                }
            } else {
                reader.error("the description has no 'services'", at: root)
            }
            if let models = top["models"] {
                description.models = (reader.entries(models, "'models'") ?? []).compactMap { model($0.key, $0.keyNode, $0.value, reader) }
            }
        }
        var errors = reader.errors
        errors += DescriptionValidator.validate(description)
        guard errors.isEmpty else { throw DescriptionErrors(errors) }
        return description
    }

    /// A YAML syntax error at its place.
    static func yamlError(_ error: any Error, file: String, yaml: String) -> DescriptionError {
        if let failure = error as? YamlError {
            switch failure {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
                return DescriptionError(
                    "the file is not valid YAML: \(problem)",
                    at: SourceLocation(file: file, line: mark.line, column: mark.column)
                )
            case .duplicatedKeysInMapping(let duplicates, let context):
                let place = secondOccurrence(of: duplicates.first ?? "", in: yaml, from: context.mark)
                return DescriptionError(
                    "duplicate key\(duplicates.count > 1 ? "s" : "") \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in one mapping"
                        + " (first at \(context.mark.line):\(context.mark.column))",
                    at: SourceLocation(file: file, line: place.line, column: place.column)
                )
            default:
                break
            }
        }
        return DescriptionError("the file cannot be read as YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
    }

    /// Where a duplicated block-mapping key appears the second time at the mapping's indentation (YAML
    /// reports only where the mapping starts); the mapping's start when it cannot be found.
    static func secondOccurrence(of key: String, in yaml: String, from mark: Mark) -> (line: Int, column: Int) {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        var seen = 0
        for index in (mark.line - 1)..<lines.count {
            let line = lines[index]
            let indentation = line.prefix { $0 == " " }.count
            guard indentation + 1 == mark.column || index == mark.line - 1 else {
                if indentation + 1 < mark.column, !line.trimmingCharacters(in: .whitespaces).isEmpty, index > mark.line - 1 { break }
                continue
            }
            let text = line.dropFirst(indentation)
            if text.hasPrefix(key + ":") || text.hasPrefix("\"\(key)\":") || text.hasPrefix("'\(key)':") {
                seen += 1
                if seen == 2 { return (index + 1, indentation + 1) }
            }
        }
        return (mark.line, mark.column)
    }

    private static func service(_ id: String, _ keyNode: Node, _ node: Node, _ reader: YAMLReader) -> APIDescription.Service? {
        guard let fields = reader.fields(node, "service '\(id)'", allowed: serviceKeys) else { return nil }
        var service = APIDescription.Service(
            id: id,
            swiftName: SwiftNames.lowerCamel(id),
            summary: reader.string(fields["summary"], "'summary'"),
            environments: [],
            timeout: reader.number(fields["timeout"], "'timeout'"),
            envelope: nil,
            encrypted: reader.bool(fields["encrypted"], "'encrypted'") ?? false,
            endpoints: [],
            location: reader.location(keyNode)
        )
        if let environments = fields["environments"] {
            for entry in reader.entries(environments, "the environments of '\(id)'") ?? [] {
                if let url = reader.string(entry.value, "a base URL") { service.environments.append((entry.key, url)) }
            }
        } else {
            reader.error("service '\(id)' has no 'environments' (base URLs by environment)", at: keyNode)
        }
        if let envelopeNode = fields["envelope"],
            let envelope = reader.fields(envelopeNode, "the envelope of '\(id)'", allowed: envelopeKeys)
        {
            var parsed = APIDescription.Envelope(
                code: reader.string(envelope["code"], "'code'") ?? "code",
                message: reader.string(envelope["message"], "'message'") ?? "msg",
                data: reader.string(envelope["data"], "'data'") ?? "data",
                successCodes: [],
                successTexts: []
            )
            for code in envelope["success"].map({ $0.sequence.map(Array.init) ?? [$0] }) ?? [] {
                if let scalar = code.scalar, scalar.style == .plain, let number = Int(scalar.string) {
                    parsed.successCodes.append(number)
                } else if let text = reader.string(code, "a success code") {
                    parsed.successTexts.append(text)
                }
            }
            if parsed.successCodes.isEmpty && parsed.successTexts.isEmpty {
                reader.error("the envelope of '\(id)' needs 'success': the business codes that mean success", at: envelopeNode)
            } else if !parsed.successCodes.isEmpty && !parsed.successTexts.isEmpty {
                reader.error("the envelope's success codes must be all numbers or all text", at: envelopeNode)
            }
            service.envelope = parsed
        }
        if let endpoints = fields["endpoints"] {
            service.endpoints = (reader.entries(endpoints, "the endpoints of '\(id)'") ?? []).compactMap {
                endpoint($0.key, $0.keyNode, $0.value, reader)
            }
        }
        return service
    }

    private static func endpoint(_ name: String, _ keyNode: Node, _ node: Node, _ reader: YAMLReader) -> APIDescription.Endpoint? {
        guard let fields = reader.fields(node, "endpoint '\(name)'", allowed: endpointKeys) else { return nil }
        let method = (reader.string(fields["method"], "'method'") ?? "GET").uppercased()
        guard let path = reader.string(fields["path"], "'path'") else {
            reader.error("endpoint '\(name)' has no 'path'", at: keyNode)
            return nil
        }
        var endpoint = APIDescription.Endpoint(
            name: name,
            method: method,
            path: path,
            summary: reader.string(fields["summary"], "'summary'"),
            details: reader.string(fields["description"], "'description'"),
            parameters: [],
            bodyEncoding: reader.string(fields["bodyEncoding"], "'bodyEncoding'") ?? "json",
            response: .none,
            options: APIDescription.Options(),
            location: reader.location(keyNode)
        )
        let placeholders = Set(DescriptionValidator.placeholders(in: path))
        if let parameters = fields["parameters"] {
            for entry in reader.entries(parameters, "the parameters of '\(name)'") ?? [] {
                if let parameter = parameter(
                    entry.key,
                    entry.keyNode,
                    entry.value,
                    method: method,
                    inPath: placeholders.contains(entry.key),
                    reader
                ) {
                    endpoint.parameters.append(parameter)
                }
            }
        }
        if let response = fields["response"], response.mapping != nil {
            endpoint.response = streamResponse(response, reader) ?? .none
        } else if let response = fields["response"], let text = reader.string(response, "'response'") {
            switch text {
            case "none": endpoint.response = .none
            case "raw": endpoint.response = .raw
            default:
                if let type = TypeReference(parsing: text) {
                    endpoint.response = .decoded(type)
                } else {
                    reader.error(
                        "'\(text)' is not a type: write a model name, a scalar (string, int, int64, double, bool), [Type], Type?, 'none' or 'raw'",
                        at: response
                    )
                }
            }
        }
        if let options = fields["options"] { endpoint.options = self.options(options, reader) }
        if let body = fields["body"] { endpoint.body = DescriptionBodyParser.body(body, reader) }
        if let examples = fields["examples"] { endpoint.examples = self.examples(examples, of: name, reader) }
        return endpoint
    }

    /// `response: { stream: <media type>, element: <type> }`: a streamed answer, read as it arrives. An event
    /// stream's `element` is the JSON of each event's data (without it, the values are the events); a JSON
    /// Lines or JSON text sequence stream's is each value's type, which it needs.
    private static func streamResponse(_ node: Node, _ reader: YAMLReader) -> APIDescription.Response? {
        guard let fields = reader.fields(node, "'response'", allowed: streamKeys) else { return nil }
        guard let mediaNode = fields["stream"] else {
            reader.error("a 'response' mapping declares a streamed answer: it needs 'stream', its media type", at: node)
            return nil
        }
        guard let mediaType = reader.string(mediaNode, "'stream'") else { return nil }
        guard OpenAPIImporter.streamMediaTypes.contains(mediaType) else {
            let known = OpenAPIImporter.streamMediaTypes.sorted().joined(separator: ", ")
            reader.error("'\(mediaType)' is not a streamed media type: write one of \(known)", at: mediaNode)
            return nil
        }
        guard let elementNode = fields["element"] else {
            if mediaType == "text/event-stream" { return .stream(mediaType: mediaType, element: nil) }
            reader.error("a '\(mediaType)' stream needs 'element', the type of each value", at: node)
            return nil
        }
        guard let text = reader.string(elementNode, "'element'") else { return nil }
        guard let type = TypeReference(parsing: text) else {
            reader.error(
                "'\(text)' is not a type: write a model name, a scalar (string, int, int64, double, bool), [Type] or Type?",
                at: elementNode
            )
            return nil
        }
        return .stream(mediaType: mediaType, element: type)
    }

    /// `examples:`: a JSON body per status, answered by an `ExampleTransport` as `application/json`.
    private static func examples(_ node: Node, of endpoint: String, _ reader: YAMLReader) -> [APIDescription.Example] {
        var examples: [APIDescription.Example] = []
        for entry in reader.entries(node, "the examples of '\(endpoint)'") ?? [] {
            guard let status = Int(entry.key), (100...599).contains(status) else {
                reader.error(
                    "'\(entry.key)' is not an HTTP status: the examples of '\(endpoint)' are keyed by status, such as 200 or 404",
                    at: entry.keyNode
                )
                continue
            }
            guard let value = jsonValue(entry.value), let body = APIDescription.Example.canonicalJSON(value) else {
                reader.error(
                    "the \(status) example of '\(endpoint)' is not JSON (an alias, or a number JSON cannot write)",
                    at: entry.value
                )
                continue
            }
            examples.append(APIDescription.Example(status: status, mediaType: "application/json", body: body))
        }
        return examples
    }

    /// A YAML value as a JSON value (`NSNull`, `Bool`, `Int`, `Double`, `String`, arrays and
    /// dictionaries of them), by its resolved tag; `nil` for an alias or a key that is not text.
    private static func jsonValue(_ node: Node) -> Any? {
        switch node {
        case .scalar:
            switch Tag.Name(rawValue: node.tag.rawValue) {
            case .null: return NSNull()
            case .bool: return node.bool
            case .int: return node.int
            case .float: return node.float
            default: return node.string
            }
        case .mapping(let mapping):
            var object: [String: Any] = [:]
            for (key, value) in mapping {
                guard let name = key.string, let member = jsonValue(value) else { return nil }
                object[name] = member
            }
            return object
        case .sequence(let sequence):
            var array: [Any] = []
            for element in sequence {
                guard let value = jsonValue(element) else { return nil }
                array.append(value)
            }
            return array
        case .alias: return nil
        }
    }

    private static func parameter(
        _ name: String,
        _ keyNode: Node,
        _ node: Node,
        method: String,
        inPath: Bool,
        _ reader: YAMLReader
    ) -> APIDescription.Parameter? {
        let bodyless = ["GET", "HEAD", "DELETE", "OPTIONS"].contains(method)
        var typeNode = node
        var fields: [String: Node] = [:]
        if node.mapping != nil {
            fields = reader.fields(node, "parameter '\(name)'", allowed: parameterKeys) ?? [:]
            guard let declared = fields["type"] else {
                reader.error("parameter '\(name)' has no 'type'", at: keyNode)
                return nil
            }
            typeNode = declared
        }
        guard let typeText = reader.string(typeNode, "the type of '\(name)'") else { return nil }
        guard let type = TypeReference(parsing: typeText) else {
            reader.error("'\(typeText)' is not a type: write string, int, int64, double, bool, or [type]", at: typeNode)
            return nil
        }
        var location: APIDescription.Parameter.Location = inPath ? .path : (bodyless ? .query : .body)
        if let placed = fields["in"], let text = reader.string(placed, "'in'") {
            if let chosen = APIDescription.Parameter.Location(rawValue: text) {
                location = chosen
            } else {
                reader.error("'in' must be one of path, query, body, header, not '\(text)'", at: placed)
            }
        }
        var swiftName = SwiftNames.member(name)
        if SwiftNames.endpointMembers.contains(swiftName) { swiftName += "Parameter" }
        var parameter = APIDescription.Parameter(
            name: name,
            swiftName: swiftName,
            type: type,
            location: location,
            required: reader.bool(fields["required"], "'required'") ?? (location == .path),
            defaultLiteral: nil,
            defaultText: nil,
            summary: reader.string(fields["description"], "'description'"),
            sourceLocation: reader.location(keyNode)
        )
        if let defaultNode = fields["default"] {
            parameter.defaultText = defaultNode.scalar?.string
            parameter.defaultLiteral = DescriptionValidator.literal(defaultNode, for: type, reader: reader, parameter: name)
        }
        return parameter
    }

    private static func options(_ node: Node, _ reader: YAMLReader) -> APIDescription.Options {
        var options = APIDescription.Options()
        guard let fields = reader.fields(node, "'options'", allowed: optionKeys) else { return options }
        options.encrypted = reader.bool(fields["encrypted"], "'encrypted'")
        options.retries = reader.int(fields["retries"], "'retries'")
        options.timeout = reader.number(fields["timeout"], "'timeout'")
        options.tags = reader.strings(fields["tags"], "'tags'")
        options.sameRequest = reader.string(fields["sameRequest"], "'sameRequest'")
        if let cache = fields["cache"] {
            if cache.scalar != nil {
                options.cachePolicy = reader.string(cache, "'cache'")
            } else if let cacheFields = reader.fields(cache, "'cache'", allowed: cacheKeys) {
                options.cachePolicy = reader.string(cacheFields["policy"], "'policy'")
                options.cacheMaxAge = reader.number(cacheFields["maxAge"], "'maxAge'")
            }
        }
        DescriptionValidator.check(options, at: node, reader: reader)
        return options
    }

    private static func model(_ name: String, _ keyNode: Node, _ node: Node, _ reader: YAMLReader) -> APIDescription.Model? {
        guard let fields = reader.fields(node, "model '\(name)'", allowed: modelKeys) else { return nil }
        var model = APIDescription.Model(
            name: name,
            summary: reader.string(fields["summary"], "'summary'"),
            fields: [],
            location: reader.location(keyNode)
        )
        guard let fieldsNode = fields["fields"] else {
            reader.error("model '\(name)' has no 'fields'", at: keyNode)
            return model
        }
        for entry in reader.entries(fieldsNode, "the fields of '\(name)'") ?? [] {
            var typeNode = entry.value
            var details: [String: Node] = [:]
            if entry.value.mapping != nil {
                details = reader.fields(entry.value, "field '\(entry.key)'", allowed: fieldKeys) ?? [:]
                guard let declared = details["type"] else {
                    reader.error("field '\(entry.key)' has no 'type'", at: entry.keyNode)
                    continue
                }
                typeNode = declared
            }
            guard let text = reader.string(typeNode, "the type of '\(entry.key)'") else { continue }
            guard let type = TypeReference(parsing: text) else {
                reader.error("'\(text)' is not a type: write a model name, string, int, int64, double, bool, [Type] or Type?", at: typeNode)
                continue
            }
            let swiftName = reader.string(details["swiftName"], "'swiftName'") ?? SwiftNames.member(entry.key)
            model.fields.append(
                APIDescription.Field(
                    key: entry.key,
                    swiftName: swiftName,
                    type: type,
                    summary: reader.string(details["description"], "'description'"),
                    location: reader.location(entry.keyNode)
                )
            )
        }
        return model
    }
}
