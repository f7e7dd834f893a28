import HTTPTypes

extension CachedResponse: CustomReflectable {
    /// What `print`, `dump`, `Mirror` and the debugger show: the key, the status, the header fields
    /// with secret values hidden by ``Redaction/default``, the body's size only, the times, and the
    /// varying request fields with the values of secret ones (`Authorization`, `Cookie` …) hidden.
    public var customMirror: Mirror {
        let redaction = Redaction.default
        let varying = varyingFields.map { name, value in
            let secret = HTTPField.Name(name).map { redaction.isSensitive($0) } ?? redaction.isSensitive(name)
            return (name, secret ? redaction.replacement : value)
        }
        return Mirror(
            self,
            children: [
                "key": key, "status": status, "headerFields": redaction.render(headerFields), "body": "\(body.count) bytes",
                "storedAt": storedAt, "requestedAt": requestedAt, "varyingFields": Dictionary(uniqueKeysWithValues: varying),
            ],
            displayStyle: .struct
        )
    }
}
