import OpenAPIKit

/// Schemas → Swift types: scalars by type and format, arrays, dictionaries, and models for objects
/// (`allOf` merged), string enumerations and `oneOf`/`anyOf` unions, named after their component or,
/// inline, after where they appear.
extension OpenAPIImporter {
    /// Declares a model for every component schema, in document order.
    func convertComponents() {
        for key in document.components.schemas.keys {
            // A schema named like an operation (`Transfer` for `transfer`) becomes `TransferModel`.
            let base = SwiftNames.upperCamel(key.rawValue)
            componentNames[key.rawValue] = claimName(takenNames.contains(base) ? base + "Model" : base)
        }
        for (key, schema) in document.components.schemas {
            guard let name = componentNames[key.rawValue] else { continue }
            let path = ["components", "schemas", key.rawValue]
            if let model = model(named: name, for: schema, path: path) {
                models.append(model)
            } else if let type = type(of: schema, hint: name + "Value", path: path) {
                models.append(model(name, schema, path, kind: .alias(type)))
            } else {
                models.append(model(name, schema, path, kind: .alias(.scalar(.string))))
                warn("component schema '\(key.rawValue)' has no Swift form; it is declared as String", at: path)
            }
        }
    }

    /// A model for an object, `allOf`, enumeration or union schema; `nil` for any other.
    func model(named name: String, for schema: JSONSchema, path: [String]) -> APIDescription.Model? {
        switch schema.value {
        case .object(_, let context):
            guard !context.properties.isEmpty || context.additionalProperties == nil else { return nil }
            var model = model(name, schema, path, kind: .structure)
            model.fields = fields(context, owner: name, path: path)
            return model
        case .all(let parts, _):
            var model = model(name, schema, path, kind: .structure)
            let component = path.count == 3 && path[0] == "components" && path[1] == "schemas" ? [path[2]] : []
            model.fields = mergedFields(parts, owner: name, path: path, including: component)
            return model
        case .string where schema.allowedValues != nil:
            let values = (schema.allowedValues ?? []).compactMap { $0.value as? String }
            return model(name, schema, path, kind: .stringEnum(values))
        case .one(let choices, _), .any(let choices, _):
            if nullableChoice(choices) != nil { return nil }
            let keyword = if case .one = schema.value { "oneOf" } else { "anyOf" }
            let unionCases = cases(choices, discriminator: schema.discriminator, owner: name, path: path + [keyword])
            return model(name, schema, path, kind: .union(unionCases, discriminator: schema.discriminator?.propertyName))
        default:
            return nil
        }
    }

    private func model(_ name: String, _ schema: JSONSchema, _ path: [String], kind: APIDescription.Model.Kind) -> APIDescription.Model {
        APIDescription.Model(
            name: name,
            summary: schema.description ?? schema.title,
            fields: [],
            location: locator.location(path),
            kind: kind
        )
    }

    /// The Swift type of a schema, declaring inline models it needs (named from `hint`); `nil`, with a
    /// warning, when the schema has no Swift form.
    func type(of schema: JSONSchema, hint: String, path: [String]) -> TypeReference? {
        let base: TypeReference? =
            switch schema.value {
            case .reference(let reference, _): referenced(reference, path: path)
            case .boolean: .scalar(.bool)
            case .integer(let core, _):
                switch core.format {
                case .int32: .scalar(.int32)
                case .int64: .scalar(.int64)
                default: .scalar(.int)
                }
            case .number(let core, _): core.format == .float ? .scalar(.float) : .scalar(.double)
            case .string(let core, let context):
                if schema.allowedValues != nil {
                    inline(schema, hint: hint, path: path)
                } else if core.format == .dateTime {
                    .some(.scalar(.dateTime))
                } else if core.format == .other("byte") || context.contentEncoding == .base64 {
                    .some(.scalar(.bytes))
                } else {
                    .some(.scalar(.string))
                }
            case .array(_, let context):
                if let items = context.items {
                    type(of: items, hint: hint + "Item", path: path + ["items"]).map(TypeReference.array)
                } else {
                    unsupported("an array without 'items'", path)
                }
            case .object(_, let context):
                if context.properties.isEmpty, let additional = context.additionalProperties {
                    switch additional {
                    case .b(let values):
                        type(of: values, hint: hint + "Value", path: path + ["additionalProperties"]).map(TypeReference.dictionary)
                    case .a:
                        unsupported("a free-form object (additionalProperties without a schema)", path)
                    }
                } else if context.properties.isEmpty {
                    unsupported("a free-form object (no properties)", path)
                } else {
                    inline(schema, hint: hint, path: path)
                }
            case .all, .one, .any:
                if case .one(let choices, _) = schema.value, let single = nullableChoice(choices) {
                    type(of: single.schema, hint: hint, path: path + ["oneOf", String(single.index)]).map(TypeReference.optional)
                } else if case .any(let choices, _) = schema.value, let single = nullableChoice(choices) {
                    type(of: single.schema, hint: hint, path: path + ["anyOf", String(single.index)]).map(TypeReference.optional)
                } else if case .all(let parts, _) = schema.value, parts.count == 1, case .reference(let reference, _) = parts[0].value {
                    referenced(reference, path: path + ["allOf", "0"])
                } else {
                    inline(schema, hint: hint, path: path)
                }
            case .not: unsupported("'not'", path)
            case .null: unsupported("a schema that is only null", path)
            case .fragment: unsupported("a schema without a type", path)
            }
        guard let base else { return nil }
        return schema.nullable && !base.isOptional ? .optional(base) : base
    }

