import Foundation
public import Logging
import Synchronization

/// Maps service identifiers to services, folds each service's pipeline once at registration, and
/// holds the current ``ServerEnvironment`` — the registry's, and any a single service (a module) was
/// switched to on its own.
///
/// ```swift
/// let registry = ServiceRegistry(configuration: .init(isReleaseBuild: false, defaultEnvironment: .develop))
/// try registry.register(usersService)
/// try registry.switchEnvironment(to: .test)                 // persisted; throws in a release build
/// try registry.switchEnvironment(to: .prerelease, for: .payments)   // one module alone, persisted too
/// print(try registry.pipeline(for: .users))                 // the stages in order, then the transport
/// ```
///
/// A service switched on its own stays in its environment when the registry's changes, until it is
/// switched back with `switchEnvironment(to: nil, for:)`. Its calls still go through the one client:
/// cancelling by tag or service, same-request coalescing and sessions work across modules whatever
/// their environments. Every call reports, caches and logs under its service's environment
/// (``CallResult/environment``, ``CallContext/environment``), so an answer cached in one environment is
/// never served in another.
///
/// The registry is safe to use from any task. Registering a service under an identifier that is
/// already registered replaces it; calls already running finish with the pipeline they started with.
public final class ServiceRegistry: Sendable {
    /// How a registry chooses and persists its environment.
    public struct Configuration: Sendable {
        /// When `true`, the environment is always ``ServerEnvironment/release``, for every service:
        /// the stored choice is ignored and switching — the registry or one service — throws
        /// ``SwitchyardError/Code/environmentLocked``.
        public var isReleaseBuild: Bool
        /// The environment used when nothing (valid) is stored.
        public var defaultEnvironment: ServerEnvironment
        /// Where the choice is persisted; `nil` to persist nothing.
        public var store: (any EnvironmentStore)?
        /// Where the registry reports problems it recovers from (a corrupt stored choice).
        public var logger: Logger

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - isReleaseBuild: lock the environment to release (pass `true` in release builds).
        ///   - defaultEnvironment: the environment when nothing is stored.
        ///   - store: where the choice is persisted; the application-support file by default.
        ///   - logger: where recovered problems are reported.
        public init(
            isReleaseBuild: Bool,
            defaultEnvironment: ServerEnvironment = .release,
            store: (any EnvironmentStore)? = FileEnvironmentStore.applicationSupport(),
            logger: Logger = CallContext.disabledLogger
        ) {
            self.isReleaseBuild = isReleaseBuild
            self.defaultEnvironment = defaultEnvironment
            self.store = store
            self.logger = logger
        }
    }

    /// A registered service with its parsed base URLs and folded pipeline (a class, so that a call
    /// takes one reference instead of copying the service's fields).
    final class Entry: Sendable {
        let service: Service
        let baseURLs: [ServerEnvironment: BaseURL]
        /// The base URL for environments ``baseURLs`` does not name (``Service/fallbackBaseURL``).
        let fallbackBaseURL: BaseURL?
        let pipeline: Pipeline
        /// The service's decoder, made once.
        let decoder: JSONDecoder
        /// The service's encoder for explicit bodies, made once, with sorted keys.
        let encoder: JSONEncoder

        init(service: Service, baseURLs: [ServerEnvironment: BaseURL], fallbackBaseURL: BaseURL?, pipeline: Pipeline) {
            self.service = service
            self.baseURLs = baseURLs
            self.fallbackBaseURL = fallbackBaseURL
            self.pipeline = pipeline
            self.decoder = service.defaults.makeDecoder()
            let encoder = service.defaults.makeEncoder()
            encoder.outputFormatting.insert(.sortedKeys)
            self.encoder = encoder
        }
    }

    /// A registered service, its environment and its base URL there (`nil` when it has none), worked
    /// out when any of them changes so that a call does a single lookup.
    struct Route: Sendable {
        let entry: Entry
        let environment: ServerEnvironment
        let baseURL: BaseURL?
    }

    /// What a call needs from the registry.
    struct Resolution: Sendable {
        let entry: Entry
        let baseURL: BaseURL
        let environment: ServerEnvironment
    }

