import OpenAPIKit

/// Request bodies (JSON, form, multipart, uploads) and responses by status.
extension OpenAPIImporter {
    /// Reads the body into the endpoint; `false` when no content type of it can be generated.
    func requestBody(_ request: OpenAPI.Request, into endpoint: inout APIDescription.Endpoint, path: [String]) -> Bool {
        let contents = request.content.compactMap { type, either -> (String, OpenAPI.Content)? in
            guard let content = either.b ?? (try? document.components.lookup(either)) else { return nil }
            return (type.typeAndSubtype.lowercased(), content)
        }
        let hint = endpoint.name + "Body"
        if let (mediaType, content) = contents.first(where: { isJSON($0.0) }) {
            let contentPath = path + ["content", mediaType, "schema"]
            guard let schema = content.schema, let type = type(of: schema, hint: hint, path: contentPath) else { return false }
            endpoint.body = .json(type.unwrapped, required: request.required)
            return true
        }
        if let (mediaType, content) = contents.first(where: { $0.0 == "application/x-www-form-urlencoded" }) {
            let contentPath = path + ["content", mediaType, "schema"]
            guard let (context, objectPath) = objectContext(content.schema, path: contentPath) else { return false }
            endpoint.bodyEncoding = "form"
            for (key, schema) in context.properties {
                let memberPath = objectPath + ["properties", key]
                guard let declared = type(of: schema, hint: endpoint.name + SwiftNames.upperCamel(key), path: memberPath) else { continue }
                guard let type = textType(declared.unwrapped, objects: false) else {
                    warn("unsupported form field type '\(declared.unwrapped)' of '\(key)'; the field is left out", at: memberPath)
                    continue
                }
                var swiftName = SwiftNames.member(key)
                if SwiftNames.endpointMembers.contains(swiftName) { swiftName += "Parameter" }
                endpoint.parameters.append(
                    APIDescription.Parameter(
                        name: key,
                        swiftName: swiftName,
                        type: type.unwrapped,
                        location: .body,
                        required: context.requiredProperties.contains(key),
                        defaultLiteral: nil,
                        defaultText: nil,
                        summary: schema.description,
                        sourceLocation: locator.location(memberPath),
                        style: APIDescription.Style(name: "form", explode: true)
                    )
                )
            }
            return true
        }
        if let (mediaType, content) = contents.first(where: { $0.0 == "multipart/form-data" }) {
            let contentPath = path + ["content", mediaType, "schema"]
            guard let (context, objectPath) = objectContext(content.schema, path: contentPath) else { return false }
            var parts: [APIDescription.Part] = []
            for (key, schema) in context.properties {
                let memberPath = objectPath + ["properties", key]
                let required = context.requiredProperties.contains(key)
                var swiftName = SwiftNames.member(key)
                if SwiftNames.endpointMembers.contains(swiftName) { swiftName += "Parameter" }
                if isFile(schema) {
                    parts.append(
                        APIDescription.Part(name: key, swiftName: swiftName, type: nil, required: required, summary: schema.description)
                    )
                } else if let declared = type(of: schema, hint: endpoint.name + SwiftNames.upperCamel(key), path: memberPath) {
                    guard let type = textType(declared.unwrapped, objects: false) else {
                        warn("unsupported multipart field type '\(declared.unwrapped)' of '\(key)'; the field is left out", at: memberPath)
                        continue
                    }
                    parts.append(
                        APIDescription.Part(name: key, swiftName: swiftName, type: type, required: required, summary: schema.description)
                    )
                }
            }
            endpoint.body = .multipart(parts)
            return true
        }
        if let (mediaType, _) = contents.first {
            if mediaType.hasSuffix("/*") || mediaType.hasPrefix("application/") || mediaType.hasPrefix("image/")
                || mediaType.hasPrefix("video/") || mediaType.hasPrefix("audio/") || mediaType.hasPrefix("text/")
            {
                endpoint.body = .file(contentType: mediaType.hasSuffix("/*") ? "application/octet-stream" : mediaType)
                return true
            }
            warn("unsupported request body media type '\(mediaType)'", at: path + ["content", mediaType])
        }
        return false
    }

