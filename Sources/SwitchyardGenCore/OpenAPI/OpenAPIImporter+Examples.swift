import Foundation
import OpenAPIKit

/// The documented example responses of an operation, for its generated `examples`.
extension OpenAPIImporter {
    /// The examples of one response, per media type in document order: every entry of its `examples`
    /// map, else its `example`, else its schema's first `example`.
    ///
    /// The examples of a range (`4XX`) or of `default` are left out: they name no status to answer
    /// with. Examples given by `externalValue` are not in the document, and examples that are not JSON
    /// under a JSON media type (or not text under another) cannot be answered with: each of those is
    /// left out with a warning.
    func examples(of response: OpenAPI.Response, status: Int?, path: [String]) -> [APIDescription.Example] {
        guard let status else { return [] }
        var result: [APIDescription.Example] = []
        for (type, either) in response.content {
            let mediaType = self.mediaType(type)
            guard let content = either.b ?? (try? document.components.lookup(either)) else { continue }
            let contentPath = path + ["content", type.rawValue]
            var found: [(value: AnyCodable?, text: String?, path: [String])] = []
            // OpenAPIKit fills `example` with the first of `examples` too: the map is read first.
            if let examples = content.examples, !examples.isEmpty {
                for (name, either) in examples {
                    let examplePath = contentPath + ["examples", name]
                    guard let example = either.b ?? (try? document.components.lookup(either)) else {
                        warn("the example '\(name)' cannot be resolved; it is left out", at: examplePath)
                        continue
                    }
                    if example.externalValue != nil {
                        warn("the example '\(name)' is an 'externalValue', not in the document; it is left out", at: examplePath)
                    } else if let value = example.dataOrLegacyValue {
                        found.append((value, nil, examplePath))
                    } else if let text = example.serializedValue {
                        found.append((nil, text, examplePath))
                    }
                }
            } else if let example = content.example {
                found.append((example, nil, contentPath + ["example"]))
            } else if let schema = content.schema, let value = schemaExample(schema) {
                found.append((value, nil, contentPath + ["schema"]))
            }
            for example in found {
                if let body = body(value: example.value, text: example.text, mediaType: mediaType) {
                    result.append(APIDescription.Example(status: status, mediaType: mediaType, body: body))
                } else {
                    let kind = isJSON(mediaType) ? "JSON" : "text"
                    warn("an example of '\(mediaType)' is not \(kind); it is left out", at: example.path)
                }
            }
        }
        return result
    }

    /// The first example of a schema, or of the component schema it refers to.
    private func schemaExample(_ schema: JSONSchema) -> AnyCodable? {
        if case .reference(let reference, _) = schema.value, let name = reference.name,
            let target = document.components.schemas[OpenAPI.ComponentKey(stringLiteral: name)]
        {
            return target.examples.first
        }
        return schema.examples.first
    }

    /// The body an example answers with: compact JSON with sorted keys for a JSON media type (a
    /// serialized value is parsed and written again), a JSON value as one line (JSON Lines) or one record
    /// (a JSON text sequence) of a stream of them, the text of a string for any other.
    private func body(value: AnyCodable?, text: String?, mediaType: String) -> String? {
        if mediaType != "text/event-stream", Self.streamMediaTypes.contains(mediaType), let value, !(value.value is String) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let line = (try? encoder.encode(value)).map({ String(decoding: $0, as: UTF8.self) }) else { return nil }
            return mediaType == "application/json-seq" ? "\u{1E}" + line + "\n" : line + "\n"
        }
        if isJSON(mediaType) {
            if let value {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
            }
            return text.flatMap(APIDescription.Example.canonicalJSON(text:))
        }
        if let text { return text }
        return value?.value as? String
    }
}
