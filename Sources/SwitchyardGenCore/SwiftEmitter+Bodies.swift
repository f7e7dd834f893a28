/// Explicit bodies (a model as JSON, an upload from a file, a multipart form) and the types they need.
extension SwiftEmitter {
    /// Whether the generated file needs Foundation (raw or base64 data, dates, files, JSON decoders), each
    /// of which appears in the declarations' signatures (so a public file imports it publicly).
    static func usesFoundation(_ description: APIDescription) -> Bool {
        let endpoints = description.services.flatMap(\.endpoints)
        return endpoints.contains { endpoint in
            endpoint.response == .raw || bodyThrows(endpoint.body) || !endpoint.successResponses.isEmpty || !endpoint.errorResponses.isEmpty
                || !endpoint.examples.isEmpty || decodesStream(endpoint.response)
                || endpoint.parameters.contains { $0.type.mentions(.dateTime) || $0.type.mentions(.bytes) }
        } || description.usesDates || description.models.contains { model in model.fields.contains { $0.type.mentions(.bytes) } }
    }

    /// Whether an endpoint sends a multipart form (the file then imports `SwitchyardMultipart`).
    static func usesMultipart(_ description: APIDescription) -> Bool {
        description.services.contains { service in
            service.endpoints.contains { if case .multipart = $0.body { true } else { false } }
        }
    }

    static func emitBodyMembers(_ body: APIDescription.Body?, access: String, into out: inout SourceWriter) {
        guard let body else { return }
        out.line()
        switch body {
        case .json(let type, let required):
            out.doc("The JSON body.", indent: 1)
            out.line("    \(access) var payload: \(type.swiftType)\(required ? "" : "?")")
            out.doc("``payload`` as JSON.", indent: 1)
            out.line("    \(access) var body: RequestBody? { \(required ? ".json(payload)" : "payload.map { .json($0) }") }")
        case .file(let contentType):
            out.doc("The file, streamed from disk as `\(contentType)`.", indent: 1)
            out.line("    \(access) let body: RequestBody?")
        case .multipart:
            out.doc("The `multipart/form-data` body, its files streamed from disk as it is sent.", indent: 1)
            out.line("    \(access) let body: RequestBody?")
        }
    }

    static func initDoc(_ body: APIDescription.Body?) -> String {
        switch body {
        case .none, .json: "Creates the call."
        case .file: "Creates the call.\n\n- Throws: `SwitchyardError` when the file is missing or unreadable."
        case .multipart: "Creates the call and its form.\n\n- Throws: `SwitchyardError` when a file is missing or unreadable."
        }
    }

    static func bodyThrows(_ body: APIDescription.Body?) -> Bool {
        switch body {
        case .file, .multipart: true
        case .none, .json: false
        }
    }

    static func bodyArguments(_ body: APIDescription.Body?, namespace: String) -> [String] {
        switch body {
        case .none: []
        case .json(let type, let required): ["payload: \(type.swiftType)\(required ? "" : "? = nil")"]
        case .file: ["file: URL"]
        case .multipart(let parts):
            parts.map { part in
                let type = part.type?.swiftType ?? "\(namespace).FilePart"
                return "\(part.swiftName): \(type)\(part.required ? "" : "? = nil")"
            }
        }
    }

    static func emitBodyAssignments(_ body: APIDescription.Body?, into out: inout SourceWriter) {
        switch body {
        case .none: break
        case .json: out.line("        self.payload = payload")
        case .file(let contentType): out.line("        self.body = try .file(file, contentType: \(SwiftSource.literal(contentType)))")
        case .multipart(let parts):
            out.line("        var form = MultipartBody()")
            for part in parts {
                let name = SwiftNames.property(part.swiftName)
                let field = SwiftSource.literal(part.name)
                let append: String
                switch part.type {
                case .none: append = "try \(name).append(to: &form, field: \(field))"
                case .array(let element)?:
                    append = "for value in \(name) { form.append(field: \(field), \(textExpression(element, "value"))) }"
                case let type?: append = "form.append(field: \(field), \(textExpression(type, name)))"
                }
                out.line(part.required ? "        \(append)" : "        if let \(name) { \(append) }")
            }
            out.line("        self.body = try form.streamedRequestBody()")
        }
    }

    /// The file type of multipart uploads, nested in the namespace.
    static func emitFilePart(access: String, into out: inout SourceWriter) {
        out.line()
        out.doc("A file in a `multipart/form-data` body: a file on disk, streamed as it is sent, or bytes in memory.", indent: 1)
        out.line("    \(access) enum FilePart: Sendable {")
        out.doc("The file at a URL; its name and media type come from the path unless given.", indent: 2)
        out.line("        case file(URL, fileName: String? = nil, contentType: String? = nil)")
        out.doc("Bytes in memory, with the file name to send; the media type comes from the name unless given.", indent: 2)
        out.line("        case bytes(Data, fileName: String, contentType: String? = nil)")
        out.line()
        out.line("        func append(to form: inout MultipartBody, field: String) throws(SwitchyardError) {")
        out.line("            switch self {")
        out.line("            case .file(let url, let fileName, let contentType):")
        out.line("                try form.append(fileAt: url, field: field, fileName: fileName, contentType: contentType)")
        out.line("            case .bytes(let data, let fileName, let contentType):")
        out.line("                form.append(file: data, field: field, fileName: fileName, contentType: contentType)")
        out.line("            }")
        out.line("        }")
        out.line("    }")
    }

    /// ISO 8601 JSON coders for services whose models carry dates, nested in the namespace.
    static func emitDateCoders(access: String, into out: inout SourceWriter) {
        out.line()
        out.doc("The services' JSON decoder: dates in ISO 8601, with or without fractional seconds.", indent: 1)
        out.line("    \(access) static func makeDecoder() -> JSONDecoder {")
        out.line("        let decoder = JSONDecoder()")
        out.line("        decoder.dateDecodingStrategy = .custom { decoder in")
        out.line("            let container = try decoder.singleValueContainer()")
        out.line("            let text = try container.decode(String.self)")
        out.line("            if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }")
        out.line("            if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }")
        out.line(
            "            throw DecodingError.dataCorruptedError(in: container, debugDescription: \"'\\(text)' is not an ISO 8601 date and time\")"
        )
        out.line("        }")
        out.line("        return decoder")
        out.line("    }")
        out.line()
        out.doc("The services' JSON encoder: keys sorted, dates in ISO 8601.", indent: 1)
        out.line("    \(access) static func makeEncoder() -> JSONEncoder {")
        out.line("        let encoder = JSONEncoder()")
        out.line("        encoder.outputFormatting = .sortedKeys")
        out.line("        encoder.dateEncodingStrategy = .iso8601")
        out.line("        return encoder")
        out.line("    }")
    }
}