    private func unsupported(_ construct: String, _ path: [String]) -> TypeReference? {
        warn("unsupported schema: \(construct); the member, parameter or body that uses it is left out", at: path)
        return nil
    }

    private func referenced(_ reference: JSONReference<JSONSchema>, path: [String]) -> TypeReference? {
        guard case .internal(let internalReference) = reference, let name = internalReference.name, let swiftName = componentNames[name]
        else {
            return unsupported("the reference '\(reference.absoluteString)' (only '#/components/schemas/…' references are read)", path)
        }
        return .model(swiftName)
    }

    /// Declares an inline model named from `hint`.
    private func inline(_ schema: JSONSchema, hint: String, path: [String]) -> TypeReference? {
        let name = claimName(hint)
        guard let model = model(named: name, for: schema, path: path) else { return nil }
        models.append(model)
        return .model(name)
    }

    /// `oneOf: [X, {type: null}]`: X and its index, the 3.1 way to write a nullable X.
    private func nullableChoice(_ choices: [JSONSchema]) -> (schema: JSONSchema, index: Int)? {
        guard choices.count == 2, let nullIndex = choices.firstIndex(where: \.isNull) else { return nil }
        return (choices[1 - nullIndex], 1 - nullIndex)
    }

    private func fields(_ context: JSONSchema.ObjectContext, owner: String, path: [String]) -> [APIDescription.Field] {
        if context.additionalProperties != nil, case .b = context.additionalProperties {
            warn(
                "'additionalProperties' beside 'properties' is not generated; only the named properties are",
                at: path + ["additionalProperties"]
            )
        }
        var used: Set<String> = []
        return context.properties.compactMap { key, schema -> APIDescription.Field? in
            let memberPath = path + ["properties", key]
            guard var type = type(of: schema, hint: owner + SwiftNames.upperCamel(key), path: memberPath) else { return nil }
            if !context.requiredProperties.contains(key), !type.isOptional { type = .optional(type) }
            var swiftName = SwiftNames.member(key)
            while used.contains(swiftName) { swiftName += "_" }
            used.insert(swiftName)
            return APIDescription.Field(
                key: key,
                swiftName: swiftName,
                type: type,
                summary: schema.description,
                location: locator.location(memberPath)
            )
        }
    }

    /// The members of every part of an `allOf`, references followed, in order; later parts do not
    /// redeclare a member. `including` names the component schemas whose `allOf` is being merged, outermost
    /// first: a part that names one of them again is a cycle, an error at the part (an `allOf` cannot
    /// contain itself, so there is nothing to box).
    private func mergedFields(_ parts: [JSONSchema], owner: String, path: [String], including: [String]) -> [APIDescription.Field] {
        var result: [APIDescription.Field] = []
        for (index, part) in parts.enumerated() {
            let partPath = path + ["allOf", String(index)]
            var resolved = part
            var resolvedPath = partPath
            var chain = including
            if case .reference(let reference, _) = part.value, case .internal(let internalReference) = reference,
                let name = internalReference.name, let target = document.components.schemas[OpenAPI.ComponentKey(stringLiteral: name)]
            {
                if including.contains(name) {
                    let cycle = (including.drop(while: { $0 != name }) + [name]).map { "'\($0)'" }.joined(separator: " → ")
                    reportOnce(
                        DescriptionError(
                            "schema '\(name)' includes itself through 'allOf' (\(cycle)); an 'allOf' cannot contain itself:"
                                + " refer to the schema from a property instead",
                            at: locator.location(partPath)
                        )
                    )
                    continue
                }
                resolved = target
                resolvedPath = ["components", "schemas", name]
                chain.append(name)
            }
            let found: [APIDescription.Field]
            switch resolved.value {
            case .object(_, let context): found = fields(context, owner: owner, path: resolvedPath)
            case .all(let nested, _): found = mergedFields(nested, owner: owner, path: resolvedPath, including: chain)
            default:
                warn("an 'allOf' part that is not an object is not merged", at: partPath)
                found = []
            }
            for field in found where !result.contains(where: { $0.key == field.key }) { result.append(field) }
        }
        return result
    }

    private func cases(
        _ choices: [JSONSchema],
        discriminator: OpenAPI.Discriminator?,
        owner: String,
        path: [String]
    ) -> [APIDescription.UnionCase] {
        var used: Set<String> = []
        var result: [APIDescription.UnionCase] = []
        for (index, choice) in choices.enumerated() {
            let choicePath = path + [String(index)]
            guard let type = type(of: choice, hint: owner + "Case\(index + 1)", path: choicePath) else { continue }
            var tags: [String] = []
            var caseName =
                switch type {
                case .scalar(let scalar): scalar.rawValue
                case .array: "array"
                case .dictionary: "dictionary"
                case .model(let name): SwiftNames.member(name)
                case .optional: "case\(index + 1)"
                }
            if case .reference(let reference, _) = choice.value, let componentName = reference.name {
                caseName = SwiftNames.member(componentName)
                let mapping = discriminator?.mapping ?? [:]
                tags = mapping.filter { $0.value.hasSuffix("/" + componentName) || $0.value == componentName }.map(\.key)
                if tags.isEmpty { tags = [componentName] }
            } else if discriminator != nil {
                warn("an inline 'oneOf' choice under a discriminator can never be chosen; use a '$ref'", at: choicePath)
                continue
            }
            while used.contains(caseName) { caseName += "_" }
            used.insert(caseName)
            result.append(APIDescription.UnionCase(name: caseName, type: type, tags: tags))
        }
        return result
    }
}
