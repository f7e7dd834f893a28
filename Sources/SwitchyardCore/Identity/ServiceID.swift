/// The validated name of a backend service (often called a "module": one backend with its own
/// host, keys and conventions).
///
/// A service identifier names one entry of a ``ServiceRegistry``: its base URLs, its defaults and its
/// pipeline of stages. Like `HTTPField.Name`, it is a small value type that can only hold a valid
/// name: 1 to 64 characters, ASCII letters, digits, `-`, `_` and `.`, starting with a letter.
/// Comparison ignores ASCII case; ``rawValue`` keeps the spelling it was created with and
/// ``canonicalName`` is the lower-cased form.
///
/// ```swift
/// extension ServiceID {
///     static let users = ServiceID("users")!
///     static let catalog = ServiceID("catalog")!
/// }
/// ```
public struct ServiceID: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// The name as it was given.
    public let rawValue: String
    /// The lower-cased name used for equality, hashing and ordering.
    public let canonicalName: String

    /// Creates a service identifier, or returns `nil` when `rawValue` is not a valid name.
    ///
    /// - Parameter rawValue: 1 to 64 characters from `A-Z a-z 0-9 - _ .`, starting with a letter.
    public init?(_ rawValue: String) {
        guard Self.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
        self.canonicalName = rawValue.lowercased()
    }

    /// Creates a service identifier or throws ``SwitchyardError/Code/invalidServiceID`` with the reason.
    ///
    /// - Parameter rawValue: the candidate name.
    /// - Throws: ``SwitchyardError`` when `rawValue` is not a valid name.
    public init(validating rawValue: String) throws(SwitchyardError) {
        guard let id = ServiceID(rawValue) else {
            throw SwitchyardError(
                code: .invalidServiceID,
                message: "'\(rawValue)' is not a valid service identifier: use 1 to 64 characters from "
                    + "A-Z, a-z, 0-9, '-', '_' and '.', starting with a letter"
            )
        }
        self = id
    }

    /// Whether `name` is a valid service identifier.
    static func isValid(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard (1...64).contains(utf8.count), let first = utf8.first, first.isASCIILetter else { return false }
        return utf8.allSatisfy {
            $0.isASCIILetter || $0.isASCIIDigit || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
        }
    }

    /// The name as it was given.
    public var description: String { rawValue }

    /// Two identifiers are equal when their names are equal ignoring ASCII case.
    public static func == (lhs: ServiceID, rhs: ServiceID) -> Bool { lhs.canonicalName == rhs.canonicalName }

    /// Hashes the canonical (lower-cased) name.
    public func hash(into hasher: inout Hasher) { hasher.combine(canonicalName) }

    /// Orders identifiers by their canonical names.
    public static func < (lhs: ServiceID, rhs: ServiceID) -> Bool { lhs.canonicalName < rhs.canonicalName }

    /// Decodes an identifier from a single string, rejecting invalid names.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(String.self)
        guard let id = ServiceID(raw) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "invalid service identifier '\(raw)'")
        }
        self = id
    }

    /// Encodes the identifier as a single string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension UInt8 {
    @inlinable
    var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
    @inlinable
    var isASCIIDigit: Bool { (0x30...0x39).contains(self) }
}
