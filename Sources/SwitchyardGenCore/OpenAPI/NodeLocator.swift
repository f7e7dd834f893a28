import Yams

/// Finds where a construct of a document is: OpenAPIKit decodes through `Codable` and keeps no
/// positions, so the generator walks the same path (JSON pointer segments) through the Yams node tree,
/// which has a line and column for every node. JSON is YAML 1.2, so one walk serves both.
struct NodeLocator {
    /// The document's root node.
    let root: Node
    /// The path shown in messages.
    let file: String

    /// The node at `path`, or `nil` when some segment is not there.
    func node(at path: [String]) -> Node? {
        var current = root
        for segment in path {
            guard let next = child(of: current, segment) else { return nil }
            current = next
        }
        return current
    }

    /// Where the construct at `path` is: the key that names it (the item, in a list), or the deepest
    /// enclosing construct that exists.
    func location(_ path: [String]) -> SourceLocation {
        var current = root
        var mark = root.mark
        for segment in path {
            if let mapping = current.mapping, let pair = mapping.first(where: { $0.key.string == segment }) {
                mark = pair.key.mark
                current = pair.value
            } else if let sequence = current.sequence, let index = Int(segment), sequence.indices.contains(index) {
                current = sequence[index]
                mark = current.mark
            } else {
                break
            }
        }
        return SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    private func child(of node: Node, _ segment: String) -> Node? {
        if let mapping = node.mapping { return mapping.first { $0.key.string == segment }?.value }
        if let sequence = node.sequence, let index = Int(segment), sequence.indices.contains(index) { return sequence[index] }
        return nil
    }
}
