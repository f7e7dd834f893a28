/// The persisted choice of environment: which one is current, the environments single services
/// (modules) were moved to, and the custom base URLs entered for ``ServerEnvironment/custom``.
public struct EnvironmentSelection: Sendable, Hashable, Codable {
    /// The current environment of the registry: every service's, unless ``serviceEnvironments``
    /// names another for it.
    public var environment: ServerEnvironment
    /// Custom base URLs by service identifier (raw names), used when a service's environment is `.custom`.
    public var customBaseURLs: [String: String]
    /// The environments single services were switched to, by service identifier (raw names); a
    /// service not named here is in ``environment``. Empty in files written before services could
    /// have an environment of their own.
    public var serviceEnvironments: [String: ServerEnvironment]

    /// Creates a selection.
    ///
    /// - Parameters:
    ///   - environment: the registry's environment.
    ///   - customBaseURLs: custom base URLs by service identifier.
    ///   - serviceEnvironments: environments of single services that differ from the registry's.
    public init(
        environment: ServerEnvironment,
        customBaseURLs: [String: String] = [:],
        serviceEnvironments: [String: ServerEnvironment] = [:]
    ) {
        self.environment = environment
        self.customBaseURLs = customBaseURLs
        self.serviceEnvironments = serviceEnvironments
    }

    private enum CodingKeys: String, CodingKey {
        case environment, customBaseURLs, serviceEnvironments
    }

    /// Decodes a selection; a file without service environments (written by an earlier version)
    /// decodes with none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        environment = try container.decode(ServerEnvironment.self, forKey: .environment)
        customBaseURLs = try container.decodeIfPresent([String: String].self, forKey: .customBaseURLs) ?? [:]
        serviceEnvironments = try container.decodeIfPresent([String: ServerEnvironment].self, forKey: .serviceEnvironments) ?? [:]
    }
}
