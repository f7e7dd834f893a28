/// The models' Swift: structs (members of recursive models boxed), string enumerations with an
/// unknown-value case, unions and aliases.
extension SwiftEmitter {
    static func emitModel(
        _ model: APIDescription.Model,
        boxed: Set<String>,
        access: String,
        into out: inout SourceWriter
    ) {
        out.doc(model.summary ?? "The `\(model.name)` model.", indent: 0)
        switch model.kind {
        case .structure: emitStruct(model, boxed: boxed, access: access, into: &out)
        case .stringEnum(let values): emitStringEnum(model.name, values, access: access, into: &out)
        case .union(let cases, let discriminator): emitUnion(model.name, cases, discriminator: discriminator, access: access, into: &out)
        case .alias(let type): out.line("\(access) typealias \(model.name) = \(type.swiftType)")
        case .integerEnum(let values, let names): emitIntegerEnum(model.name, values, names, access: access, into: &out)
        case .json: emitJSONValue(model.name, access: access, into: &out)
        }
    }

    private static func emitStruct(_ model: APIDescription.Model, boxed: Set<String>, access: String, into out: inout SourceWriter) {
        out.line("\(access) struct \(model.name): Codable, Sendable, Hashable {")
        var model = model
        // Boxed members are computed properties, which the own decoding cannot assign: a recursive struct
        // keeps its named members only (the importer's models are rarely both).
        if !boxed.isEmpty { model.additionalProperties = nil }
        if let additional = model.additionalProperties {
            // The other members, in a dictionary that the own coding below fills with every key that is
            // no named property's.
            var used = Set(model.fields.map(\.swiftName))
            model.fields.append(
                APIDescription.Field(
                    key: "",
                    swiftName: SwiftNames.unique("additionalProperties", in: &used),
                    type: .dictionary(additional),
                    summary: "The members other than the named ones.",
                    location: model.location
                )
            )
        }
        for field in model.fields {
            let name = SwiftNames.property(field.swiftName)
            out.doc(field.summary ?? "`\(field.key)`.", indent: 1)
            guard boxed.contains(field.key) else {
                out.line("    \(access) var \(name): \(field.type.swiftType)")
                continue
            }
            let optional = field.type.isOptional
            out.line("    \(access) var \(name): \(field.type.swiftType) {")
            out.line("        get { _\(field.swiftName)\(optional ? "?" : "").value }")
            out.line("        set { _\(field.swiftName) = \(optional ? "newValue.map { IndirectBox($0) }" : "IndirectBox(newValue)") }")
            out.line("    }")
            out.line("    private var _\(field.swiftName): IndirectBox<\(field.type.unwrapped.swiftType)>\(optional ? "?" : "")")
        }
        if access == "public" || !boxed.isEmpty || model.additionalProperties != nil {
            out.line()
            out.doc("Creates a value.", indent: 1)
            let arguments = model.fields.map { field in
                "\(field.swiftName): \(field.type.swiftType)"
                    + (field.type.isOptional ? " = nil" : field.key.isEmpty && model.additionalProperties != nil ? " = [:]" : "")
            }
            out.line("    \(access) init(\(arguments.joined(separator: ", "))) {")
            for field in model.fields {
                let name = SwiftNames.property(field.swiftName)
                guard boxed.contains(field.key) else {
                    out.line("        self.\(name) = \(name)")
                    continue
                }
                let box = field.type.isOptional ? "\(name).map { IndirectBox($0) }" : "IndirectBox(\(name))"
                out.line("        self._\(field.swiftName) = \(box)")
            }
            out.line("    }")
        }
        if model.additionalProperties != nil {
            emitAdditionalPropertiesCoding(model, access: access, into: &out)
        } else if model.fields.contains(where: { $0.key != $0.swiftName || boxed.contains($0.key) }) {
            out.line()
            out.line("    private enum CodingKeys: String, CodingKey {")
            for field in model.fields {
                let raw = boxed.contains(field.key) ? "_" + field.swiftName : field.swiftName
                out.line("        case \(SwiftNames.property(raw))" + (field.key == raw ? "" : " = \(SwiftSource.literal(field.key))"))
            }
            out.line("    }")
        }
        out.line("}")
    }

