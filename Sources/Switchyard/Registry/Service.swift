/// A backend service (a "module"): its base URL per environment, its defaults, its pipeline of
/// stages and its transport.
///
/// Register services with a ``ServiceRegistry``; the registry folds the stages into a ``Pipeline``
/// once, at registration.
///
/// ```swift
/// let users = Service(
///     .users,
///     baseURLs: [.develop: "http://127.0.0.1:8080/users-api", .release: "https://api.example.com/users"],
///     stages: [AcceptJSON(), RequestLogger()],   // in order on the way in, reversed on the way out
///     transport: AsyncHTTPClientTransport()
/// )
/// try registry.register(users)
/// ```
public struct Service: Sendable {
    /// The service's identifier.
    public let id: ServiceID
    /// Base URLs by environment, as absolute `http`/`https` URLs (validated at registration).
    ///
    /// Any environment may be named, not only the well-known ones; a call in an environment the
    /// service has no base URL for fails with ``SwitchyardError/Code/missingBaseURL``.
    public var baseURLs: [ServerEnvironment: String]
    /// The base URL for environments ``baseURLs`` does not name, set by
    /// ``init(_:baseURL:defaults:stages:transport:)``.
    var fallbackBaseURL: String?
    /// Defaults for the service's calls.
    public var defaults: ServiceDefaults
    /// The stages, outermost first: requests pass them in this order, responses in reverse.
    public var stages: [any Stage]
    /// The transport at the end of the pipeline.
    public var transport: any Transport

    /// Creates a service.
    ///
    /// - Parameters:
    ///   - id: the service's identifier.
    ///   - baseURLs: base URLs by environment.
    ///   - defaults: defaults for the service's calls.
    ///   - stages: the stages, outermost first.
    ///   - transport: the transport.
    public init(
        _ id: ServiceID,
        baseURLs: [ServerEnvironment: String],
        defaults: ServiceDefaults = ServiceDefaults(),
        stages: [any Stage] = [],
        transport: any Transport
    ) {
        self.id = id
        self.baseURLs = baseURLs
        self.defaults = defaults
        self.stages = stages
        self.transport = transport
    }

    /// Creates a service with one base URL for every environment, including environments of your own.
    ///
    /// - Parameters:
    ///   - id: the service's identifier.
    ///   - baseURL: the base URL used in every environment.
    ///   - defaults: defaults for the service's calls.
    ///   - stages: the stages, outermost first.
    ///   - transport: the transport.
    public init(
        _ id: ServiceID,
        baseURL: String,
        defaults: ServiceDefaults = ServiceDefaults(),
        stages: [any Stage] = [],
        transport: any Transport
    ) {
        let wellKnown: [ServerEnvironment] = [.develop, .test, .prerelease, .release, .hotfix, .custom]
        self.init(
            id,
            baseURLs: Dictionary(uniqueKeysWithValues: wellKnown.map { ($0, baseURL) }),
            defaults: defaults,
            stages: stages,
            transport: transport
        )
        fallbackBaseURL = baseURL
    }
}
