/// The persisted choice of environment: which one is current, and the custom base URLs entered
/// for ``ServerEnvironment/custom``.
public struct EnvironmentSelection: Sendable, Hashable, Codable {
    /// The current environment.
    public var environment: ServerEnvironment
    /// Custom base URLs by service identifier (raw names), used when ``environment`` is `.custom`.
    public var customBaseURLs: [String: String]

    /// Creates a selection.
    public init(environment: ServerEnvironment, customBaseURLs: [String: String] = [:]) {
        self.environment = environment
        self.customBaseURLs = customBaseURLs
    }
}
