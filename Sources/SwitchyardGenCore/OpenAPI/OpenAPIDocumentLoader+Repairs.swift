import Yams

/// What the tree is given before OpenAPIKit decodes it:
///
/// - Integer bounds that no 64-bit integer holds (`maximum: 9223372036854776000`, `minimum: 1.5`) are left
///   out with a warning: the generator checks no bounds, so one such bound costs the app nothing and must
///   not refuse the whole document, as OpenAPIKit would.
/// - Plain scalars are resolved by YAML 1.2's core schema, where Yams's decoder reads YAML 1.1: `yes`,
///   `no`, `on`, `off` (and `y`, `n`) are strings, not Booleans (`enum: [yes, no]` is not `[true, false]`);
///   `1_000`, `0b101`, `1:30` and `.iNf` are strings, not numbers; `0755` is the decimal 755, not octal.
extension OpenAPIDocumentLoader {
    static let integerBoundKeys: Set<String> = ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"]

    /// `node` repaired as above, each left-out bound reported to `warn` with its path; the tree itself
    /// when nothing needed it.
    static func repaired(_ node: Node, path: [String], warn: (String, [String]) -> Void) -> Node {
        repairedOrNil(node, path: path, warn: warn) ?? node
    }

    /// The repaired node, or `nil` when nothing under it changed (so no tree is compared or copied).
    private static func repairedOrNil(_ node: Node, path: [String], warn: (String, [String]) -> Void) -> Node? {
        switch node {
        case .mapping(let mapping):
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
                    !(Double(text).map { Int(exactly: $0) != nil } ?? false)
                {
                    warn(
                        "the integer bound '\(key): \(text)' is not a 64-bit integer; it is ignored (the generated code checks no bounds,"
                            + " so the app misses nothing)",
                        path + [key]
                    )
                    changed = true
                    continue
                }
                let value = repairedOrNil(pair.value, path: path + [key], warn: warn)
                if value != nil { changed = true }
                pairs.append((pair.key, value ?? pair.value))
            }
            return changed ? .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark)) : nil
        case .sequence(let sequence):
            var changed = false
            let nodes = sequence.enumerated().map { index, item in
                let value = repairedOrNil(item, path: path + [String(index)], warn: warn)
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
