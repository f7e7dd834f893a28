import Yams

/// An endpoint's `body:` in a description file: a model sent as JSON, an upload from a file, or a
/// multipart form — what OpenAPI request bodies say, in the description format.
///
/// ```yaml
/// body: NewPet                                  # a JSON body of a type, required
/// body: { type: NewPet, required: false }       # … or optional
/// body: { file: image/png }                     # the whole file at a path, streamed
/// body: { multipart: { title: string, photo: file, note: "string?" } }   # text fields and files
/// ```
enum DescriptionBodyParser {
    static let keys = ["type", "required", "file", "multipart"]

    static func body(_ node: Node, _ reader: YAMLReader) -> APIDescription.Body? {
        if node.scalar != nil {
            guard let text = reader.string(node, "'body'") else { return nil }
            return jsonBody(text, required: true, at: node, reader)
        }
        guard let fields = reader.fields(node, "'body'", allowed: keys) else { return nil }
        guard fields.count == 1 || (fields.count == 2 && fields["type"] != nil && fields["required"] != nil) else {
            reader.error("'body' takes one of 'type' (with 'required'), 'file' or 'multipart'", at: node)
            return nil
        }
        if let type = fields["type"], let text = reader.string(type, "'type'") {
            return jsonBody(text, required: reader.bool(fields["required"], "'required'") ?? true, at: type, reader)
        }
        if let file = fields["file"], let contentType = reader.string(file, "'file'") {
            return .file(contentType: contentType)
        }
        if let multipart = fields["multipart"] {
            var parts: [APIDescription.Part] = []
            for entry in reader.entries(multipart, "'multipart'") ?? [] {
                guard var text = reader.string(entry.value, "the type of '\(entry.key)'") else { continue }
                let required = !text.hasSuffix("?")
                if !required { text.removeLast() }
                var swiftName = SwiftNames.member(entry.key)
                if SwiftNames.endpointMembers.contains(swiftName) { swiftName += "Parameter" }
                if text == "file" {
                    parts.append(APIDescription.Part(name: entry.key, swiftName: swiftName, type: nil, required: required, summary: nil))
                } else if let type = TypeReference(parsing: text), !type.isOptional {
                    parts.append(APIDescription.Part(name: entry.key, swiftName: swiftName, type: type, required: required, summary: nil))
                } else {
                    reader.error("'\(text)' is not a part type: write 'file', a scalar, or either with '?' when optional", at: entry.value)
                }
            }
            return .multipart(parts)
        }
        return nil
    }

    private static func jsonBody(_ text: String, required: Bool, at node: Node, _ reader: YAMLReader) -> APIDescription.Body? {
        guard let type = TypeReference(parsing: text), !type.isOptional else {
            reader.error(
                "'\(text)' is not a body type: write a model name, [Type] or a scalar, and 'required: false' when optional",
                at: node
            )
            return nil
        }
        return .json(type, required: required)
    }
}
