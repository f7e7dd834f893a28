import Foundation
import Yams

/// Reads a composed YAML tree with locations, collecting every problem instead of stopping at the first.
final class YAMLReader {
    let file: String
    private(set) var errors: [DescriptionError] = []

    init(file: String) {
        self.file = file
    }

    /// Where a node without a mark is reported: a JSON document's nodes have none (``JSONLocator`` reads
    /// them, not Yams), so whoever reads one of its values sets the place of that value here.
    var unmarked: SourceLocation?

    /// The location of a node (``unmarked``, or line 1, column 1, when YAML gave none).
    func location(_ node: Node) -> SourceLocation {
        guard let mark = node.mark else { return unmarked ?? SourceLocation(file: file, line: 1, column: 1) }
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    func error(_ message: String, at node: Node) {
        errors.append(DescriptionError(message, at: location(node)))
    }

    func error(_ message: String, at location: SourceLocation) {
        errors.append(DescriptionError(message, at: location))
    }

    /// A mapping's entries with string keys, in order; an error (and `nil`) for anything else.
    /// Keys not in `allowed` (when given) are reported with a suggestion.
    func entries(_ node: Node, _ what: String, allowed: [String]? = nil) -> [(key: String, keyNode: Node, value: Node)]? {
        guard let mapping = node.mapping else {
            error("\(what) must be a mapping of names to values", at: node)
            return nil
        }
        var result: [(key: String, keyNode: Node, value: Node)] = []
        for (key, value) in mapping {
            guard let name = key.scalar?.string else {
                error("a key in \(what) must be a plain name", at: key)
                continue
            }
            if let allowed, !allowed.contains(name) {
                error(
                    "unknown key '\(name)' in \(what); expected one of: \(allowed.joined(separator: ", "))"
                        + SwiftNames.suggestion(for: name, among: allowed),
                    at: key
                )
                continue
            }
            result.append((name, key, value))
        }
        return result
    }

    /// Entries as a dictionary, for looking keys up.
    func fields(_ node: Node, _ what: String, allowed: [String]) -> [String: Node]? {
        guard let entries = entries(node, what, allowed: allowed) else { return nil }
        return Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    func string(_ node: Node?, _ what: String) -> String? {
        guard let node else { return nil }
        guard let scalar = node.scalar else {
            error("\(what) must be text", at: node)
            return nil
        }
        // Block scalars (`|`) end with a newline; summaries and types never need outer whitespace.
        return scalar.string.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A type name (a configuration's `name`, `x-switchyard-name`): an error at its node, and `nil`, when
    /// it is not an upper-camel Swift type name.
    func typeName(_ node: Node?, _ what: String) -> String? {
        guard let node, let name = string(node, what) else { return nil }
        guard SwiftNames.isTypeName(name) else {
            error("\(what) must be an upper-camel Swift type name such as 'Petstore', not '\(name)'", at: node)
            return nil
        }
        return name
    }

    func int(_ node: Node?, _ what: String) -> Int? {
        guard let node else { return nil }
        guard node.scalar != nil, let value = node.int else {
            error("\(what) must be a whole number", at: node)
            return nil
        }
        return value
    }

    func number(_ node: Node?, _ what: String) -> Double? {
        guard let node else { return nil }
        guard node.scalar != nil, let value = node.float ?? node.int.map(Double.init) else {
            error("\(what) must be a number", at: node)
            return nil
        }
        return value
    }

    func bool(_ node: Node?, _ what: String) -> Bool? {
        guard let node else { return nil }
        guard node.scalar != nil, let value = node.bool else {
            error("\(what) must be true or false", at: node)
            return nil
        }
        return value
    }

    /// A list of text values (a single text counts as a list of one).
    func strings(_ node: Node?, _ what: String) -> [String] {
        guard let node else { return [] }
        if node.scalar != nil { return string(node, what).map { [$0] } ?? [] }
        guard let sequence = node.sequence else {
            error("\(what) must be a list", at: node)
            return []
        }
        return sequence.compactMap { string($0, what) }
    }
}