    struct State {
        var routes: [ServiceID: Route] = [:]
        var environment: ServerEnvironment
        var customBaseURLs: [ServiceID: BaseURL] = [:]
        /// The environments of services switched on their own.
        var serviceEnvironments: [ServiceID: ServerEnvironment] = [:]

        /// The route of `entry` in its service's environment (its own, else the registry's): in
        /// ``ServerEnvironment/custom`` the custom base URL entered for the service, else the service's
        /// base URL for the environment, else its base URL for every environment.
        func route(_ entry: Entry) -> Route {
            let environment = serviceEnvironments[entry.service.id] ?? environment
            let custom = environment == .custom ? customBaseURLs[entry.service.id] : nil
            return Route(entry: entry, environment: environment, baseURL: custom ?? entry.baseURLs[environment] ?? entry.fallbackBaseURL)
        }

        /// What the store keeps of this state.
        var selection: EnvironmentSelection {
            EnvironmentSelection(
                environment: environment,
                customBaseURLs: Dictionary(uniqueKeysWithValues: customBaseURLs.map { ($0.key.rawValue, $0.value.absoluteString) }),
                serviceEnvironments: Dictionary(uniqueKeysWithValues: serviceEnvironments.map { ($0.key.rawValue, $0.value) })
            )
        }
    }

    /// The configuration the registry was created with.
    public let configuration: Configuration
    let state: Mutex<State>
    /// Serialises environment switches (``switchEnvironment(to:customBaseURLs:)``).
    let switching = Mutex(())

    /// Creates a registry and restores the persisted environment, with the environments of services
    /// switched on their own (unless this is a release build).
    ///
    /// A stored choice that cannot be read (among them one naming an environment with an invalid
    /// name), or custom URLs or service names that are not valid, are ignored and reported to the
    /// configuration's logger; the registry then starts in the default environment. A stored environment with a
    /// valid name is restored even when no service has a base URL for it: calls then fail with
    /// ``SwitchyardError/Code/missingBaseURL`` until the environment is switched.
    public init(configuration: Configuration) {
        self.configuration = configuration
        var initial = State(environment: configuration.isReleaseBuild ? .release : configuration.defaultEnvironment)
        if !configuration.isReleaseBuild, let store = configuration.store {
            do {
                if let stored = try store.load() {
                    initial.environment = stored.environment
                    for (name, url) in stored.customBaseURLs {
                        guard let id = ServiceID(name), let base = try? BaseURL(url) else {
                            configuration.logger.warning(
                                "ignoring stored custom base URL",
                                metadata: ["service": "\(name)", "url": "\(url)"]
                            )
                            continue
                        }
                        initial.customBaseURLs[id] = base
                    }
                    for (name, environment) in stored.serviceEnvironments {
                        guard let id = ServiceID(name) else {
                            configuration.logger.warning("ignoring stored service environment", metadata: ["service": "\(name)"])
                            continue
                        }
                        initial.serviceEnvironments[id] = environment
                    }
                }
            } catch {
                configuration.logger.warning("ignoring unreadable environment selection", metadata: ["error": "\(error)"])
            }
        }
        state = Mutex(initial)
    }

    /// Registers a service, folding its stages into a pipeline; replaces a service with the same identifier.
    ///
    /// - Throws: ``SwitchyardError/Code/invalidBaseURL`` when one of its base URLs is malformed.
    public func register(_ service: Service) throws(SwitchyardError) {
        func parse(_ url: String, for environment: ServerEnvironment?) throws(SwitchyardError) -> BaseURL {
            do {
                return try BaseURL(url)
            } catch {
                var error = error
                error.serviceID = service.id
                if let environment { error.message += " (environment \(environment))" }
                throw error
            }
        }
        var parsed: [ServerEnvironment: BaseURL] = [:]
        for (environment, url) in service.baseURLs { parsed[environment] = try parse(url, for: environment) }
        var fallback: BaseURL?
        if let url = service.fallbackBaseURL { fallback = try parse(url, for: nil) }
        try checkOrder(of: service)
        let pipeline = Pipeline(
            serviceID: service.id,
            stages: service.stages,
            transport: service.transport,
            follower: service.defaults.redirects.maximum > 0 ? RedirectFollower(policy: service.defaults.redirects) : nil,
            serviceState: { ServiceSessions($0) }
        )
        let entry = Entry(service: service, baseURLs: parsed, fallbackBaseURL: fallback, pipeline: pipeline)
        state.withLock { $0.routes[service.id] = $0.route(entry) }
    }

