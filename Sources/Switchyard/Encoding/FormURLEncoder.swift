import SwitchyardSupport

/// Flattens ``Parameters`` into `name=value` pairs for query strings and form bodies.
///
/// Names and values are percent-encoded with the RFC 3986 unreserved set (a space becomes `%20`,
/// `+` becomes `%2B`), so the result means the same to every server. Nested objects become
/// `outer[inner]=value`; arrays follow the ``QueryArrayStyle``; `null` members are left out.
public struct FormURLEncoder: Sendable {
    /// How arrays are written.
    public var arrayStyle: QueryArrayStyle

    /// Creates an encoder.
    public init(arrayStyle: QueryArrayStyle = .brackets) { self.arrayStyle = arrayStyle }

    /// Returns `a=1&b=2`, in the parameters' order; empty for no parameters.
    ///
    /// - Throws: ``SwitchyardError/Code/encoding`` for a non-finite number.
    public func encode(_ parameters: Parameters) throws(SwitchyardError) -> String {
        var pairs: [String] = []
        for element in parameters {
            try append(element.value, name: element.name, to: &pairs)
        }
        return pairs.joined(separator: "&")
    }

    private func append(_ value: ParameterValue, name: String, to pairs: inout [String]) throws(SwitchyardError) {
        switch value {
        case .null:
            return
        case .double(let number) where !number.isFinite:
            throw SwitchyardError(code: .encoding, message: "parameter '\(name)' is \(number), which cannot be sent")
        case .string, .int, .double, .bool:
            pairs.append(PercentEncoding.encodeComponent(name) + "=" + PercentEncoding.encodeComponent(value.scalarText ?? ""))
        case .array(let values):
            switch arrayStyle {
            case .brackets:
                for element in values { try append(element, name: name + "[]", to: &pairs) }
            case .repeated:
                for element in values { try append(element, name: name, to: &pairs) }
            case .commaSeparated:
                var texts: [String] = []
                for element in values {
                    if case .double(let number) = element, !number.isFinite {
                        throw SwitchyardError(code: .encoding, message: "parameter '\(name)' holds \(number), which cannot be sent")
                    }
                    guard let text = element.scalarText else {
                        throw SwitchyardError(
                            code: .encoding,
                            message: "parameter '\(name)' holds a null, array or object, which a comma-separated list cannot carry"
                        )
                    }
                    texts.append(text)
                }
                pairs.append(PercentEncoding.encodeComponent(name) + "=" + PercentEncoding.encodeComponent(texts.joined(separator: ",")))
            }
        case .object(let members):
            for member in members { try append(member.value, name: "\(name)[\(member.name)]", to: &pairs) }
        }
    }
}
