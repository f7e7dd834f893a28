/// What the models of OpenAPI documents need beyond structs and string enumerations: integer
/// enumerations (`oneOf` of `const` branches), a JSON value for free-form schemas, and structs with
/// `additionalProperties` beside their named members.
extension SwiftEmitter {
    static func emitIntegerEnum(_ name: String, _ values: [Int], _ names: [String], access: String, into out: inout SourceWriter) {
        let cases = enumCaseNames(names)
        out.line("\(access) enum \(name): Codable, Sendable, Hashable {")
        for (value, swiftName) in zip(values, cases) {
            out.doc("`\(value)`.", indent: 1)
            out.line("    case \(SwiftNames.property(swiftName))")
        }
        out.doc("A value this version does not know, kept as it was sent.", indent: 1)
        out.line("    case unknown(Int)")
        out.line()
        out.doc("The case for a wire value; ``unknown(_:)`` for a value this version does not know.", indent: 1)
        out.line("    \(access) init(rawValue: Int) {")
        out.line("        switch rawValue {")
        for (value, swiftName) in zip(values, cases) { out.line("        case \(value): self = .\(SwiftNames.property(swiftName))") }
        out.line("        default: self = .unknown(rawValue)")
        out.line("        }")
        out.line("    }")
        out.line()
        out.doc("The wire value.", indent: 1)
        out.line("    \(access) var rawValue: Int {")
        out.line("        switch self {")
        for (value, swiftName) in zip(values, cases) { out.line("        case .\(SwiftNames.property(swiftName)): \(value)") }
        out.line("        case .unknown(let value): value")
        out.line("        }")
        out.line("    }")
        out.line()
        out.doc("Decodes the wire value.", indent: 1)
        out.line("    \(access) init(from decoder: any Decoder) throws {")
        out.line("        self.init(rawValue: try decoder.singleValueContainer().decode(Int.self))")
        out.line("    }")
        out.line()
        out.doc("Encodes the wire value.", indent: 1)
        out.line("    \(access) func encode(to encoder: any Encoder) throws {")
        out.line("        var container = encoder.singleValueContainer()")
        out.line("        try container.encode(rawValue)")
        out.line("    }")
        out.line("}")
    }

    static func emitJSONValue(_ name: String, access: String, into out: inout SourceWriter) {
        out.line("\(access) indirect enum \(name): Codable, Sendable, Hashable {")
        out.doc("`null`.", indent: 1)
        out.line("    case null")
        out.doc("`true` or `false`.", indent: 1)
        out.line("    case bool(Bool)")
        out.doc("A number without a fraction that fits an `Int`.", indent: 1)
        out.line("    case integer(Int)")
        out.doc("Any other number.", indent: 1)
        out.line("    case number(Double)")
        out.doc("A string.", indent: 1)
        out.line("    case string(String)")
        out.doc("An array.", indent: 1)
        out.line("    case array([\(name)])")
        out.doc("An object.", indent: 1)
        out.line("    case object([String: \(name)])")
        out.line()
        out.doc("Decodes any JSON value.", indent: 1)
        out.line("    \(access) init(from decoder: any Decoder) throws {")
        out.line("        let container = try decoder.singleValueContainer()")
        out.line("        if container.decodeNil() {")
        out.line("            self = .null")
        out.line("        } else if let value = try? container.decode(Bool.self) {")
        out.line("            self = .bool(value)")
        out.line("        } else if let value = try? container.decode(Int.self) {")
        out.line("            self = .integer(value)")
        out.line("        } else if let value = try? container.decode(Double.self) {")
        out.line("            self = .number(value)")
        out.line("        } else if let value = try? container.decode(String.self) {")
        out.line("            self = .string(value)")
        out.line("        } else if let value = try? container.decode([\(name)].self) {")
        out.line("            self = .array(value)")
        out.line("        } else {")
        out.line("            self = .object(try container.decode([String: \(name)].self))")
        out.line("        }")
        out.line("    }")
        out.line()
        out.doc("Encodes the value as it was.", indent: 1)
        out.line("    \(access) func encode(to encoder: any Encoder) throws {")
        out.line("        var container = encoder.singleValueContainer()")
        out.line("        switch self {")
        out.line("        case .null: try container.encodeNil()")
        for kind in ["bool", "integer", "number", "string", "array", "object"] {
            out.line("        case .\(kind)(let value): try container.encode(value)")
        }
        out.line("        }")
        out.line("    }")
        out.line("}")
    }

    /// Coding for a struct whose last field holds `additionalProperties`: the named keys as usual,
    /// every other key into that dictionary, and back.
    static func emitAdditionalPropertiesCoding(_ model: APIDescription.Model, access: String, into out: inout SourceWriter) {
        guard let extra = model.fields.last, let additional = model.additionalProperties else { return }
        let named = model.fields.dropLast()
        out.line()
        out.line("    private struct AnyKey: CodingKey {")
        out.line("        var stringValue: String")
        out.line("        var intValue: Int? { nil }")
        out.line("        init(stringValue: String) { self.stringValue = stringValue }")
        out.line("        init?(intValue: Int) { nil }")
        out.line("    }")
        out.line()
        out.line("    private static let namedKeys: Set<String> = [\(named.map { SwiftSource.literal($0.key) }.joined(separator: ", "))]")
        out.line()
        out.doc("Decodes the named members, and every other member into ``\(extra.swiftName)``.", indent: 1)
        out.line("    \(access) init(from decoder: any Decoder) throws {")
        out.line("        let container = try decoder.container(keyedBy: AnyKey.self)")
        for field in named {
            let key = "AnyKey(stringValue: \(SwiftSource.literal(field.key)))"
            let call =
                field.type.isOptional
                ? "try container.decodeIfPresent(\(field.type.unwrapped.swiftType).self, forKey: \(key))"
                : "try container.decode(\(field.type.swiftType).self, forKey: \(key))"
            out.line("        self.\(SwiftNames.property(field.swiftName)) = \(call)")
        }
        out.line("        var others: [String: \(additional.swiftType)] = [:]")
        out.line("        for key in container.allKeys where !Self.namedKeys.contains(key.stringValue) {")
        out.line("            others[key.stringValue] = try container.decode(\(additional.swiftType).self, forKey: key)")
        out.line("        }")
        out.line("        self.\(SwiftNames.property(extra.swiftName)) = others")
        out.line("    }")
        out.line()
        out.doc("Encodes the named members and the others.", indent: 1)
        out.line("    \(access) func encode(to encoder: any Encoder) throws {")
        out.line("        var container = encoder.container(keyedBy: AnyKey.self)")
        for field in named {
            let key = "AnyKey(stringValue: \(SwiftSource.literal(field.key)))"
            let method = field.type.isOptional ? "encodeIfPresent" : "encode"
            out.line("        try container.\(method)(self.\(SwiftNames.property(field.swiftName)), forKey: \(key))")
        }
        out.line("        for (key, value) in self.\(SwiftNames.property(extra.swiftName)) where !Self.namedKeys.contains(key) {")
        out.line("            try container.encode(value, forKey: AnyKey(stringValue: key))")
        out.line("        }")
        out.line("    }")
    }
}
