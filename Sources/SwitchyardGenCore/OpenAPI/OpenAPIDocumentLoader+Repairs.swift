import Yams

/// What the tree is given before OpenAPIKit decodes it:
///
/// - Integer bounds that no 64-bit integer holds (`maximum: 9223372036854776000`, `minimum: 1.5`) are left
///   out with a warning: the generator checks no bounds, so one such bound costs the app nothing and must
///   not refuse the whole document, as OpenAPIKit would.
/// - Plain scalars are resolved by YAML 1.2's core schema, where Yams's decoder reads YAML 1.1: `yes`,
///   `no`, `on`, `off` (and `y`, `n`) are strings, not Booleans (`enum: [yes, no]` is not `[true, false]`);
///   `1_000`, `0b101`, `1:30` and `.iNf` are strings, not numbers; `0755` is the decimal 755, not octal.
/// - In a 3.1 or 3.2 document (`laterForms`), what OpenAPI 3.0 wrote otherwise is read, each place with a
///   warning, instead of refusing the whole document: `exclusiveMinimum: true` beside `minimum: 5` is
///   `exclusiveMinimum: 5` (`false` bounds nothing more and is left out), and `nullable` is read as 3.0
///   reads it. Examples, defaults, enumerations and extensions are data, not schemas: nothing in them is
///   taken for one of these forms.
/// - A 3.1 list of types that holds `array` and another type (`type: [string, array]`, which OpenAPIKit
///   would read as its first type alone) is the `anyOf` of one schema per type, each with the keywords
///   that apply to it: a member or body is then a union of both forms, and a parameter the array form
///   (which also sends a single value).
extension OpenAPIDocumentLoader {
    static let integerBoundKeys: Set<String> = ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"]

    /// The keys whose values are data, never a schema.
    private static let dataKeys: Set<String> = ["example", "examples", "default", "enum", "const"]

    /// `node` repaired as above, each repair that changes what the document says reported to `warn` with
    /// its path; the tree itself when nothing needed it. `laterForms`: the document is OpenAPI 3.1 or 3.2.
    static func repaired(_ node: Node, path: [String], laterForms: Bool = false, warn: (String, [String]) -> Void) -> Node {
        repairedOrNil(node, path: path, schemas: laterForms, names: false, warn: warn) ?? node
    }

    /// The keys whose values map names to schemas (`properties: {default: {…}}` names a member `default`).
    private static let namingKeys: Set<String> = ["properties", "patternProperties", "dependentSchemas", "$defs", "definitions", "schemas"]

