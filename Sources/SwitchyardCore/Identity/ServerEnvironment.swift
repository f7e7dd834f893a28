/// The backend environment calls are addressed to.
///
/// Each `Service` has a base URL per environment. The `ServiceRegistry` holds the current one;
/// it can be switched at run time (a debug menu, a tester's settings page), the choice is persisted,
/// and a release build is locked to ``release``.
///
/// Environments are open: the six well-known ones below are predefined, and a team that names its
/// backends differently declares its own. It is a ``ValidatedName`` like a ``ServiceID``; names
/// ignore ASCII case: they are kept lower-cased.
///
/// ```swift
/// extension ServerEnvironment {
///     static let uat: ServerEnvironment = "uat"
/// }
/// let users = Service(.users, baseURLs: [.uat: "https://uat.example.com/users", .release: "https://api.example.com/users"], …)
/// ```
///
/// ``custom`` is for an address typed in at run time: the registry keeps a custom base URL per
/// service (see `ServiceRegistry.switchEnvironment(to:customBaseURLs:)`).
public struct ServerEnvironment: ValidatedName {
    /// The environment's name, lower-cased.
    public let rawValue: String

    /// Creates an environment, or returns `nil` when `name` is not a valid name.
    ///
    /// - Parameter name: 1 to 64 characters from `A-Z a-z 0-9 - _ .`, starting with a letter; it is
    ///   lower-cased.
    public init?(_ name: String) {
        guard Self.isValid(name) else { return nil }
        self.init(known: name)
    }

    /// The name, which is already lower-cased.
    public var canonicalName: String { rawValue }

    /// `environment`, as errors call it.
    public static var kind: String { "environment" }

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
}
