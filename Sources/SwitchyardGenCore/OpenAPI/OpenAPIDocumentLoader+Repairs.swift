import Yams

/// What the tree is given before OpenAPIKit decodes it:
///
/// - Integer bounds that no 64-bit integer holds (`maximum: 9223372036854776000`, `minimum: 1.5`) are left
///   out with a warning: the generator checks no bounds, so one such bound costs the app nothing and must
///   not refuse the whole document, as OpenAPIKit would.
/// - Plain `yes`, `no`, `on` and `off` values are marked as strings: YAML 1.2 reads them so, while Yams's
///   decoder would make them Booleans (YAML 1.1), turning `enum: [yes, no]` into `[true, false]`.
extension OpenAPIDocumentLoader {
    static let integerBoundKeys: Set<String> = ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"]
    /// The YAML 1.1 Booleans that YAML 1.2 reads as strings.
    static let yaml11Booleans: Set<String> = ["yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"]

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
        case .scalar(var scalar):
            guard scalar.style == .plain, yaml11Booleans.contains(scalar.string) else { return nil }
            scalar.tag = Tag(.str)
            return .scalar(scalar)
        case .alias:
            return nil
        }
    }
}