    /// Refuses a service whose stages break a required ``StageOrderRule``; logs a warning for each
    /// piece of advice they break.
    private func checkOrder(of service: Service) throws(SwitchyardError) {
        let violations = StageOrderRule.violations(in: service.stages)
        let refused = violations.filter { $0.rule.strength == .required }
        for advice in violations where advice.rule.strength == .advice {
            configuration.logger.warning("stage order of \(service.id): \(advice)")
        }
        guard !refused.isEmpty else { return }
        var error = SwitchyardError(
            code: .stageOrder,
            message: "the stages of \(service.id) stand in a forbidden order: " + refused.map(\.description).joined(separator: "; ")
        )
        error.serviceID = service.id
        error.stage = refused[0].stage
        throw error
    }

    /// Removes a service; returns whether it was registered.
    @discardableResult
    public func unregister(_ id: ServiceID) -> Bool {
        state.withLock { $0.routes.removeValue(forKey: id) != nil }
    }

    /// The identifiers of all registered services, sorted.
    public var serviceIDs: [ServiceID] { state.withLock { $0.routes.keys.sorted() } }

    /// The registered service for an identifier.
    ///
    /// - Throws: ``SwitchyardError/Code/unknownService``.
    public func service(for id: ServiceID) throws(SwitchyardError) -> Service {
        try entry(for: id).service
    }

    /// The folded pipeline of a service; print it to see the stages in order, then the transport.
    ///
    /// - Throws: ``SwitchyardError/Code/unknownService``.
    public func pipeline(for id: ServiceID) throws(SwitchyardError) -> Pipeline {
        try entry(for: id).pipeline
    }

    /// The registry's current environment: that of every service not switched on its own
    /// (``environment(for:)``).
    public var environment: ServerEnvironment { state.withLock { $0.environment } }

    /// The environment a service's calls are addressed to: the one it was switched to on its own
    /// (``switchEnvironment(to:for:customBaseURL:)``), else the registry's ``environment``.
    ///
    /// - Parameter id: the service, registered or not.
    public func environment(for id: ServiceID) -> ServerEnvironment {
        state.withLock { $0.serviceEnvironments[id] ?? $0.environment }
    }

    /// The base URL a service's calls go to in its current environment.
    ///
    /// - Throws: ``SwitchyardError/Code/unknownService`` or ``SwitchyardError/Code/missingBaseURL``.
    public func baseURL(for id: ServiceID) throws(SwitchyardError) -> String {
        try resolve(id).baseURL.absoluteString
    }

    /// Everything a call needs: the service entry, its base URL now, and its environment.
    func resolve(_ id: ServiceID) throws(SwitchyardError) -> Resolution {
        guard let route = state.withLock({ $0.routes[id] }) else { throw unknown(id) }
        guard let base = route.baseURL else {
            var error = SwitchyardError(
                code: .missingBaseURL,
                message: "service '\(id)' has no base URL for the \(route.environment) environment"
            )
            error.serviceID = id
            throw error
        }
        return Resolution(entry: route.entry, baseURL: base, environment: route.environment)
    }

    private func entry(for id: ServiceID) throws(SwitchyardError) -> Entry {
        guard let route = state.withLock({ $0.routes[id] }) else { throw unknown(id) }
        return route.entry
    }

    private func unknown(_ id: ServiceID) -> SwitchyardError {
        let known = serviceIDs.map(\.rawValue).joined(separator: ", ")
        var error = SwitchyardError(
            code: .unknownService,
            message: "no service is registered as '\(id)'" + (known.isEmpty ? "; none are registered" : "; registered: \(known)")
        )
        error.serviceID = id
        return error
    }
}