    /// The documented responses: the successful ones make the output, the others the error bodies.
    func responses(_ responses: OpenAPI.Response.Map, into endpoint: inout APIDescription.Endpoint, path: [String]) {
        var successes: [APIDescription.StatusResponse] = []
        var raw = false
        // The first successful answer in a streaming media type (without JSON beside it): its media type,
        // values and place; and the streams offered beside a JSON answer.
        var stream: (mediaType: String, element: TypeReference?, path: [String])?
        var alternatives: [(mediaType: String, path: [String])] = []
        for (status, either) in responses {
            let statusPath = path + [status.rawValue]
            let code: Int?
            var range: Int?
            switch status.value {
            case .status(let number): code = number
            case .default: code = nil
            case .range(let hundreds):
                code = nil
                range = Int(hundreds.rawValue.prefix(1))
            }
            guard let response = either.b ?? (try? document.components.lookup(either)) else {
                warn("the response reference for \(status.rawValue) cannot be resolved", at: statusPath)
                continue
            }
            endpoint.examples += examples(of: response, status: code, path: statusPath)
            var type: TypeReference?
            let contents = response.content.map { (self.mediaType($0.key), $0.key.rawValue, $0.value) }
            let successful = code.map { (200..<300).contains($0) } ?? (range == 2)
            if let (mediaType, _, either) = contents.first(where: { isJSON($0.0) }),
                let content = either.b ?? (try? document.components.lookup(either)), let schema = content.schema
            {
                let hint = endpoint.name + (code.map { "Response\($0)" } ?? range.map { "Response\($0)XX" } ?? "DefaultResponse")
                type = self.type(of: schema, hint: hint, path: statusPath + ["content", mediaType, "schema"])
            } else if successful, stream == nil,
                let (mediaType, key, either) = contents.first(where: { Self.streamMediaTypes.contains($0.0) }),
                let content = either.b ?? (try? document.components.lookup(either))
            {
                let contentPath = statusPath + ["content", key]
                stream = (
                    mediaType, streamElement(content, mediaType: mediaType, hint: endpoint.name + "Element", path: contentPath), contentPath
                )
            } else if !contents.isEmpty, let code, (200..<300).contains(code) {
                raw = true
            }
            if successful, type != nil, let (mediaType, key, _) = contents.first(where: { Self.streamMediaTypes.contains($0.0) }) {
                alternatives.append((mediaType, statusPath + ["content", key]))
            }
            var entry = APIDescription.StatusResponse(status: code, type: type, summary: response.description)
            entry.range = range
            if let code, (200..<300).contains(code) {
                successes.append(entry)
            } else if range == 2 {
                successes.append(entry)
            } else {
                endpoint.errorResponses.append(entry)
            }
        }
        // Matched in this order: statuses, then ranges, then `default`.
        func rank(_ response: APIDescription.StatusResponse) -> Int { response.status != nil ? 0 : response.range != nil ? 1 : 2 }
        successes = successes.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
        endpoint.errorResponses = endpoint.errorResponses.enumerated().sorted {
            (rank($0.element), $0.offset) < (rank($1.element), $1.offset)
        }
        .map(\.element)
        let types = Set(successes.map { $0.type?.swiftType ?? "" })
        // An operation that streams and answers no JSON streams, whatever its other successes; one that
        // answers JSON or a stream is called for its JSON (as before streams were read), with a warning.
        if let stream, !successes.contains(where: { $0.type != nil }) {
            endpoint.response = .stream(mediaType: stream.mediaType, element: stream.element)
            return
        }
        if let stream { alternatives.insert((stream.mediaType, stream.path), at: 0) }
        for alternative in alternatives {
            warn(
                "operation '\(endpoint.name)' answers JSON or '\(alternative.mediaType)'; its endpoint decodes the JSON answer,"
                    + " and the stream is not generated",
                at: alternative.path
            )
        }
        if raw {
            endpoint.response = .raw
        } else if types.count > 1 {
            endpoint.successResponses = successes
        } else if let type = successes.first?.type {
            endpoint.response = .decoded(type)
        }
    }

    func isJSON(_ mediaType: String) -> Bool {
        mediaType == "application/json" || mediaType.hasSuffix("+json")
    }

    /// A file in a multipart body: a binary string (`format: binary`, or 3.1's `contentMediaType`).
    private func isFile(_ schema: JSONSchema) -> Bool {
        guard case .string(let core, let context) = schema.value else { return false }
        return core.format == .other("binary") || context.contentMediaType != nil || context.contentEncoding == .binary
    }

    /// The object schema of a form body, references followed.
    private func objectContext(_ schema: JSONSchema?, path: [String]) -> (JSONSchema.ObjectContext, [String])? {
        guard var schema else { return nil }
        var schemaPath = path
        if case .reference(let reference, _) = schema.value, let name = reference.name,
            let target = document.components.schemas[OpenAPI.ComponentKey(stringLiteral: name)]
        {
            schema = target
            schemaPath = ["components", "schemas", name]
        }
        guard case .object(_, let context) = schema.value else {
            warn("unsupported form body: its schema is not an object with properties", at: path)
            return nil
        }
        return (context, schemaPath)
    }
}
