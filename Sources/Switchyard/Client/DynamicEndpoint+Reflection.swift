import Foundation

extension DynamicEndpoint: CustomReflectable {
    /// What `print`, `dump`, `Mirror` and the debugger show: the endpoint's parts, with the path and
    /// name redacted as a target is (``Redaction/redactTarget(_:)``), path parameters and parameters
    /// named like secrets hidden, header fields' secret values hidden (``Redaction/default``), and
    /// whether there is a body — never its bytes.
    public var customMirror: Mirror {
        let redaction = Redaction.default
        let hiddenPathParameters = pathParameters.map { name, value in (name, redaction.isSensitive(name) ? redaction.replacement : value) }
        return Mirror(
            self,
            children: [
                "service": service, "method": method.rawValue, "path": redaction.redactTarget(path),
                "pathParameters": Dictionary(uniqueKeysWithValues: hiddenPathParameters), "parameters": parameters,
                "body": body == nil ? "no body" : "a body", "headerFields": redaction.render(headerFields), "encoding": encoding as Any,
                "options": options, "name": redaction.redactTarget(name), "acceptedMediaType": acceptedMediaType as Any,
            ],
            displayStyle: .struct
        )
    }
}

extension Parameters: CustomReflectable {
    /// What `print`, `dump`, `Mirror` and the debugger show: each parameter by name, its value as JSON
    /// text — ``Redaction/replacement`` when the name is secret, and secret members hidden inside an
    /// object (``Redaction/redactValue(_:named:)``).
    public var customMirror: Mirror {
        let redaction = Redaction.default
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let children = map { element -> Mirror.Child in
            let json = (try? encoder.encode(element.value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
            return (element.name, redaction.redactValue(json, named: element.name))
        }
        return Mirror(self, children: children, displayStyle: .struct)
    }
}
