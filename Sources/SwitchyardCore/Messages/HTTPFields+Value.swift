package import HTTPTypes

extension HTTPFields {
    /// The value of the field named `name` exactly as `subscript(_:)` reads it (several fields of the
    /// name joined), without building a new string in the common case of a single field — which is
    /// every field a stage reads on every call: content types, signatures, key ids, nonces.
    ///
    /// - Parameter name: the field's name.
    /// - Returns: the value, or `nil` when no field has the name.
    package func value(_ name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            guard found == nil else { return self[name] }
            found = field.value
        }
        return found
    }
}
