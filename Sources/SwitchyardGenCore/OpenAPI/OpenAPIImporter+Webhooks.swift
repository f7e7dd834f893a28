import OpenAPIKit

/// Webhooks (OpenAPI 3.1): requests the API sends to the app, which a client does not call. Each
/// webhook operation's JSON body becomes a documented type, `<Name>Webhook`, that the app decodes what
/// it receives with; a webhook without a JSON body gives none, and says so.
extension OpenAPIImporter {
    /// Declares the webhooks' body types.
    func declareWebhooks() {
        for (name, either) in document.webhooks {
            let itemPath = ["webhooks", name]
            guard let item = either.b ?? (try? document.components.lookup(either)) else {
                warn("the path item reference of webhook '\(name)' cannot be resolved; the app gets no type for its body", at: itemPath)
                continue
            }
            for entry in item.endpoints {
                let method = entry.method.rawValue.lowercased()
                let operationPath = itemPath + [method]
                let request = entry.operation.requestBody.flatMap { $0.b ?? (try? document.components.lookup($0)) }
                let content = request?.content.first { $0.key.typeAndSubtype.lowercased().hasSuffix("json") }
                guard let content, let schema = (content.value.b ?? (try? document.components.lookup(content.value)))?.schema else {
                    if request != nil {
                        warn("webhook '\(name)' has no JSON body; the app gets no type for what it receives", at: operationPath)
                    }
                    continue
                }
                let base = SwiftNames.upperCamel(entry.operation.operationId ?? name) + "Webhook"
                let summary =
                    "The body of the `\(name)` webhook: what the API sends with `\(method.uppercased())` to the app"
                    + (entry.operation.summary.map { " (\($0))" } ?? "") + "."
                let declared = models.count
                let schemaPath = operationPath + ["requestBody", "content", content.key.typeAndSubtype, "schema"]
                guard let type = type(of: schema, hint: base, path: schemaPath) else { continue }
                if case .model(let modelName) = type, let index = models[declared...].firstIndex(where: { $0.name == modelName }) {
                    models[index].summary = summary + (models[index].summary.map { "\n\n" + $0 } ?? "")
                    continue
                }
                models.append(
                    APIDescription.Model(
                        name: claimName(base),
                        summary: summary,
                        fields: [],
                        location: locator.location(operationPath),
                        kind: .alias(type)
                    )
                )
            }
        }
    }
}