    /// The repaired node, or `nil` when nothing under it changed (so no tree is compared or copied).
    /// `schemas`: the node may be a 3.1 schema (it is not under data); `names`: its keys are names, not keywords.
    private static func repairedOrNil(
        _ node: Node,
        path: [String],
        schemas: Bool,
        names: Bool,
        warn: (String, [String]) -> Void
    ) -> Node? {
        switch node {
        case .mapping(var mapping):
            var rewritten = false
            if schemas && !names {
                rewritten = earlierForms(&mapping, path: path, warn: warn)
                if let choices = typeList(mapping) {
                    mapping = choices
                    rewritten = true
                }
            }
            let isInteger = mapping.contains { pair in
                guard pair.key.string == "type" else { return false }
                return pair.value.string == "integer" || (pair.value.sequence?.contains { $0.string == "integer" } ?? false)
            }
            var changed = false
            var pairs: [(Node, Node)] = []
            pairs.reserveCapacity(mapping.count)
            for pair in mapping {
                let key = pair.key.string ?? ""
                if isInteger, integerBoundKeys.contains(key), let text = pair.value.scalar?.string, Int(text) == nil,
                    !(Double(text).map { Int(exactly: $0) != nil } ?? false),
                    // OpenAPI 3.0's `exclusiveMinimum: true` is no bound: it says how `minimum` bounds.
                    !(key.hasPrefix("exclusive") && isBoolean(pair.value))
                {
                    warn(
                        "the integer bound '\(key): \(text)' is not a 64-bit integer; it is ignored (the generated code checks no bounds,"
                            + " so the app misses nothing)",
                        path + [key]
                    )
                    changed = true
                    continue
                }
                let data = !names && (dataKeys.contains(key) || key.lowercased().hasPrefix("x-"))
                let value = repairedOrNil(
                    pair.value,
                    path: path + [key],
                    schemas: schemas && !data,
                    names: !names && namingKeys.contains(key),
                    warn: warn
                )
                if value != nil { changed = true }
                pairs.append((pair.key, value ?? pair.value))
            }
            return changed || rewritten ? .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark)) : nil
        case .sequence(let sequence):
            var changed = false
            let nodes = sequence.enumerated().map { index, item in
                let value = repairedOrNil(item, path: path + [String(index)], schemas: schemas, names: false, warn: warn)
                if value != nil { changed = true }
                return value ?? item
            }
            return changed ? .sequence(Node.Sequence(nodes, sequence.tag, sequence.style, sequence.mark)) : nil
        case .scalar(let scalar):
            return coreSchemaScalar(scalar).map(Node.scalar)
        case .alias:
            return nil
        }
    }

    /// The value of `key` in `mapping`, compared as text whatever the key's tag.
    private static func value(_ key: String, in mapping: Node.Mapping) -> Node? {
        mapping.first { $0.key.string == key }?.value
    }

    /// Whether `node` is a plain `true` or `false`.
    private static func isBoolean(_ node: Node) -> Bool {
        guard let scalar = node.scalar, scalar.style == .plain else { return false }
        return ["true", "false"].contains(scalar.string)
    }

    /// Rewrites OpenAPI 3.0's Boolean `exclusiveMinimum` and `exclusiveMaximum` of a 3.1 schema into 3.1's
    /// form, and reports them and `nullable`, each at its place; whether `mapping` changed.
    private static func earlierForms(_ mapping: inout Node.Mapping, path: [String], warn: (String, [String]) -> Void) -> Bool {
        var changed = false
        for (exclusive, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
            guard let flag = value(exclusive, in: mapping), isBoolean(flag) else { continue }
            let boundValue = value(bound, in: mapping)
            var pairs = mapping.filter { $0.key.string != exclusive }.map { ($0.key, $0.value) }
            if flag.string == "true", let boundValue, let text = boundValue.scalar?.string {
                pairs = pairs.map { $0.0.string == bound ? (Node(exclusive), boundValue) : $0 }
                warn(
                    "'\(exclusive): true' is OpenAPI 3.0's form; this 3.1 document's schema is read as '\(exclusive): \(text)'"
                        + " (3.1 writes the bound itself)",
                    path + [exclusive]
                )
            } else {
                let why = flag.string == "true" ? "it names no '\(bound)'" : "it bounds nothing more"
                warn("'\(exclusive): \(flag.string ?? "")' is OpenAPI 3.0's form; \(why), so it is left out", path + [exclusive])
            }
            mapping = Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark)
            changed = true
        }
        if let nullable = value("nullable", in: mapping), isBoolean(nullable) {
            warn(
                "'nullable' is OpenAPI 3.0's keyword; it is read as 3.0 reads it (a 3.1 document writes type: [..., 'null']"
                    + " or a 'null' choice)",
                path + ["nullable"]
            )
        }
        return changed
    }

    /// The keywords that apply to each JSON type, which go with it when a list of types is split.
    private static let typeKeywords: [String: Set<String>] = {
        let numeric: Set<String> = ["format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]
        return [
            "array": [
                "items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains",
                "unevaluatedItems",
            ],
            "string": ["format", "pattern", "minLength", "maxLength", "contentEncoding", "contentMediaType", "contentSchema"],
            "integer": numeric,
            "number": numeric,
            "object": [
                "properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties",
                "maxProperties", "unevaluatedProperties", "dependentRequired", "dependentSchemas",
            ],
        ]
    }()

    /// `type: [string, array]` (with any other types, `null` among them) as the `anyOf` of one schema per
    /// type, each with its keywords; the other keywords (a description, a default) stay beside it. `nil`
    /// when the mapping has no such list, or already composes schemas.
    private static func typeList(_ mapping: Node.Mapping) -> Node.Mapping? {
        guard let list = value("type", in: mapping)?.sequence, value("anyOf", in: mapping) == nil, value("oneOf", in: mapping) == nil
        else { return nil }
        let types = list.compactMap(\.string)
        let kinds = types.filter { $0 != "null" }
        guard types.count == list.count, kinds.contains("array"), Set(kinds).count > 1 else { return nil }
        var choices: [Node] = []
        for kind in kinds {
            let keywords = typeKeywords[kind] ?? []
            let own = mapping.filter { $0.key.string.map(keywords.contains) ?? false }.map { ($0.key, $0.value) }
            choices.append(.mapping(Node.Mapping([(Node("type"), Node(kind))] + own)))
        }
        if kinds.count < types.count { choices.append(.mapping(Node.Mapping([(Node("type"), Node("null", Tag(.str), .singleQuoted))]))) }
        let applying = Set(kinds.flatMap { typeKeywords[$0] ?? [] })
        let rest = mapping.filter { pair in pair.key.string.map { $0 != "type" && !applying.contains($0) } ?? true }
            .map { ($0.key, $0.value) }
        return Node.Mapping(rest + [(Node("anyOf"), .sequence(Node.Sequence(choices)))], mapping.tag, mapping.style, mapping.mark)
    }

    /// `scalar` as YAML 1.2's core schema reads it, where Yams's constructors would read it otherwise,
    /// or `nil` when they agree: a plain scalar with no explicit tag that the core schema reads as a string but
    /// Yams as a Boolean or number becomes a quoted string; a decimal integer with leading zeros (octal
    /// in YAML 1.1) loses them.
    static func coreSchemaScalar(_ scalar: Node.Scalar) -> Node.Scalar? {
        // A tag Yams resolved since composing (with no rules, to `str`) counts as none.
        let tag = scalar.tag.rawValue
        guard scalar.style == .plain, tag.isEmpty || tag == Tag.Name.str.rawValue, let first = scalar.string.utf8.first else { return nil }
        // Only these begin a YAML 1.1 Boolean or number: the rest of the document's scalars cost one test.
        guard "0123456789+-.yYnNoOtTfF".utf8.contains(first) else { return nil }
        let text = scalar.string
        if isCoreInteger(text) {
            let sign = text.hasPrefix("-") ? "-" : ""
            let digits = text.drop { $0 == "-" || $0 == "+" }
            guard digits.count > 1, digits.hasPrefix("0") else { return nil }
            let trimmed = digits.drop { $0 == "0" }
            return Node.Scalar(sign + (trimmed.isEmpty ? "0" : String(trimmed)), scalar.tag, scalar.style, scalar.mark)
        }
        if coreSchemaPlain.contains(text) || isCoreNumber(text) { return nil }
        guard Bool.construct(from: scalar) != nil || Int.construct(from: scalar) != nil || Double.construct(from: scalar) != nil
        else { return nil }
        return Node.Scalar(text, Tag(.str), .singleQuoted, scalar.mark)
    }

    /// The core schema's Booleans, nulls and special floats.
    private static let coreSchemaPlain: Set<String> = [
        "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL", "~",
        ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN",
    ]

    /// Whether `text` is a core schema decimal integer: `[-+]?[0-9]+`.
    private static func isCoreInteger(_ text: String) -> Bool {
        let digits = text.utf8.drop { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }
        return text.utf8.count - digits.count <= 1 && !digits.isEmpty && digits.allSatisfy { (48...57).contains($0) }
    }

    /// Whether `text` is a core schema number other than a decimal integer: `0o[0-7]+`, `0x[0-9a-fA-F]+`
    /// or `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
    private static func isCoreNumber(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
        if text.hasPrefix("0o") { return bytes.count > 2 && bytes.dropFirst(2).allSatisfy { (48...55).contains($0) } }
        if text.hasPrefix("0x") { return bytes.count > 2 && bytes.dropFirst(2).allSatisfy { Character(UnicodeScalar($0)).isHexDigit } }
        var index = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        var whole = 0
        while index < bytes.count, isDigit(bytes[index]) {
            index += 1
            whole += 1
        }
        var fraction = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, isDigit(bytes[index]) {
                index += 1
                fraction += 1
            }
            guard whole > 0 || fraction > 0 else { return false }
        } else if whole == 0 {
            return false
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            var exponent = 0
            while index < bytes.count, isDigit(bytes[index]) {
                index += 1
                exponent += 1
            }
            guard exponent > 0 else { return false }
        }
        return index == bytes.count
    }
}