    private static func emitStringEnum(_ name: String, _ values: [String], access: String, into out: inout SourceWriter) {
        let cases = enumCaseNames(values)
        out.line("\(access) enum \(name): Codable, Sendable, Hashable {")
        for (value, swiftName) in zip(values, cases) {
            out.doc("`\(value)`.", indent: 1)
            out.line("    case \(SwiftNames.property(swiftName))")
        }
        out.doc("A value this version does not know, kept as it was sent.", indent: 1)
        out.line("    case unknown(String)")
        out.line()
        out.doc("The case for a wire value; ``unknown(_:)`` for a value this version does not know.", indent: 1)
        out.line("    \(access) init(rawValue: String) {")
        out.line("        switch rawValue {")
        for (value, swiftName) in zip(values, cases) {
            out.line("        case \(SwiftSource.literal(value)): self = .\(SwiftNames.property(swiftName))")
        }
        out.line("        default: self = .unknown(rawValue)")
        out.line("        }")
        out.line("    }")
        out.line()
        out.doc("The wire value.", indent: 1)
        out.line("    \(access) var rawValue: String {")
        out.line("        switch self {")
        for (value, swiftName) in zip(values, cases) {
            out.line("        case .\(SwiftNames.property(swiftName)): \(SwiftSource.literal(value))")
        }
        out.line("        case .unknown(let value): value")
        out.line("        }")
        out.line("    }")
        out.line()
        out.doc("Decodes the wire value.", indent: 1)
        out.line("    \(access) init(from decoder: any Decoder) throws {")
        out.line("        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))")
        out.line("    }")
        out.line()
        out.doc("Encodes the wire value.", indent: 1)
        out.line("    \(access) func encode(to encoder: any Encoder) throws {")
        out.line("        var container = encoder.singleValueContainer()")
        out.line("        try container.encode(rawValue)")
        out.line("    }")
        out.line("}")
    }

    private static func emitUnion(
        _ name: String,
        _ cases: [APIDescription.UnionCase],
        discriminator: String?,
        access: String,
        into out: inout SourceWriter
    ) {
        out.line("\(access) indirect enum \(name): Codable, Sendable, Hashable {")
        for unionCase in cases {
            out.doc("A `\(unionCase.type.swiftType)`.", indent: 1)
            out.line("    case \(SwiftNames.property(unionCase.name))(\(unionCase.type.swiftType))")
        }
        out.line()
        if let discriminator {
            out.doc("Decodes the case the `\(discriminator)` property names.", indent: 1)
            out.line("    \(access) init(from decoder: any Decoder) throws {")
            out.line("        let container = try decoder.container(keyedBy: DiscriminatorKey.self)")
            out.line("        let tag = try container.decode(String.self, forKey: .tag)")
            out.line("        switch tag {")
            for unionCase in cases {
                out.line(
                    "        case \(unionCase.tags.map(SwiftSource.literal).joined(separator: ", ")): self = .\(SwiftNames.property(unionCase.name))(try \(unionCase.type.swiftType)(from: decoder))"
                )
            }
            out.line("        default:")
            let unknown = SwiftSource.literal("unknown \(discriminator) '")
            out.line(
                "            throw DecodingError.dataCorruptedError(forKey: .tag, in: container, debugDescription: \(unknown) + tag + \"'\")"
            )
            out.line("        }")
            out.line("    }")
        } else {
            out.doc("Decodes the first case whose type decodes the value.", indent: 1)
            out.line("    \(access) init(from decoder: any Decoder) throws {")
            for unionCase in cases {
                out.line(
                    "        if let value = try? \(unionCase.type.swiftType)(from: decoder) { self = .\(SwiftNames.property(unionCase.name))(value); return }"
                )
            }
            let names = cases.map { $0.type.swiftType }.joined(separator: ", ")
            out.line(
                "        throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: \(SwiftSource.literal("the value is none of " + names))))"
            )
            out.line("    }")
        }
        out.line()
        out.doc("Encodes the case's value.", indent: 1)
        out.line("    \(access) func encode(to encoder: any Encoder) throws {")
        out.line("        switch self {")
        for unionCase in cases {
            out.line("        case .\(SwiftNames.property(unionCase.name))(let value): try value.encode(to: encoder)")
        }
        out.line("        }")
        out.line("    }")
        if let discriminator {
            out.line()
            out.line("    private enum DiscriminatorKey: String, CodingKey {")
            out.line("        case tag = \(SwiftSource.literal(discriminator))")
            out.line("    }")
        }
        out.line("}")
    }

