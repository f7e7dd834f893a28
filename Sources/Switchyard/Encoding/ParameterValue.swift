/// A parameter value: a scalar, `null`, an array or a nested object.
///
/// Values are written with literals:
///
/// ```swift
/// let parameters: Parameters = ["q": "swift", "page": 2, "exact": true, "ids": [1, 2], "filter": ["lang": "zh"]]
/// ```
///
/// How a value is written on the wire depends on the ``ParameterEncoding``: as JSON in a JSON body;
/// flattened to `name=value` pairs (`ids[]=1&ids[]=2`, `filter[lang]=zh`) in a query or form body,
/// where `null` members are left out.
public enum ParameterValue: Sendable, Hashable, Encodable,
    ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// Text.
    case string(String)
    /// An integer.
    case int(Int)
    /// A floating-point number (must be finite to be encoded).
    case double(Double)
    /// A boolean, written `true`/`false`.
    case bool(Bool)
    /// JSON `null`; left out of query strings and form bodies.
    case null
    /// An ordered list.
    case array([ParameterValue])
    /// A nested object, in insertion order.
    case object(Parameters)

    /// Creates a string value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates an integer value.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// Creates a floating-point value.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// Creates a boolean value.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates an array value.
    public init(arrayLiteral elements: ParameterValue...) { self = .array(elements) }
    /// Creates an object value.
    public init(dictionaryLiteral elements: (String, ParameterValue)...) { self = .object(Parameters(elements)) }
    /// Creates `null`.
    public init(nilLiteral: ()) { self = .null }

    /// The scalar's text as written in a query string, or `nil` for `null`, arrays and objects.
    public var scalarText: String? {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): value.description
        case .bool(let value): value ? "true" : "false"
        case .null, .array, .object: nil
        }
    }

    /// Encodes the value as JSON would show it.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .int(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .double(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let parameters):
            try parameters.encode(to: encoder)
        }
    }
}
