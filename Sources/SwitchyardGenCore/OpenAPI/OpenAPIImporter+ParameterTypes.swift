import OpenAPIKit

/// Which types a parameter or a form field can have: what can be written as text.
extension OpenAPIImporter {
    /// `type` with aliases resolved when it can be written as text — a scalar, a string or integer enumeration,
    /// an array of either, and (`objects`, for query parameters) a struct of those — else `nil`.
    func textType(_ type: TypeReference, objects: Bool) -> TypeReference? {
        switch type {
        case .scalar: return type
        case .model(let name):
            guard let model = models.first(where: { $0.name == name }) else { return nil }
            switch model.kind {
            case .stringEnum, .integerEnum: return type
            case .alias(let aliased): return textType(aliased, objects: objects)
            case .union, .json: return nil
            case .structure:
                guard objects else { return nil }
                let simple = model.fields.allSatisfy { field in
                    guard let member = textType(field.type.unwrapped, objects: false) else { return false }
                    if case .array = member { return false }
                    return member == field.type.unwrapped
                }
                return simple ? type : nil
            }
        case .array(let element):
            guard let resolved = textType(element, objects: false) else { return nil }
            if case .array = resolved { return nil }
            return .array(resolved)
        case .optional(let wrapped): return textType(wrapped, objects: objects)
        case .dictionary: return nil
        }
    }

    /// A parameter that is one value or an array of them — `oneOf` or `anyOf` of a scalar and an array of
    /// it, `null` aside (a 3.1 `type: [string, array]` reads so) — is generated as its array form: the
    /// array sends one value as well as several, in the parameter's style. The array choice and its path
    /// under the schema; `nil` for any other schema.
    func arrayForm(of schema: JSONSchema) -> (schema: JSONSchema, path: [String])? {
        let keyword: String
        let choices: [JSONSchema]
        switch schema.value {
        case .one(let of, _): (keyword, choices) = ("oneOf", of)
        case .any(let of, _): (keyword, choices) = ("anyOf", of)
        default: return nil
        }
        let kept = choices.enumerated().filter { !$0.element.isNull }
        guard kept.count == 2 else { return nil }
        for (arrayIndex, singleIndex) in [(0, 1), (1, 0)] {
            guard case .array(_, let context) = kept[arrayIndex].element.value, let items = context.items else { continue }
            let single = kept[singleIndex].element
            if sameValue(single, items) {
                let chosen = schema.nullable ? kept[arrayIndex].element.nullableSchemaObject() : kept[arrayIndex].element
                return (chosen, [keyword, String(kept[arrayIndex].offset)])
            }
        }
        return nil
    }

    /// Whether two schemas describe the same value: one reference, or the same type, format and values.
    private func sameValue(_ first: JSONSchema, _ second: JSONSchema) -> Bool {
        switch (first.value, second.value) {
        case (.reference(let one, _), .reference(let other, _)): return one == other
        case (.reference, _), (_, .reference), (.object, _), (.array, _), (.all, _), (.one, _), (.any, _), (.not, _): return false
        default:
            return first.jsonType == second.jsonType && first.formatString == second.formatString
                && first.allowedValues == second.allowedValues
        }
    }
}