    /// Swift case names for enumeration values: lower camel case, unique, never `unknown`.
    static func enumCaseNames(_ values: [String]) -> [String] {
        // `rawValue`, `hashValue` and `encode` are the enumeration's own members.
        var used: Set<String> = ["unknown", "rawValue", "hashValue", "encode"]
        return values.map { value in
            var name = value.isEmpty ? "empty" : SwiftNames.member(value)
            if name == "_" { name = "value" }
            return SwiftNames.unique(name, in: &used)
        }
    }

    /// The keys of the fields each struct model must box: those whose model leads back to the struct
    /// through struct members (arrays, dictionaries and unions already hold their values out of line),
    /// that is, whose model is in the struct's strongly connected component of the struct-member graph.
    static func boxedFields(_ models: [APIDescription.Model]) -> [String: Set<String>] {
        let byName = Dictionary(models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func directTarget(_ type: TypeReference) -> String? {
            var type = type
            var seen: Set<String> = []
            while case .model(let name) = type.unwrapped, let model = byName[name], seen.insert(name).inserted {
                switch model.kind {
                case .structure: return name
                case .alias(let aliased): type = aliased
                case .stringEnum, .integerEnum, .union, .json: return nil
                }
            }
            return nil
        }
        func edges(_ name: String) -> [String] {
            guard let model = byName[name], case .structure = model.kind else { return [] }
            return model.fields.compactMap { directTarget($0.type) }
        }
        let component = stronglyConnectedComponents(models.map(\.name), edges: edges)
        var result: [String: Set<String>] = [:]
        for model in models {
            guard case .structure = model.kind else { continue }
            for field in model.fields {
                if let target = directTarget(field.type), component[target] == component[model.name] {
                    result[model.name, default: []].insert(field.key)
                }
            }
        }
        return result
    }

    /// The strongly connected component of each node, numbered (Tarjan's algorithm without recursion, so
    /// that thousands of models neither overflow the stack nor cost a walk per member).
    static func stronglyConnectedComponents(_ nodes: [String], edges: (String) -> [String]) -> [String: Int] {
        var order: [String: Int] = [:]
        var low: [String: Int] = [:]
        var stack: [String] = []
        var onStack: Set<String> = []
        var component: [String: Int] = [:]
        var components = 0
        func visit(_ node: String) {
            order[node] = order.count
            low[node] = order[node]
            stack.append(node)
            onStack.insert(node)
        }
        for start in nodes where order[start] == nil {
            visit(start)
            var work: [(node: String, edges: [String], next: Int)] = [(start, edges(start), 0)]
            while let top = work.last {
                if top.next < top.edges.count {
                    let target = top.edges[top.next]
                    work[work.count - 1].next += 1
                    if order[target] == nil {
                        visit(target)
                        work.append((target, edges(target), 0))
                    } else if onStack.contains(target), let targetOrder = order[target] {
                        low[top.node] = min(low[top.node] ?? targetOrder, targetOrder)
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last, let nodeLow = low[top.node] { low[parent.node] = min(low[parent.node] ?? nodeLow, nodeLow) }
                guard low[top.node] == order[top.node] else { continue }
                while let member = stack.popLast() {
                    onStack.remove(member)
                    component[member] = components
                    if member == top.node { break }
                }
                components += 1
            }
        }
        return component
    }

    /// The box that holds a member of a recursive model.
    static func emitBox(into out: inout SourceWriter) {
        out.line()
        out.doc("Holds a member of a recursive model out of line, so that the model has a finite size.", indent: 0)
        out.line("private final class IndirectBox<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {")
        out.line("    let value: Value")
        out.line()
        out.line("    init(_ value: Value) { self.value = value }")
        out.line("    init(from decoder: any Decoder) throws { value = try Value(from: decoder) }")
        out.line("    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }")
        out.line("    static func == (lhs: IndirectBox, rhs: IndirectBox) -> Bool { lhs.value == rhs.value }")
        out.line("    func hash(into hasher: inout Hasher) { hasher.combine(value) }")
        out.line("}")
    }
}
