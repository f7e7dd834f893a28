import OpenAPIKit

/// Operations → endpoints: names, parameters with their styles, bodies and responses by status.
extension OpenAPIImporter {
    /// One endpoint per operation, in path order; an operation the generator cannot call is left out
    /// with a warning.
    func endpoints(names: [String: String]) -> [APIDescription.Endpoint] {
        var result: [APIDescription.Endpoint] = []
        for (path, item) in document.paths {
            let itemPath = ["paths", path.rawValue]
            guard let pathItem = item.b ?? (try? document.components.lookup(item)) else {
                warn("the path item reference of '\(path.rawValue)' cannot be resolved", at: itemPath)
                continue
            }
            let pathOptions = SwitchyardExtensions(importer: self, path: itemPath).options(over: documentOptions)
            for entry in pathItem.endpoints {
                let method = entry.method.rawValue.uppercased()
                let operationPath = itemPath + [entry.method.rawValue.lowercased()]
                let name = names[operationPath.joined(separator: " ")] ?? claimName(method + " " + path.rawValue)
                if let endpoint = endpoint(
                    entry.operation,
                    name: name,
                    method: method,
                    path: "/" + path.components.joined(separator: "/"),
                    pathItem: pathItem,
                    location: operationPath,
                    inherited: pathOptions
                ) {
                    result.append(endpoint)
                }
            }
        }
        return result
    }

    /// Swift names for the operations, claimed before any model so that operations keep their names.
    func operationNames() -> [String: String] {
        var names: [String: String] = [:]
        for (path, item) in document.paths {
            guard let pathItem = item.b ?? (try? document.components.lookup(item)) else { continue }
            for entry in pathItem.endpoints {
                let key = ["paths", path.rawValue, entry.method.rawValue.lowercased()].joined(separator: " ")
                names[key] = claimName(entry.operation.operationId ?? (entry.method.rawValue.lowercased() + " " + path.rawValue))
            }
        }
        return names
    }

    private func endpoint(
        _ operation: OpenAPI.Operation,
        name: String,
        method: String,
        path: String,
        pathItem: OpenAPI.PathItem,
        location: [String],
        inherited: APIDescription.Options
    ) -> APIDescription.Endpoint? {
        var endpoint = APIDescription.Endpoint(
            name: name,
            method: method,
            path: path,
            summary: operation.summary,
            details: operation.description,
            parameters: [],
            bodyEncoding: "json",
            response: .none,
            options: SwitchyardExtensions(importer: self, path: location).options(over: inherited),
            location: locator.location(location)
        )
        // The path item's parameters first, unless the operation redeclares them, then the operation's.
        var own: [(OpenAPI.Parameter, [String])] = []
        for (index, either) in operation.parameters.enumerated() {
            if let parameter = either.b ?? (try? document.components.lookup(either)) {
                own.append((parameter, location + ["parameters", String(index)]))
            }
        }
        var declared: [(OpenAPI.Parameter, [String])] = []
        for (index, either) in pathItem.parameters.enumerated() {
            guard let parameter = either.b ?? (try? document.components.lookup(either)) else { continue }
            if !own.contains(where: { $0.0.name == parameter.name && $0.0.location == parameter.location }) {
                declared.append((parameter, Array(location.dropLast()) + ["parameters", String(index)]))
            }
        }
        declared += own
        for (parameter, parameterPath) in declared {
            switch self.parameter(parameter, endpoint: name, path: parameterPath) {
            case .some(let converted): endpoint.parameters.append(converted)
            case .none where parameter.required:
                warn("operation '\(name)' is left out: its required parameter '\(parameter.name)' cannot be generated", at: parameterPath)
                return nil
            case .none: break
            }
        }
        if let either = operation.requestBody {
            guard let request = either.b ?? (try? document.components.lookup(either)) else {
                warn("operation '\(name)' is left out: its request body reference cannot be resolved", at: location + ["requestBody"])
                return nil
            }
            guard requestBody(request, into: &endpoint, path: location + ["requestBody"]) || !request.required else {
                warn("operation '\(name)' is left out: its required request body cannot be generated", at: location + ["requestBody"])
                return nil
            }
        }
        responses(operation.responses, into: &endpoint, path: location + ["responses"])
        if !operation.callbacks.isEmpty {
            warn(
                "unsupported 'callbacks' of '\(name)': the app gets no types for the requests the API calls back with",
                at: location + ["callbacks"]
            )
        }
        let placeholders = DescriptionValidator.placeholders(in: path)
        for placeholder in placeholders where !endpoint.parameters.contains(where: { $0.location == .path && $0.name == placeholder }) {
            warn("operation '\(name)' is left out: its path parameter '{\(placeholder)}' has no declaration", at: location)
            return nil
        }
        endpoint.parameters.removeAll { parameter in
            guard parameter.location == .path, !placeholders.contains(parameter.name) else { return false }
            warn("path parameter '\(parameter.name)' is not in the path '\(path)'; it is left out", at: location)
            return true
        }
        uniqueSwiftNames(&endpoint)
        return endpoint
    }

