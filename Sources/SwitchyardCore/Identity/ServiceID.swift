/// The validated name of a backend service (often called a "module": one backend with its own
/// host, keys and conventions).
///
/// A service identifier names one entry of a `ServiceRegistry`: its base URLs, its defaults and its
/// pipeline of stages. It is a ``ValidatedName``: a small value that can only hold a valid name, whose
/// comparison ignores ASCII case; ``rawValue`` keeps the spelling it was created with and
/// ``canonicalName`` is the lower-cased form.
///
/// ```swift
/// extension ServiceID {
///     static let users: ServiceID = "users"
///     static let catalog: ServiceID = "catalog"
/// }
/// ```
public struct ServiceID: ValidatedName {
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

    /// `service identifier`, as errors call it.
    public static var kind: String { "service identifier" }

    /// ``SwitchyardError/Code/invalidServiceID``.
    public static var invalidNameCode: SwitchyardError.Code { .invalidServiceID }
}
