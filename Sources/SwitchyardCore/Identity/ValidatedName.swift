/// The one shape of the names Switchyard checks before it holds them: ``ServiceID``, ``StageID``
/// and ``ServerEnvironment``.
///
/// A valid name has 1 to 64 characters — ASCII letters, digits, `-`, `_` and `.` — and starts with a
/// letter. Names compare, hash and sort by ``canonicalName``, which ignores ASCII case. Each kind of
/// name is written three ways:
///
/// ```swift
/// extension ServiceID {
///     static let users: ServiceID = "users"             // a literal: checked when first used
/// }
/// let stage = StageID(configuredName)                  // a value: nil when invalid
/// let service = try ServiceID(validating: typedName)   // a value: a typed error when invalid
/// ```
///
/// A literal that is not a valid name stops the program when it is first used, as an out-of-range
/// index does: it is a mistake in the code, not in the data. Names that arrive at run time go through
/// `init?(_:)` or ``init(validating:)``; decoding refuses an invalid name with a `DecodingError`.
public protocol ValidatedName: Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
where StringLiteralType == String {
    /// The name as this value holds it.
    var rawValue: String { get }
    /// The lower-cased name used for equality, hashing and ordering.
    var canonicalName: String { get }
    /// Creates the value, or returns `nil` when `name` is not a valid name (see ``isValid(_:)``).
    ///
    /// - Parameter name: the candidate name.
    init?(_ name: String)
    /// What this kind of name is called in an error message, such as `stage id`.
    static var kind: String { get }
    /// The error code ``init(validating:)`` throws for an invalid name.
    static var invalidNameCode: SwitchyardError.Code { get }
}

extension ValidatedName {
    /// ``SwitchyardError/Code/invalidRequest``: a name the caller got wrong.
    public static var invalidNameCode: SwitchyardError.Code { .invalidRequest }

    /// Whether `name` is a valid name: 1 to 64 characters from `A-Z a-z 0-9 - _ .`, starting with a
    /// letter.
    ///
    /// - Parameter name: the candidate name.
    /// - Returns: whether every kind of validated name accepts it.
    public static func isValid(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard (1...64).contains(utf8.count), let first = utf8.first, first.isASCIILetter else { return false }
        return utf8.allSatisfy {
            $0.isASCIILetter || $0.isASCIIDigit || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
        }
    }

    /// Creates the value from a literal in the code, which must be a valid name.
    ///
    /// - Parameter value: the literal name; an invalid one is a programming error that stops the
    ///   program.
    public init(stringLiteral value: String) {
        guard let name = Self(value) else {
            preconditionFailure(
                "'\(value)' is not a valid \(Self.kind): use 1 to 64 characters from A-Z, a-z, 0-9, '-', '_' and '.', starting with a letter"
            )
        }
        self = name
    }

    /// Creates the value or throws ``invalidNameCode`` with the reason.
    ///
    /// - Parameter name: the candidate name.
    /// - Throws: ``SwitchyardError`` when `name` is not a valid name.
    public init(validating name: String) throws(SwitchyardError) {
        guard let value = Self(name) else {
            throw SwitchyardError(
                code: Self.invalidNameCode,
                message: "'\(name)' is not a valid \(Self.kind): use 1 to 64 characters from "
                    + "A-Z, a-z, 0-9, '-', '_' and '.', starting with a letter"
            )
        }
        self = value
    }

    /// Reads a name written as a single string, refusing an invalid one with a `DecodingError`.
    ///
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(String.self)
        guard let value = Self(raw) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "invalid \(Self.kind) '\(raw)'")
        }
        self = value
    }

    /// Writes the name as a single string.
    ///
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The name as this value holds it.
    public var description: String { rawValue }

    /// Two names are equal when their canonical names are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.canonicalName == rhs.canonicalName }

    /// Hashes the canonical name.
    ///
    /// - Parameter hasher: the hasher.
    public func hash(into hasher: inout Hasher) { hasher.combine(canonicalName) }

    /// Orders names by their canonical names.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.canonicalName < rhs.canonicalName }
}

extension UInt8 {
    @inlinable
    var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
    @inlinable
    var isASCIIDigit: Bool { (0x30...0x39).contains(self) }
}
