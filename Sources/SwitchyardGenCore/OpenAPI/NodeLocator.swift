import Yams

/// Finds where a construct of a document is: OpenAPIKit decodes through `Codable` and keeps no
/// positions, so the generator walks the same path (JSON pointer segments) through the Yams node tree,
/// which has a line and column for every node. A JSON document's tree has no marks (it is read by
/// ``JSONLocator``, not composed by Yams), so its places come from the JSON text's own scan.
struct NodeLocator {
    /// The document's root node.
    let root: Node
    /// The path shown in messages.
    let file: String
    /// The places of a JSON document, which ``location(_:)`` reads instead of the nodes' marks.
    let json: JSONLocator?
    /// The keys of the large mappings walked so far, by their path: a document's thousands of schemas are
    /// each located in constant time, not by a scan of all of them.
    private let index = KeyIndex()

    init(root: Node, file: String, json: JSONLocator? = nil) {
        self.root = root
        self.file = file
        self.json = json
    }

    /// The node at `path`, or `nil` when some segment is not there.
    func node(at path: [String]) -> Node? {
        var current = root
        for (depth, segment) in path.enumerated() {
            guard let next = child(of: current, segment, at: path[..<depth])?.value else { return nil }
            current = next
        }
        return current
    }

    /// Where the construct at `path` is: the key that names it (the item, in a list), or the deepest
    /// enclosing construct that exists.
    func location(_ path: [String]) -> SourceLocation {
        if let json { return json.location(path) }
        var current = root
        var mark = root.mark
        for (depth, segment) in path.enumerated() {
            guard let next = child(of: current, segment, at: path[..<depth]) else { break }
            mark = next.mark
            current = next.value
        }
        return SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    /// The child named `segment` of `node` (found at `path`) and the mark of its key or item.
    private func child(of node: Node, _ segment: String, at path: ArraySlice<String>) -> (value: Node, mark: Mark?)? {
        if let mapping = node.mapping {
            if mapping.count < 32 {
                return mapping.first { $0.key.string == segment }.map { ($0.value, $0.key.mark) }
            }
            let positions = index.positions(of: mapping, at: path)
            return positions[segment].map { (mapping[$0].value, mapping[$0].key.mark) }
        }
        if let sequence = node.sequence, let index = Int(segment), sequence.indices.contains(index) {
            return (sequence[index], sequence[index].mark)
        }
        return nil
    }

    /// The first position of each key of the large mappings, by the mapping's path.
    private final class KeyIndex {
        private var mappings: [ArraySlice<String>: [String: Node.Mapping.Index]] = [:]

        func positions(of mapping: Node.Mapping, at path: ArraySlice<String>) -> [String: Node.Mapping.Index] {
            if let known = mappings[path] { return known }
            var positions: [String: Node.Mapping.Index] = [:]
            for position in mapping.indices {
                if let key = mapping[position].key.string, positions[key] == nil { positions[key] = position }
            }
            mappings[path] = positions
            return positions
        }
    }
}