    /// Different Swift names for the parameters and body fields of one endpoint (`x-id` and `X-Id`).
    private func uniqueSwiftNames(_ endpoint: inout APIDescription.Endpoint) {
        var used: Set<String> = ["payload", "file"]
        func unique(_ name: String) -> String { SwiftNames.unique(name, in: &used) }
        for index in endpoint.parameters.indices { endpoint.parameters[index].swiftName = unique(endpoint.parameters[index].swiftName) }
        if case .multipart(var parts) = endpoint.body {
            for index in parts.indices { parts[index].swiftName = unique(parts[index].swiftName) }
            endpoint.body = .multipart(parts)
        }
    }

    private func parameter(_ parameter: OpenAPI.Parameter, endpoint: String, path: [String]) -> APIDescription.Parameter? {
        let location: APIDescription.Parameter.Location
        switch parameter.location {
        case .query: location = .query
        case .path: location = .path
        case .header: location = .header
        case .cookie, .querystring:
            warn(
                "unsupported parameter location '\(parameter.location.rawValue)' of '\(parameter.name)'; the parameter is left out",
                at: path
            )
            return nil
        }
        guard let context = parameter.schemaOrContent.a else {
            warn("unsupported parameter: '\(parameter.name)' is described by 'content' rather than 'schema'; it is left out", at: path)
            return nil
        }
        let style = context.style.rawValue
        let supported: [String] =
            switch location {
            case .query: ["form", "spaceDelimited", "pipeDelimited", "deepObject"]
            case .path, .header, .body: ["simple"]
            }
        guard supported.contains(style) else {
            warn("unsupported style '\(style)' for the \(location.rawValue) parameter '\(parameter.name)'; it is left out", at: path)
            return nil
        }
        var schema = context.schema.flattenToJsonSchema()
        var schemaPath = path + ["schema"]
        if let arrayForm = arrayForm(of: schema) {
            (schema, schemaPath) = (arrayForm.schema, schemaPath + arrayForm.path)
        }
        guard let declared = type(of: schema, hint: endpoint + SwiftNames.upperCamel(parameter.name), path: schemaPath) else {
            return nil
        }
        guard let type = textType(declared.unwrapped, objects: location == .query) else {
            warn(
                "unsupported \(location.rawValue) parameter type '\(declared.unwrapped)' of '\(parameter.name)'"
                    + " (only scalars, string enumerations, arrays of them and, in the query, objects of them); it is left out",
                at: path + ["schema"]
            )
            return nil
        }
        var swiftName = SwiftNames.member(parameter.name)
        if SwiftNames.endpointMembers.contains(swiftName) { swiftName += "Parameter" }
        return APIDescription.Parameter(
            name: parameter.name,
            swiftName: swiftName,
            type: type,
            location: location,
            required: parameter.required,
            defaultLiteral: nil,
            defaultText: nil,
            summary: parameter.description,
            sourceLocation: locator.location(path),
            style: APIDescription.Style(name: style, explode: context.explode)
        )
    }
}
