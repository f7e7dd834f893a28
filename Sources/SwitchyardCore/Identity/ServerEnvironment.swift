/// The backend environment calls are addressed to.
///
/// Each ``Service`` has a base URL per environment. The ``ServiceRegistry`` holds the current one;
/// it can be switched at run time (a debug menu, a tester's settings page), the choice is persisted,
/// and a release build is locked to ``release``.
///
/// Environments are open: the six well-known ones below are predefined, and a team that names its
/// backends differently declares its own, with the same rules as a ``ServiceID`` (1 to 64
/// characters, ASCII letters, digits, `-`, `_` and `.`, starting with a letter). Names ignore ASCII
/// case: they are kept lower-cased.
///
/// ```swift
/// extension ServerEnvironment {
///     static let uat = ServerEnvironment("uat")!
/// }
/// let users = Service(.users, baseURLs: [.uat: "https://uat.example.com/users", .release: "https://api.example.com/users"], …)
/// ```
///
/// ``custom`` is for an address typed in at run time: the registry keeps a custom base URL per
/// service (see ``ServiceRegistry/switchEnvironment(to:customBaseURLs:)``).
public struct ServerEnvironment: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The environment's name, lower-cased.
    public let rawValue: String

    /// Creates an environment, or returns `nil` when `name` is not a valid name.
    ///
    /// - Parameter name: 1 to 64 characters from `A-Z a-z 0-9 - _ .`, starting with a letter; it is
    ///   lower-cased.
    public init?(_ name: String) {
        guard ServiceID.isValid(name) else { return nil }
        self.init(known: name)
    }

    /// Creates a well-known environment from a name that is already valid and lower-case.
    private init(known name: String) { rawValue = name.lowercased() }

    /// Developers' backend.
    public static let develop = ServerEnvironment(known: "develop")
    /// The test (QA) backend.
    public static let test = ServerEnvironment(known: "test")
    /// The pre-release (staging) backend.
    public static let prerelease = ServerEnvironment(known: "prerelease")
    /// The production backend.
    public static let release = ServerEnvironment(known: "release")
    /// A hotfix backend.
    public static let hotfix = ServerEnvironment(known: "hotfix")
    /// A base URL entered at run time, per service.
    public static let custom = ServerEnvironment(known: "custom")

    /// The environment's name.
    public var description: String { rawValue }

    /// Decodes an environment from a single string, rejecting invalid names.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode(String.self)
        guard let environment = ServerEnvironment(raw) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "invalid environment name '\(raw)'")
        }
        self = environment
    }

    /// Encodes the environment as a single string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
