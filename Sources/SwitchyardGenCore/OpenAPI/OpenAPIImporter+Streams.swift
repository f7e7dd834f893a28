import Foundation
import OpenAPIKit
import Yams

/// Streamed answers: a successful response in a streaming media type makes a streamed endpoint
/// (`Output = ResponseStream`) whose values have the type of the item schema the document gives.
///
/// | Media type | Values | Their type |
/// | --- | --- | --- |
/// | `application/jsonl`, `application/x-ndjson`, `application/json-seq` | one JSON value per line or record | `itemSchema`; else `schema` (its `items` when it is an inline array); else any JSON value |
/// | `text/event-stream` | events | the JSON of each event's `data`, when `itemSchema` describes it (`contentSchema`, or an object or reference); else `ServerSentEvent` |
extension OpenAPIImporter {
    /// The media types read as streams.
    static let streamMediaTypes: Set<String> = ["text/event-stream", "application/jsonl", "application/x-ndjson", "application/json-seq"]

    /// A media type as the importer compares it: type and subtype, lower case, without parameters and
    /// spaces (`Text/Event-Stream ; charset=utf-8` is `text/event-stream`).
    func mediaType(_ type: OpenAPI.ContentType) -> String {
        String(type.typeAndSubtype.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The type of a stream's values, declaring the inline models it needs (named from `hint`); `nil`
    /// for an event stream whose events' data the document does not describe.
    func streamElement(_ content: OpenAPI.Content, mediaType: String, hint: String, path: [String]) -> TypeReference? {
        if mediaType == "text/event-stream" { return eventDataType(content, hint: hint, path: path) }
        if let item = content.itemSchema {
            return type(of: item, hint: hint, path: path + ["itemSchema"]) ?? .model(jsonValueModel())
        }
        guard let schema = content.schema else { return .model(jsonValueModel()) }
        // A document written for OpenAPI 3.0 or 3.1 describes a value per line as the schema itself, or the
        // stream as an array of them (as OpenAPI 3.2 reads a sequential media type's `schema`).
        if case .array(_, let context) = schema.value, let items = context.items {
            return type(of: items, hint: hint, path: path + ["schema", "items"]) ?? .model(jsonValueModel())
        }
        return type(of: schema, hint: hint, path: path + ["schema"]) ?? .model(jsonValueModel())
    }

    /// The type of an event's `data` as OpenAPI 3.2 describes it: the event's `itemSchema` (inline or a
    /// reference to a component) with a `data` property whose `contentSchema` (JSON) is the type, or whose
    /// schema is itself an object, array or reference. `nil` — the events themselves — for text data or
    /// any other shape.
    private func eventDataType(_ content: OpenAPI.Content, hint: String, path: [String]) -> TypeReference? {
        guard var item = content.itemSchema else { return nil }
        var itemPath = path + ["itemSchema"]
        if case .reference(let reference, _) = item.value, case .internal(let internalReference) = reference,
            let name = internalReference.name, let target = document.components.schemas[OpenAPI.ComponentKey(stringLiteral: name)]
        {
            item = target
            itemPath = ["components", "schemas", name]
        }
        guard case .object(_, let context) = item.value, let data = context.properties["data"] else { return nil }
        let dataPath = itemPath + ["properties", "data"]
        // OpenAPIKit keeps no `contentSchema`: it is read from the document's tree.
        if let node = locator.node(at: dataPath + ["contentSchema"]) {
            if let declared = locator.node(at: dataPath + ["contentMediaType"])?.string, !isJSON(declared.lowercased()) { return nil }
            let repaired = OpenAPIDocumentLoader.repaired(node, path: dataPath + ["contentSchema"], laterForms: true) { _, _ in }
            guard let schema = try? YAMLDecoder().decode(JSONSchema.self, from: repaired) else {
                warn("the 'contentSchema' of the events' data is not a schema; the values are the events themselves", at: dataPath)
                return nil
            }
            return type(of: schema, hint: hint, path: dataPath + ["contentSchema"])
        }
        switch data.value {
        case .reference, .object, .array, .all, .one, .any: return type(of: data, hint: hint, path: dataPath)
        default: return nil
        }
    }
}
