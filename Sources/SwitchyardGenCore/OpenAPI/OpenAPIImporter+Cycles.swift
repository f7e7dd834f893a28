/// Schemas that would make a type contain itself with nothing between: a component that is another name
/// for itself (`A: {$ref: B}`, `B: {$ref: A}`, or `A: {type: array, items: {$ref: A}}`, which Swift
/// cannot write as a `typealias`), and a union with itself among its cases (its decoder would call
/// itself on the same value forever). Both are refused with an error at the schema. A model that holds
/// itself through a property is legitimate and is boxed (``SwiftEmitter``).
extension OpenAPIImporter {
    /// Reports every such cycle among the declared models, once, at the first model of the cycle;
    /// `false` when there is one (the importer then stops: following such a model would not end).
    func refuseSelfContainingModels() -> Bool {
        var found = false
        let byName = Dictionary(models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func successors(_ name: String) -> [String] {
            switch byName[name]?.kind {
            case .alias(let type): type.modelNames
            case .union(let cases, _): cases.compactMap { if case .model(let target) = $0.type.unwrapped { target } else { nil } }
            case .structure, .stringEnum, .integerEnum, .json, nil: []
            }
        }
        // An iterative depth-first search (a document may declare thousands of models): a model reached
        // again while it is still on the path closes a cycle.
        var state: [String: Bool] = [:]  // false: on the path; true: done
        for model in models where state[model.name] == nil {
            var path: [(name: String, next: [String])] = [(model.name, successors(model.name))]
            state[model.name] = false
            while !path.isEmpty {
                guard let target = path[path.count - 1].next.popLast() else {
                    state[path.removeLast().name] = true
                    continue
                }
                switch state[target] {
                case nil:
                    state[target] = false
                    path.append((target, successors(target)))
                case false?:
                    let names = path.map(\.name).drop(while: { $0 != target }) + [target]
                    guard let first = byName[target] else { continue }
                    found = true
                    let kind = if case .union = first.kind { "a union that is one of its own cases" } else { "another name for itself" }
                    reportOnce(
                        DescriptionError(
                            "schema '\(target)' is \(kind) (\(names.map { "'\($0)'" }.joined(separator: " → "))), so no Swift type can hold"
                                + " it: give one of them properties, or refer to it from a property",
                            at: first.location
                        )
                    )
                case true?: break
                }
            }
        }
        return !found
    }

    /// Records an error unless the same one is already recorded (a cycle is met from each of its schemas).
    func reportOnce(_ error: DescriptionError) {
        guard !reader.errors.contains(error) else { return }
        reader.error(error.message, at: error.location)
    }
}
