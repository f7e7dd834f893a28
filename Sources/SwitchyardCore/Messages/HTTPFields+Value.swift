package import HTTPTypes

extension HTTPFields {
    /// The value of the field named `name` exactly as `subscript(_:)` reads it (several fields of the
    /// name joined), without building a new string in the common case of a single field — which is
    /// every field a stage reads on every call: content types, signatures, key ids, nonces.
    ///
    /// - Parameter name: the field's name.
    /// - Returns: the value, or `nil` when no field has the name.
    package func value(_ name: HTTPField.Name) -> String? {
        let canonical = name.canonicalName
        // A name's length, read from the string's header, rules out most fields without comparing
        // their names (equal names have equal lengths).
        let length = canonical.utf8.count
        var found: Int?
        for index in indices where self[index].name.canonicalName.utf8.count == length && self[index].name.canonicalName == canonical {
            guard found == nil else { return self[name] }
            found = index
        }
        return found.map { self[$0].value }
    }
}

extension HTTPFields {
    /// Sets `fields` as `self[fields: field.name] = [field]` would for each field, one after another,
    /// with one pass over the list: a field whose name is here once replaces that field in place, and
    /// the others are appended in their order — which is what the sets do. When a name is here more
    /// than once (the sets would remove the extra ones) or `fields` names one twice, the sets are
    /// made one by one.
    ///
    /// - Parameter fields: the fields to set, at most a handful.
    package mutating func set(_ fields: [HTTPField]) {
        let matched: Bool = withUnsafeTemporaryAllocation(of: Int.self, capacity: fields.count) { slots in
            slots.initialize(repeating: -1)
            for index in self.indices {
                // A name's length, read from the string's header, rules out most pairs without comparing.
                let length = self[index].name.canonicalName.utf8.count
                for slot in fields.indices
                where fields[slot].name.canonicalName.utf8.count == length && fields[slot].name == self[index].name {
                    guard slots[slot] < 0 else { return false }
                    slots[slot] = index
                }
            }
            for slot in fields.indices {
                for other in fields.indices[..<slot] where fields[other].name == fields[slot].name { return false }
            }
            for slot in fields.indices {
                if slots[slot] >= 0 { self[slots[slot]] = fields[slot] } else { self.append(fields[slot]) }
            }
            return true
        }
        guard !matched else { return }
        for field in fields { self[fields: field.name] = [field] }
    }
}
