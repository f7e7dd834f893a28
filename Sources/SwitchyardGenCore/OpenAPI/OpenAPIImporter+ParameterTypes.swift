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
}
