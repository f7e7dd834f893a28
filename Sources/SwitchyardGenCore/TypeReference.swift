import Foundation

/// A type named in a description: a scalar, a model, an array or a string-keyed dictionary of either,
/// optionally optional — written `string`, `int`, `int64`, `double`, `bool`, `Article`, `[Article]`,
/// `[string: int]`, `string?`, `[int]?`.
public indirect enum TypeReference: Sendable, Hashable, CustomStringConvertible {
    /// A scalar type.
    case scalar(Scalar)
    /// A model declared under `models`.
    case model(String)
    /// An array of the element type.
    case array(TypeReference)
    /// An optional value (JSON `null` or absent).
    case optional(TypeReference)
    /// A JSON object with string keys and values of one type.
    case dictionary(TypeReference)

    /// The scalar types.
    public enum Scalar: String, Sendable, CaseIterable {
        /// Text.
        case string
        /// A machine integer (`Int`).
        case int
        /// A 64-bit integer (`Int64`).
        case int64
        /// A floating-point number (`Double`).
        case double
        /// `true` or `false`.
        case bool
        /// A 32-bit integer (`Int32`).
        case int32
        /// A single-precision number (`Float`).
        case float
        /// An RFC 3339 date and time (`Date`, written in ISO 8601).
        case dateTime
        /// Bytes written as base64 text (`Data`).
        case bytes

        /// The Swift type.
        public var swiftType: String {
            switch self {
            case .string: "String"
            case .int: "Int"
            case .int64: "Int64"
            case .double: "Double"
            case .bool: "Bool"
            case .int32: "Int32"
            case .float: "Float"
            case .dateTime: "Date"
            case .bytes: "Data"
            }
        }
    }

    /// The longest written type read, in bytes, and its deepest nesting of `[…]` and `?`: parsing
    /// recurses once per level.
    static let maximumLength = 1024
    static let maximumNesting = 32

    /// Parses a written type; `nil` when it is not well formed (an unknown model name parses: it
    /// is checked against the declared models later) or longer or deeper than any type a person writes.
    public init?(parsing text: String) {
        guard text.utf8.count <= Self.maximumLength,
            text.utf8.count(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "?") }) <= Self.maximumNesting
        else { return nil }
        self.init(checked: text)
    }

    private init?(checked text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("?") {
            guard let wrapped = TypeReference(checked: String(trimmed.dropLast())), !wrapped.isOptional else { return nil }
            self = .optional(wrapped)
        } else if trimmed.hasPrefix("[string:") && trimmed.hasSuffix("]") {
            guard let value = TypeReference(checked: String(trimmed.dropFirst(8).dropLast())) else { return nil }
            self = .dictionary(value)
        } else if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
            guard let element = TypeReference(checked: String(trimmed.dropFirst().dropLast())) else { return nil }
            self = .array(element)
        } else if let scalar = Scalar(rawValue: trimmed) {
            self = .scalar(scalar)
        } else if let first = trimmed.unicodeScalars.first, first.properties.isUppercase,
            trimmed.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" })
        {
            self = .model(trimmed)
        } else {
            return nil
        }
    }

    /// Whether the outermost type is optional.
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// The type without its outermost optionality.
    public var unwrapped: TypeReference {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }

    /// The model names the type mentions.
    public var modelNames: [String] {
        switch self {
        case .scalar: []
        case .model(let name): [name]
        case .array(let element), .optional(let element), .dictionary(let element): element.modelNames
        }
    }

    /// Whether the type is or contains the scalar.
    public func mentions(_ scalar: Scalar) -> Bool {
        switch self {
        case .scalar(let own): own == scalar
        case .model: false
        case .array(let element), .optional(let element), .dictionary(let element): element.mentions(scalar)
        }
    }

    /// The Swift spelling.
    public var swiftType: String {
        switch self {
        case .scalar(let scalar): scalar.swiftType
        case .model(let name): name
        case .array(let element): "[\(element.swiftType)]"
        case .optional(let wrapped): wrapped.swiftType + "?"
        case .dictionary(let value): "[String: \(value.swiftType)]"
        }
    }

    /// The written form, as in the description.
    public var description: String {
        switch self {
        case .scalar(let scalar): scalar.rawValue
        case .model(let name): name
        case .array(let element): "[\(element)]"
        case .optional(let wrapped): "\(wrapped)?"
        case .dictionary(let value): "[string: \(value)]"
        }
    }
}
