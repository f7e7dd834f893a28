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
            // Without properties, an object is a dictionary (of JSON values when free-form).
            guard !context.properties.isEmpty else { return nil }
            var model = model(name, schema, path, kind: .structure)
            model.fields = fields(context, owner: name, path: path)
            switch context.additionalProperties {
            case .b(let values)?:
                model.additionalProperties = type(of: values, hint: name + "Value", path: path + ["additionalProperties"])
            case .a(true)?: model.additionalProperties = .model(jsonValueModel())
            case .a(false)?, nil: break
            }
            return model
        case .all(let parts, _) where annotatedReference(parts) != nil || lonePart(parts) != nil:
            return nil
        case .all(let parts, _):
            var model = model(name, schema, path, kind: .structure)
            let component = path.count == 3 && path[0] == "components" && path[1] == "schemas" ? [path[2]] : []
            model.fields = mergedFields(parts, owner: name, path: path, including: component)
            return model
        case .string where schema.allowedValues != nil:
            let values = (schema.allowedValues ?? []).compactMap { $0.value as? String }
            return model(name, schema, path, kind: .stringEnum(values))
        case .fragment where isStringEnumeration(schema):
            return model(name, schema, path, kind: .stringEnum((schema.allowedValues ?? []).compactMap { $0.value as? String }))
        case .one(let choices, _), .any(let choices, _):
            if let constants = constantEnumeration(choices) {
                switch constants {
                case .strings(let values): return model(name, schema, path, kind: .stringEnum(values))
                case .integers(let values, let names): return model(name, schema, path, kind: .integerEnum(values, names: names))
                }
            }
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
                if context.properties.isEmpty, case .b(let values)? = context.additionalProperties {
                    type(of: values, hint: hint + "Value", path: path + ["additionalProperties"]).map(TypeReference.dictionary)
                } else if context.properties.isEmpty {
                    // A free-form object: every member kept, as a JSON value.
                    .some(.dictionary(.model(jsonValueModel())))
                } else {
                    inline(schema, hint: hint, path: path)
                }
            case .all(let parts, _) where annotatedReference(parts) != nil:
                annotatedReference(parts).flatMap { referenced($0.reference, path: path + ["allOf", String($0.index)]) }
            case .all(let parts, _) where lonePart(parts) != nil:
                lonePart(parts).flatMap { type(of: $0.schema, hint: hint, path: path + ["allOf", String($0.index)]) }
            case .one(let choices, _) where constantEnumeration(choices) != nil,
                .any(let choices, _) where constantEnumeration(choices) != nil:
                inline(schema, hint: hint, path: path)
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
            // What the generator cannot narrow down is kept as a JSON value: a schema without a type (`{}`, or
            // one that only describes), `not`, and `type: "null"` (optional, as it is always null).
            case .not: .some(.model(jsonValueModel()))
            case .null: .some(.optional(.model(jsonValueModel())))
            case .fragment:
                if isStringEnumeration(schema) {
                    inline(schema, hint: hint, path: path)
                } else if let values = schema.allowedValues, !values.isEmpty, values.allSatisfy({ $0.value is Int }) {
                    .some(.scalar(.int))
                } else {
                    .some(.model(jsonValueModel()))
                }
            }
        guard let base else { return nil }
        let nullInChoices: Bool =
            switch schema.value {
            case .one(let choices, _), .any(let choices, _): choices.count > 2 && choices.contains(where: \.isNull)
            default: false
            }
        return (schema.nullable || nullInChoices) && !base.isOptional ? .optional(base) : base
    }

    private func unsupported(_ construct: String, _ path: [String]) -> TypeReference? {
        warn("unsupported schema: \(construct); the app will not see the member, parameter or body that uses it", at: path)
        return nil
    }

    /// The name of the JSON value model, declared the first time a free-form schema needs it.
    func jsonValueModel() -> String {
        if let existing = models.first(where: { if case .json = $0.kind { true } else { false } }) { return existing.name }
        let name = claimName("JSONValue")
        models.append(
            APIDescription.Model(
                name: name,
                summary: "Any JSON value: what a free-form schema of the document holds.",
                fields: [],
                location: locator.location([]),
                kind: .json
            )
        )
        return name
    }

    /// `allOf: [{$ref}, {description: …}]`, the usual way to annotate a reference: its one reference and
    /// that part's index, when every other part only describes (no type, properties or composition).
    func annotatedReference(_ parts: [JSONSchema]) -> (reference: JSONReference<JSONSchema>, index: Int)? {
        var found: (JSONReference<JSONSchema>, Int)?
        for (index, part) in parts.enumerated() {
            switch part.value {
            case .reference(let reference, _):
                guard found == nil else { return nil }
                found = (reference, index)
            case .fragment where part.allowedValues == nil: continue
            default: return nil
            }
        }
        return found
    }

    /// The one part of an `allOf` that is neither an object to merge nor a reference, when every other part
    /// only describes: `allOf: [{oneOf: [{$ref}, {type: 'null'}]}, {description: …}]` (a nullable reference),
    /// a scalar, an array or a union. The `allOf` then has that part's type.
    func lonePart(_ parts: [JSONSchema]) -> (schema: JSONSchema, index: Int)? {
        var found: (JSONSchema, Int)?
        for (index, part) in parts.enumerated() {
            switch part.value {
            case .fragment where part.allowedValues == nil: continue
            case .object, .all, .reference: return nil
            default:
                guard found == nil else { return nil }
                found = (part, index)
            }
        }
        return found
    }

    /// `enum: [a, b]` or `const: a` without a `type`: strings only.
    private func isStringEnumeration(_ schema: JSONSchema) -> Bool {
        guard let values = schema.allowedValues, !values.isEmpty else { return false }
        return values.allSatisfy { $0.value is String }
    }

    /// The values of choices that are each one `const` (or one-value `enum`): strings, or integers with
    /// case names from the choices' titles.
    enum Constants {
        case strings([String])
        case integers([Int], names: [String])
    }

    /// `oneOf: [{const: 1, title: ONE}, …]` as an enumeration; `nil` when a choice is not a constant or
    /// the constants are not all strings or all integers.
    func constantEnumeration(_ choices: [JSONSchema]) -> Constants? {
        guard !choices.isEmpty else { return nil }
        var strings: [String] = []
        var integers: [Int] = []
        var names: [String] = []
        for choice in choices {
            guard let values = choice.allowedValues, values.count == 1 else { return nil }
            if let text = values[0].value as? String {
                strings.append(text)
            } else if let number = values[0].value as? Int {
                integers.append(number)
                // `GUILD_TEXT` → `guildText`: a title in capitals is read as words.
                let title = choice.title.map { $0 == $0.uppercased() ? $0.lowercased() : $0 }
                names.append(title ?? "value\(number < 0 ? "Minus" : "")\(number.magnitude)")
            } else {
                return nil
            }
        }
        if strings.count == choices.count { return .strings(strings) }
        if integers.count == choices.count { return .integers(integers, names: names) }
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
    func nullableChoice(_ choices: [JSONSchema]) -> (schema: JSONSchema, index: Int)? {
        guard choices.count == 2, let nullIndex = choices.firstIndex(where: \.isNull) else { return nil }
        return (choices[1 - nullIndex], 1 - nullIndex)
    }

    private func fields(
        _ context: JSONSchema.ObjectContext,
        owner: String,
        path: [String],
        merged: Bool = false
    ) -> [APIDescription.Field] {
        if merged, case .b = context.additionalProperties {
            warn(
                "'additionalProperties' of an 'allOf' part is not generated; the app sees only the named properties",
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
            case .object(_, let context): found = fields(context, owner: owner, path: resolvedPath, merged: true)
            case .all(let nested, _): found = mergedFields(nested, owner: owner, path: resolvedPath, including: chain)
            // A part that only describes (`{description: …}`) adds no member.
            case .fragment where resolved.allowedValues == nil: found = []
            // A part that is an object or null (`oneOf: [{$ref}, {type: 'null'}]`) adds that object's members,
            // each optional.
            case .one(let choices, _) where nullableChoice(choices) != nil, .any(let choices, _) where nullableChoice(choices) != nil:
                let keyword = if case .one = resolved.value { "oneOf" } else { "anyOf" }
                let single = nullableChoice(choices).map { [$0.schema] } ?? []
                found = mergedFields(single, owner: owner, path: resolvedPath + [keyword], including: chain).map { field in
                    var optional = field
                    if !field.type.isOptional { optional.type = .optional(field.type) }
                    return optional
                }
            default:
                warn("an 'allOf' part that is not an object is not merged; the app does not see what it adds", at: partPath)
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
        for (index, choice) in choices.enumerated() where !choice.isNull {
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
